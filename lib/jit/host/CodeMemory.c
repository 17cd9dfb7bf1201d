/*===- lib/jit/host/CodeMemory.c - A Jit's linked sections, pages reused ----===*/

#include "jit/host/CodeMemory.h"

#include <llvm-c/OrcEE.h>

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Address space only (pages are committed as objects take them): the first
 * size the system grants. */
static const size_t RegionSizes[] = {(size_t)1 << 30, (size_t)256 << 20,
                                     (size_t)64 << 20};

/* What a run of pages holds, and so its protection while it is free: code is
 * left read-execute, read-only data read-only, data read-write; released
 * runs (given back to the system) are inaccessible, as is the never used
 * rest of the range. While an object's sections are written, all of its runs
 * are read-write; its finalization gives them their kind's protection. */
typedef enum { Code, ReadOnly, Data, Released, NumKinds } Kind;

static const int Protection[NumKinds] = {PROT_READ | PROT_EXEC, PROT_READ,
                                         PROT_READ | PROT_WRITE, PROT_NONE};

typedef struct Run {
  uintptr_t Addr;
  size_t Size;
  Kind K;
  bool Alone; /* a mapping of its own, outside the range */
  struct Run *Next;
} Run;

struct orc_rt_jit_CodeMemory {
  /* Everything below: objects are linked on several threads (a load on the
   * host's, a tier-up on the compile thread). */
  pthread_mutex_t Lock;
  uintptr_t Base, Next, End; /* the range; [Next, End) never used yet */
  Run *Free[NumKinds];
  size_t Kept; /* bytes in Free[Code], Free[ReadOnly] and Free[Data] */
  size_t Page;
  bool NoRange; /* no size could be reserved */
};

/* One object's memory (RuntimeDyld's allocation context). */
typedef struct {
  orc_rt_jit_CodeMemory *M;
  Run *Runs;              /* taken, newest first */
  Run *Cur[Released];     /* the run each kind's sections go into */
  uintptr_t At[Released]; /* the first free byte of Cur */
} ObjectMemory;

static uintptr_t alignUp(uintptr_t V, uintptr_t A) {
  return (V + A - 1) & ~(A - 1);
}

orc_rt_jit_CodeMemory *orc_rt_jit_CodeMemory_create(void) {
  orc_rt_jit_CodeMemory *M = calloc(1, sizeof(*M));
  if (!M)
    return NULL;
  pthread_mutex_init(&M->Lock, NULL);
  M->Page = (size_t)sysconf(_SC_PAGESIZE);
  return M;
}

static void freeList(Run *R) {
  while (R) {
    Run *Next = R->Next;
    free(R);
    R = Next;
  }
}

void orc_rt_jit_CodeMemory_dispose(orc_rt_jit_CodeMemory *M) {
  if (!M)
    return;
  for (int K = 0; K < NumKinds; ++K)
    freeList(M->Free[K]);
  if (M->Base)
    munmap((void *)M->Base, M->End - M->Base);
  pthread_mutex_destroy(&M->Lock);
  free(M);
}

/*---- Runs of pages, under M->Lock ----*/

static bool reserve(orc_rt_jit_CodeMemory *M) {
  for (size_t I = 0; !M->Base && I < sizeof(RegionSizes) / sizeof(*RegionSizes);
       ++I) {
    void *P = mmap(NULL, RegionSizes[I], PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P != MAP_FAILED) {
      M->Base = M->Next = (uintptr_t)P;
      M->End = M->Base + RegionSizes[I];
    }
  }
  M->NoRange = !M->Base;
  return M->Base;
}

/* Gives R's pages back to the system; R becomes Released. */
static void release(Run *R) {
  madvise((void *)R->Addr, R->Size, MADV_DONTNEED);
  mprotect((void *)R->Addr, R->Size, PROT_NONE);
  R->K = Released;
}

/* The first free run of kind K of at least Size bytes, taken off its list
 * (its rest, if any, stays there). */
static Run *takeFree(orc_rt_jit_CodeMemory *M, Kind K, size_t Size) {
  for (Run **P = &M->Free[K]; *P; P = &(*P)->Next) {
    Run *R = *P;
    if (R->Size < Size)
      continue;
    if (R->Size > Size) { /* split: the taken part is a new run */
      Run *T = malloc(sizeof(*T));
      if (!T)
        return NULL;
      *T = (Run){R->Addr, Size, K, false, NULL};
      R->Addr += Size;
      R->Size -= Size;
      R = T;
    } else {
      *P = R->Next;
    }
    if (K != Released)
      M->Kept -= Size;
    return R;
  }
  return NULL;
}

static int byAddr(const void *A, const void *B) {
  uintptr_t X = (*(Run *const *)A)->Addr, Y = (*(Run *const *)B)->Addr;
  return X < Y ? -1 : X > Y;
}

/* Every free run released and adjacent ones merged; runs that end where the
 * never used rest starts join it. Only when the range is full. */
static void compact(orc_rt_jit_CodeMemory *M) {
  size_t N = 0;
  for (int K = 0; K < NumKinds; ++K)
    for (Run *R = M->Free[K]; R; R = R->Next)
      ++N;
  Run **All = malloc((N + 1) * sizeof(*All));
  if (!All)
    return;
  N = 0;
  for (int K = 0; K < NumKinds; ++K) {
    for (Run *R = M->Free[K], *Next; R; R = Next) {
      Next = R->Next;
      if (R->K != Released)
        release(R);
      All[N++] = R;
    }
    M->Free[K] = NULL;
  }
  M->Kept = 0;
  qsort(All, N, sizeof(*All), byAddr);
  Run *Merged = NULL;
  for (size_t I = N; I-- > 0;) { /* from the top, pushing: the list ascends */
    Run *R = All[I];
    if (Merged && R->Addr + R->Size == Merged->Addr) {
      Merged->Addr = R->Addr;
      Merged->Size += R->Size;
      free(R);
      continue;
    }
    if (!Merged && R->Addr + R->Size == M->Next) {
      M->Next = R->Addr;
      free(R);
      continue;
    }
    R->Next = Merged;
    Merged = R;
  }
  M->Free[Released] = Merged;
  free(All);
}

/* A run of Size bytes (a multiple of the page size) for kind K, read-write,
 * or NULL when the range is full or out of memory. Free runs of K first
 * (kept warm), then of any kind, then the never used rest; compacted once
 * before giving up. */
static Run *take(orc_rt_jit_CodeMemory *M, Kind K, size_t Size) {
  static const Kind Order[NumKinds] = {Data, ReadOnly, Code, Released};
  pthread_mutex_lock(&M->Lock);
  Run *R = NULL;
  if (!M->Base && !M->NoRange)
    reserve(M);
  for (int Pass = 0; M->Base && !R && Pass < 2; ++Pass) {
    R = takeFree(M, K, Size);
    for (int I = 0; !R && I < NumKinds; ++I)
      if (Order[I] != K)
        R = takeFree(M, Order[I], Size);
    if (!R && M->End - M->Next >= Size && (R = malloc(sizeof(*R)))) {
      *R = (Run){M->Next, Size, Released, false, NULL};
      M->Next += Size;
    }
    if (!R && Pass == 0)
      compact(M);
  }
  pthread_mutex_unlock(&M->Lock);
  if (!R)
    return NULL;
  /* Ours alone now: the pages another object left (its code freed only
   * after its last frame returned) are written by this one. */
  if (R->K != Data &&
      mprotect((void *)R->Addr, R->Size, PROT_READ | PROT_WRITE)) {
    pthread_mutex_lock(&M->Lock);
    R->Next = M->Free[R->K];
    M->Free[R->K] = R;
    if (R->K != Released)
      M->Kept += R->Size;
    pthread_mutex_unlock(&M->Lock);
    return NULL;
  }
  R->K = K;
  return R;
}

/* A section the range cannot hold (a large array, or the range full): a
 * mapping of its own, read-write, next to the range if that place is free
 * (the small code model reaches 2 GiB). NULL only if the system has no
 * memory for it: then RuntimeDyld ends the process, as with LLVM's own
 * memory managers. */
static Run *mapAlone(orc_rt_jit_CodeMemory *M, Kind K, size_t Size) {
  Run *R = malloc(sizeof(*R));
  void *P = R ? mmap((void *)M->End, Size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
              : MAP_FAILED;
  if (P == MAP_FAILED) {
    free(R);
    return NULL;
  }
  *R = (Run){(uintptr_t)P, Size, K, true, NULL};
  return R;
}

/* Runs of an object that went: kept with their protection, up to
 * ORC_RT_JIT_CODEMEMORY_KEEP bytes; past that, kept runs are released (data
 * first, then read-only, then code; the most recently freed first) until
 * half of that is left. */
static void giveBack(orc_rt_jit_CodeMemory *M, Run *Runs) {
  pthread_mutex_lock(&M->Lock);
  for (Run *R = Runs, *Next; R; R = Next) {
    Next = R->Next;
    if (R->Alone) {
      munmap((void *)R->Addr, R->Size);
      free(R);
      continue;
    }
    R->Next = M->Free[R->K];
    M->Free[R->K] = R;
    if (R->K != Released)
      M->Kept += R->Size;
  }
  for (int K = Data; M->Kept > ORC_RT_JIT_CODEMEMORY_KEEP && K >= Code; --K) {
    while (M->Kept > ORC_RT_JIT_CODEMEMORY_KEEP / 2 && M->Free[K]) {
      Run *R = M->Free[K];
      M->Free[K] = R->Next;
      M->Kept -= R->Size;
      release(R);
      R->Next = M->Free[Released];
      M->Free[Released] = R;
    }
  }
  pthread_mutex_unlock(&M->Lock);
}

/*---- RuntimeDyld's memory manager, one per object ----*/

static void *createContext(void *Ctx) {
  ObjectMemory *O = calloc(1, sizeof(*O));
  if (O)
    O->M = Ctx;
  return O;
}

static void notifyTerminating(void *Ctx) { (void)Ctx; }

/* (NULL ends the process: RuntimeDyld's "Unable to allocate section
 * memory!" is a fatal error.) */
static uint8_t *allocate(ObjectMemory *O, Kind K, uintptr_t Size,
                         unsigned Alignment) {
  if (!O)
    return NULL;
  uintptr_t Align = 1;
  while (Align < Alignment) /* (a power of two, as ELF's) */
    Align <<= 1;
  Run *C = O->Cur[K];
  uintptr_t At = alignUp(O->At[K], Align);
  if (C && At >= O->At[K] && At <= C->Addr + C->Size &&
      C->Addr + C->Size - At >= Size) {
    O->At[K] = At + Size;
    return (uint8_t *)At;
  }
  size_t Page = O->M->Page;
  size_t Need = Size + (Align > Page ? Align : 0);
  if (Need < Size || Need > SIZE_MAX - Page)
    return NULL;
  size_t Bytes = Need ? alignUp(Need, Page) : Page;
  Run *R = take(O->M, K, Bytes);
  if (!R && !(R = mapAlone(O->M, K, Bytes)))
    return NULL;
  R->Next = O->Runs;
  O->Runs = R;
  O->Cur[K] = R;
  At = alignUp(R->Addr, Align);
  O->At[K] = At + Size;
  return (uint8_t *)At;
}

static uint8_t *allocateCode(void *Ctx, uintptr_t Size, unsigned Alignment,
                             unsigned SectionID, const char *Name) {
  (void)SectionID, (void)Name;
  return allocate(Ctx, Code, Size, Alignment);
}

static uint8_t *allocateData(void *Ctx, uintptr_t Size, unsigned Alignment,
                             unsigned SectionID, const char *Name,
                             LLVMBool IsReadOnly) {
  (void)SectionID, (void)Name;
  return allocate(Ctx, IsReadOnly ? ReadOnly : Data, Size, Alignment);
}

/* The object is linked: its code becomes read-execute and its read-only data
 * read-only (x86-64 needs no instruction-cache flush). */
static LLVMBool finalize(void *Ctx, char **ErrMsg) {
  ObjectMemory *O = Ctx;
  for (Run *R = O ? O->Runs : NULL; R; R = R->Next) {
    if (R->K == Data || !mprotect((void *)R->Addr, R->Size, Protection[R->K]))
      continue;
    char Msg[160];
    snprintf(Msg, sizeof(Msg),
             "cannot make %zu bytes of linked code at %p %s: %s", R->Size,
             (void *)R->Addr, R->K == Code ? "executable" : "read-only",
             strerror(errno));
    *ErrMsg = strdup(Msg);
    return 1;
  }
  return 0;
}

/* The object is gone (RuntimeDyld deregistered its frames first). */
static void destroy(void *Ctx) {
  ObjectMemory *O = Ctx;
  if (!O)
    return;
  if (O->Runs)
    giveBack(O->M, O->Runs);
  free(O);
}

LLVMOrcObjectLayerRef
orc_rt_jit_CodeMemory_createLayer(orc_rt_jit_CodeMemory *M,
                                  LLVMOrcExecutionSessionRef ES) {
  return LLVMOrcCreateRTDyldObjectLinkingLayerWithMCJITMemoryManagerLikeCallbacks(
      ES, M, createContext, notifyTerminating, allocateCode, allocateData,
      finalize, destroy);
}
