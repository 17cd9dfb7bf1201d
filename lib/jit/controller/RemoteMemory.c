/*===- lib/jit/controller/RemoteMemory.c - RuntimeDyld sections at executor addresses ===*/

#include "jit/controller/RemoteMemory.h"
#include "jit/support/GrowArray.h"

#include <llvm-c/OrcEE.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Address space, not memory: neither process touches a page it does not
 * use. Everything of one program sits within 2 GiB of everything else, as
 * the small code model needs. */
enum { ArenaSize = 256u << 20, MaxAttempts = 8 };

/* The executor's memory-manager permissions (RemoteAllocGroup bits). */
enum { Prot_R = 1, Prot_W = 2, Prot_X = 4 };

struct orc_rt_jit_RemoteMemory {
  orc_rt_jit_Executor *E;
  uint64_t Base, Next, End;
  uint64_t RegisterEHFrame, DeregisterEHFrame; /* alloc actions (or 0) */
  pthread_mutex_t Lock; /* Next: objects may be linked on several threads */
};

typedef struct {
  uint64_t Addr, Size;
  uint8_t Prot;
} Section;

/* One object's sections (the memory manager RuntimeDyld gets per object). */
typedef struct {
  orc_rt_jit_RemoteMemory *M;
  Section *Sections;
  size_t NumSections, Capacity;
  uint64_t EHFrame, EHFrameSize;
} ObjectMemory;

static uint64_t alignTo(uint64_t V, uint64_t A) {
  return (V + A - 1) & ~(A - 1);
}

/* Reserves ArenaSize in the executor and maps the same range here, trying
 * again (keeping the clash reserved meanwhile) if that range is taken here. */
orc_rt_ErrorRef orc_rt_jit_RemoteMemory_create(orc_rt_jit_RemoteMemory **Result,
                                               orc_rt_jit_Executor *E) {
  orc_rt_jit_RemoteMemory *M = calloc(1, sizeof(*M));
  if (!M)
    return orc_rt_Error_create("out of memory");
  M->E = E;
  uint64_t Clashes[MaxAttempts];
  size_t NumClashes = 0;
  orc_rt_ErrorRef Err = NULL;
  while (!Err && !M->Base && NumClashes < MaxAttempts) {
    uint64_t Addr;
    if ((Err = orc_rt_jit_Executor_reserve(E, ArenaSize, &Addr)))
      break;
    void *P =
        mmap((void *)(uintptr_t)Addr, ArenaSize, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
             -1, 0);
    if (P == (void *)(uintptr_t)Addr) {
      M->Base = Addr;
      continue;
    }
    if (P != MAP_FAILED) /* a kernel without MAP_FIXED_NOREPLACE */
      munmap(P, ArenaSize);
    Clashes[NumClashes++] = Addr;
  }
  if (NumClashes)
    Err = orc_rt_Error_join(
        Err, orc_rt_jit_Executor_release(E, Clashes, NumClashes));
  if (!Err && !M->Base)
    Err = orc_rt_Error_createf(
        "cannot map the executor's memory at the same address in mini-lli "
        "(%d attempts)",
        MaxAttempts);
  if (Err) {
    free(M);
    return Err;
  }
  M->Next = M->Base;
  M->End = M->Base + ArenaSize;
  M->RegisterEHFrame = orc_rt_jit_Executor_bootstrapSymbol(
      E, "llvm_orc_registerEHFrameAllocAction");
  M->DeregisterEHFrame = orc_rt_jit_Executor_bootstrapSymbol(
      E, "llvm_orc_deregisterEHFrameAllocAction");
  pthread_mutex_init(&M->Lock, NULL);
  *Result = M;
  return NULL;
}

void orc_rt_jit_RemoteMemory_dispose(orc_rt_jit_RemoteMemory *M) {
  if (!M)
    return;
  munmap((void *)(uintptr_t)M->Base, ArenaSize);
  pthread_mutex_destroy(&M->Lock);
  free(M);
}

/*---- The per-object memory manager ----*/

static void *createContext(void *Ctx) {
  ObjectMemory *O = calloc(1, sizeof(*O));
  if (O)
    O->M = Ctx;
  return O;
}

static void notifyTerminating(void *Ctx) { (void)Ctx; }

static uint8_t *allocate(ObjectMemory *O, uintptr_t Size, unsigned Alignment,
                         uint8_t Prot, const char *Name) {
  if (!O)
    return NULL;
  if (!orc_rt_jit_growArray(&O->Sections, &O->Capacity, O->NumSections + 1,
                            sizeof(*O->Sections)))
    return NULL;
  orc_rt_jit_RemoteMemory *M = O->M;
  uint64_t Page = (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t Align = Alignment > Page ? Alignment : Page;
  pthread_mutex_lock(&M->Lock);
  uint64_t Addr = alignTo(M->Next, Align);
  bool Fits = Addr <= M->End && M->End - Addr >= Size;
  if (Fits)
    M->Next = alignTo(Addr + (Size ? Size : 1), Page);
  pthread_mutex_unlock(&M->Lock);
  if (!Fits)
    return NULL; /* RuntimeDyld: "Unable to allocate section memory!" */
  O->Sections[O->NumSections++] = (Section){Addr, Size, Prot};
  if (Name && !strcmp(Name, ".eh_frame")) {
    O->EHFrame = Addr;
    O->EHFrameSize = Size;
  }
  return (uint8_t *)(uintptr_t)Addr;
}

static uint8_t *allocateCode(void *Ctx, uintptr_t Size, unsigned Alignment,
                             unsigned SectionID, const char *Name) {
  (void)SectionID;
  return allocate(Ctx, Size, Alignment, Prot_R | Prot_X, Name);
}

static uint8_t *allocateData(void *Ctx, uintptr_t Size, unsigned Alignment,
                             unsigned SectionID, const char *Name,
                             LLVMBool ReadOnly) {
  (void)SectionID;
  return allocate(Ctx, Size, Alignment, ReadOnly ? Prot_R : Prot_R | Prot_W,
                  Name);
}

/* A WrapperFunctionCall of an alloc action taking one address range. */
static void appendRangeCall(orc_rt_SPSWriter *W, uint64_t Fn, uint64_t Start,
                            uint64_t Size) {
  orc_rt_SPSWriter_appendAddr(W, Fn);
  orc_rt_SPSWriter_appendU64(W, 16); /* the argument bytes: one range */
  orc_rt_SPSWriter_appendAddr(W, Start);
  orc_rt_SPSWriter_appendAddr(W, Start + Size);
}

/* RuntimeDyld has resolved every relocation in our copy: the executor gets
 * the object's bytes, permissions and its .eh_frame registration. */
static LLVMBool finalize(void *Ctx, char **ErrMsg) {
  ObjectMemory *O = Ctx;
  if (!O) {
    *ErrMsg = strdup("out of memory");
    return 1;
  }
  size_t NumSegments = 0;
  for (size_t I = 0; I < O->NumSections; ++I)
    NumSegments += O->Sections[I].Size != 0;
  if (!NumSegments)
    return 0;
  orc_rt_jit_RemoteMemory *M = O->M;
  orc_rt_SPSWriter W;
  orc_rt_jit_Executor_beginInitialize(M->E, &W);
  orc_rt_SPSWriter_appendU64(&W, NumSegments);
  for (size_t I = 0; I < O->NumSections; ++I) {
    const Section *S = &O->Sections[I];
    if (!S->Size)
      continue;
    orc_rt_SPSWriter_appendU8(&W, S->Prot);
    orc_rt_SPSWriter_appendAddr(&W, S->Addr);
    orc_rt_SPSWriter_appendU64(&W, S->Size);
    orc_rt_SPSWriter_appendBytes(&W, (const char *)(uintptr_t)S->Addr, S->Size);
  }
  bool EH = O->EHFrameSize && M->RegisterEHFrame && M->DeregisterEHFrame;
  orc_rt_SPSWriter_appendU64(&W, EH ? 1 : 0);
  if (EH) {
    appendRangeCall(&W, M->RegisterEHFrame, O->EHFrame, O->EHFrameSize);
    appendRangeCall(&W, M->DeregisterEHFrame, O->EHFrame, O->EHFrameSize);
  }
  orc_rt_ErrorRef Err = orc_rt_jit_Executor_initialize(M->E, &W);
  if (!Err)
    return 0;
  *ErrMsg = strdup(orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  return 1;
}

static void destroy(void *Ctx) {
  ObjectMemory *O = Ctx;
  if (O)
    free(O->Sections);
  free(O);
}

LLVMOrcObjectLayerRef
orc_rt_jit_RemoteMemory_createLayer(orc_rt_jit_RemoteMemory *M,
                                    LLVMOrcExecutionSessionRef ES) {
  return LLVMOrcCreateRTDyldObjectLinkingLayerWithMCJITMemoryManagerLikeCallbacks(
      ES, M, createContext, notifyTerminating, allocateCode, allocateData,
      finalize, destroy);
}
