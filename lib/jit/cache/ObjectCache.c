/*===- lib/jit/cache/ObjectCache.c - Compiled modules kept across runs ----===*/
/* File layout (host byte order; the key already pins the host's triple):
 *   header:  "orc-rt-c objcach" magic (16 bytes, no NUL), u32 format version,
 *            u32 zero, u64 key hi, u64 key lo, u64 payload size,
 *            u64 payload checksum
 *   payload: u32 n, n x (u32 priority, string)         constructors
 *            u32 n, n x (u32 priority, string)         destructors
 *            u32 n, n x (string lookup, string display) function names
 *            u32 n, n x (string name, u32 flags)        exports    (dlopen)
 *            u32 n, n x (string stub, string target,    escapes    (dlopen)
 *                        string display, u32 flags)
 *            u32 n, n x (u64 size, bytes)              object files
 *   string:  u32 length, bytes (no NUL)
 *   flags:   1 function, 2 arguments in registers only, 4 float arguments */

#include "jit/cache/ObjectCache.h"
#include "jit/support/GrowArray.h"
#include "jit/support/ReadFile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char Magic[16] = "orc-rt-c objcach";
/* In every key too; 3: a thread_local is exported as its control variable;
 * 4: declared thread_locals call __orc_rt_jit_tls_address; 5: a variable's
 * companion is an alias of it (ir/KeptVariables.h); 6: the companion's name
 * says which form it has. */
#define FORMAT_VERSION 7u
#define HEADER_SIZE (16 + 4 + 4 + 8 + 8 + 8 + 8)

orc_rt_jit_Digest orc_rt_jit_ObjectCache_key(const void *Input, size_t Size,
                                             const char *CodegenSettings,
                                             const char *Passes,
                                             unsigned ModuleIndex) {
  orc_rt_jit_ContentHash H;
  orc_rt_jit_ContentHash_init(&H);
  orc_rt_jit_ContentHash_updateString(&H, "orc-rt-c object cache");
  orc_rt_jit_ContentHash_updateString(&H, ORC_RT_C_VERSION);
  orc_rt_jit_ContentHash_updateString(&H, ORC_RT_C_LLVM_VERSION);
  orc_rt_jit_ContentHash_updateString(&H, CodegenSettings);
  /* "" and no pipeline differ: no -passes runs no pipeline at all. */
  orc_rt_jit_ContentHash_updateString(&H, Passes ? "passes" : "no passes");
  orc_rt_jit_ContentHash_updateString(&H, Passes ? Passes : "");
  /* A dlopen'ed module is prepared differently (exports, stubs, atexit). */
  uint32_t Index = ModuleIndex, Version = FORMAT_VERSION;
  orc_rt_jit_ContentHash_update(&H, &Index, sizeof(Index));
  orc_rt_jit_ContentHash_update(&H, &Version, sizeof(Version));
  uint64_t Len = Size;
  orc_rt_jit_ContentHash_update(&H, &Len, sizeof(Len));
  orc_rt_jit_ContentHash_update(&H, Input, Size);
  return orc_rt_jit_ContentHash_final(&H);
}

static char *entryPath(const char *Dir, orc_rt_jit_Digest Key) {
  size_t N = strlen(Dir) + 64;
  char *P = malloc(N);
  if (P)
    snprintf(P, N, "%s/%016llx%016llx.orcobj", Dir, (unsigned long long)Key.Hi,
             (unsigned long long)Key.Lo);
  return P;
}

/*---- Writing ----*/

typedef struct {
  uint8_t *Data;
  size_t Size, Capacity;
  bool Failed;
} Writer;

static void put(Writer *W, const void *P, size_t N) {
  if (W->Failed)
    return;
  if (!orc_rt_jit_growArray(&W->Data, &W->Capacity, W->Size + N, 1)) {
    W->Failed = true;
    return;
  }
  memcpy(W->Data + W->Size, P, N);
  W->Size += N;
}

static void put32(Writer *W, uint32_t V) { put(W, &V, 4); }
static void put64(Writer *W, uint64_t V) { put(W, &V, 8); }
static void putString(Writer *W, const char *S) {
  size_t N = strlen(S);
  put32(W, (uint32_t)N);
  put(W, S, N);
}

static void putInits(Writer *W, const orc_rt_jit_Init *I, size_t N) {
  put32(W, (uint32_t)N);
  for (size_t K = 0; K < N; ++K) {
    put32(W, I[K].Priority);
    putString(W, I[K].Symbol);
  }
}

enum { Flag_Function = 1, Flag_RegsOnly = 2, Flag_FloatArgs = 4 };

static uint32_t flags(bool Function, bool RegsOnly, bool FloatArgs) {
  return (Function ? Flag_Function : 0) | (RegsOnly ? Flag_RegsOnly : 0) |
         (FloatArgs ? Flag_FloatArgs : 0);
}

static void putExports(Writer *W, const orc_rt_jit_Export *X, size_t N) {
  put32(W, (uint32_t)N);
  for (size_t K = 0; K < N; ++K) {
    putString(W, X[K].Name);
    put32(W, flags(X[K].IsFunction, X[K].RegsOnly, X[K].FloatArgs));
  }
}

static void putEscapes(Writer *W, const orc_rt_jit_Escape *X, size_t N) {
  put32(W, (uint32_t)N);
  for (size_t K = 0; K < N; ++K) {
    putString(W, X[K].Stub);
    putString(W, X[K].Target);
    putString(W, X[K].Display);
    put32(W, flags(true, X[K].RegsOnly, X[K].FloatArgs));
  }
}

/* mkdir -p. */
static int makeDirectories(const char *Dir) {
  char *P = strdup(Dir);
  if (!P)
    return ENOMEM;
  int Err = 0;
  for (char *S = P + 1;; ++S) {
    bool End = *S == '\0';
    if (*S == '/' || End) {
      *S = '\0';
      if (mkdir(P, 0777) && errno != EEXIST) {
        Err = errno;
        break;
      }
      if (End)
        break;
      *S = '/';
    }
  }
  struct stat St;
  if (!Err && (stat(P, &St) || !S_ISDIR(St.st_mode)))
    Err = ENOTDIR;
  free(P);
  return Err;
}

static orc_rt_ErrorRef writeFile(const char *Dir, const char *Path,
                                 const Writer *W) {
  int Err = makeDirectories(Dir);
  if (Err)
    return orc_rt_Error_createf("cannot create '%s': %s", Dir, strerror(Err));
  /* A name no other writer uses: pid, time and address of this writer. */
  struct timespec T;
  clock_gettime(CLOCK_REALTIME, &T);
  size_t N = strlen(Path) + 80;
  char *Tmp = malloc(N);
  if (!Tmp)
    return orc_rt_Error_create("out of memory");
  snprintf(Tmp, N, "%s.%ld.%lx.%p.tmp", Path, (long)getpid(),
           (unsigned long)T.tv_nsec, (const void *)W);
  int Fd = open(Tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  orc_rt_ErrorRef E = NULL;
  if (Fd < 0) {
    E = orc_rt_Error_createf("cannot create '%s': %s", Tmp, strerror(errno));
    free(Tmp);
    return E;
  }
  for (size_t Done = 0; Done < W->Size && !E;) {
    ssize_t R = write(Fd, W->Data + Done, W->Size - Done);
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      E = orc_rt_Error_createf("cannot write '%s': %s", Tmp,
                               strerror(R < 0 ? errno : ENOSPC));
    else
      Done += (size_t)R;
  }
  if (close(Fd) && !E)
    E = orc_rt_Error_createf("cannot write '%s': %s", Tmp, strerror(errno));
  /* rename() replaces Path atomically: readers see the old file or this one. */
  if (!E && rename(Tmp, Path))
    E = orc_rt_Error_createf("cannot rename '%s' to '%s': %s", Tmp, Path,
                             strerror(errno));
  if (E)
    unlink(Tmp);
  free(Tmp);
  return E;
}

orc_rt_ErrorRef orc_rt_jit_ObjectCache_store(const char *Dir,
                                             orc_rt_jit_Digest Key,
                                             const orc_rt_jit_CacheManifest *M,
                                             const LLVMMemoryBufferRef *Objects,
                                             size_t NumObjects) {
  Writer W = {0};
  put(&W, Magic, sizeof(Magic));
  put32(&W, FORMAT_VERSION);
  put32(&W, 0);
  put64(&W, Key.Hi);
  put64(&W, Key.Lo);
  put64(&W, 0); /* payload size and checksum, filled in below */
  put64(&W, 0);
  putInits(&W, M->Ctors, M->NumCtors);
  putInits(&W, M->Dtors, M->NumDtors);
  put32(&W, (uint32_t)M->NumNames);
  for (size_t I = 0; I < M->NumNames; ++I) {
    putString(&W, M->Names[I].Lookup);
    putString(&W, M->Names[I].Display);
  }
  putExports(&W, M->Exports, M->NumExports);
  putEscapes(&W, M->Escapes, M->NumEscapes);
  put32(&W, (uint32_t)NumObjects);
  for (size_t I = 0; I < NumObjects; ++I) {
    size_t N = LLVMGetBufferSize(Objects[I]);
    put64(&W, N);
    put(&W, LLVMGetBufferStart(Objects[I]), N);
  }
  orc_rt_ErrorRef E = NULL;
  char *Path = entryPath(Dir, Key);
  if (W.Failed || !Path) {
    E = orc_rt_Error_create("out of memory");
  } else {
    uint64_t Size = W.Size - HEADER_SIZE;
    uint64_t Sum = orc_rt_jit_checksum(W.Data + HEADER_SIZE, Size);
    memcpy(W.Data + HEADER_SIZE - 16, &Size, 8);
    memcpy(W.Data + HEADER_SIZE - 8, &Sum, 8);
    E = writeFile(Dir, Path, &W);
  }
  free(Path);
  free(W.Data);
  return E;
}

/*---- Reading ----*/

typedef struct {
  const uint8_t *P, *End;
  bool Bad;
} Reader;

static const uint8_t *take(Reader *R, uint64_t N) {
  if (R->Bad || (uint64_t)(R->End - R->P) < N) {
    R->Bad = true;
    return NULL;
  }
  const uint8_t *Start = R->P;
  R->P += N;
  return Start;
}

static uint32_t get32(Reader *R) {
  uint32_t V = 0;
  const uint8_t *P = take(R, 4);
  if (P)
    memcpy(&V, P, 4);
  return V;
}

static uint64_t get64(Reader *R) {
  uint64_t V = 0;
  const uint8_t *P = take(R, 8);
  if (P)
    memcpy(&V, P, 8);
  return V;
}

/* A NUL-terminated copy of the next string, or NULL (R->Bad says why). */
static char *getString(Reader *R) {
  uint32_t N = get32(R);
  const uint8_t *P = take(R, N);
  if (!P)
    return NULL;
  if (memchr(P, '\0', N)) {
    R->Bad = true;
    return NULL;
  }
  return strndup((const char *)P, N);
}

/* The header checks out: magic, version, key, size and checksum. */
static bool validHeader(Reader *R, orc_rt_jit_Digest Key) {
  const uint8_t *M = take(R, sizeof(Magic));
  if (!M || memcmp(M, Magic, sizeof(Magic)))
    return false;
  uint32_t Version = get32(R);
  get32(R);
  uint64_t Hi = get64(R), Lo = get64(R), Size = get64(R), Sum = get64(R);
  return !R->Bad && Version == FORMAT_VERSION && Hi == Key.Hi && Lo == Key.Lo &&
         Size == (uint64_t)(R->End - R->P) &&
         Sum == orc_rt_jit_checksum(R->P, (size_t)Size);
}

/* Into is NULL if the caller keeps no such list: the entry must have none. */
static uint32_t getCount(Reader *R, const void *Into, size_t ItemSize) {
  uint32_t N = get32(R);
  /* Each item takes at least ItemSize bytes: a count the file cannot hold is
   * corrupt, whatever it asks us to allocate. */
  if (R->Bad || (N && !Into) || N > (uint64_t)(R->End - R->P) / ItemSize) {
    R->Bad = true;
    return 0;
  }
  return N;
}

static void readInits(Reader *R, orc_rt_jit_InitList *Out) {
  uint32_t N = get32(R);
  for (uint32_t I = 0; I < N && !R->Bad; ++I) {
    uint32_t Prio = get32(R);
    char *S = getString(R);
    if (S && !orc_rt_jit_InitList_push(Out, Prio, S)) {
      free(S);
      continue;
    }
    free(S);
    R->Bad = true;
  }
}

static void readNames(Reader *R, orc_rt_jit_NameList *Out) {
  uint32_t N = getCount(R, Out, 8);
  for (uint32_t I = 0; I < N && !R->Bad; ++I) {
    char *Lookup = getString(R), *Display = getString(R);
    if (!Lookup || !Display || orc_rt_jit_NameList_push(Out, Lookup, Display))
      R->Bad = true;
    free(Lookup);
    free(Display);
  }
}

static void readExports(Reader *R, orc_rt_jit_ExportList *Out) {
  uint32_t N = getCount(R, Out, 8);
  if (!N)
    return;
  if (!(Out->Items = calloc(N, sizeof(*Out->Items)))) {
    R->Bad = true;
    return;
  }
  for (uint32_t I = 0; I < N && !R->Bad; ++I) {
    char *Name = getString(R);
    uint32_t F = get32(R);
    if (!Name) {
      R->Bad = true;
      break;
    }
    Out->Items[Out->Size++] = (orc_rt_jit_Export){
        Name, (F & Flag_Function) != 0, (F & Flag_RegsOnly) != 0,
        (F & Flag_FloatArgs) != 0};
  }
}

static void readEscapes(Reader *R, orc_rt_jit_EscapeList *Out) {
  uint32_t N = getCount(R, Out, 16);
  if (!N)
    return;
  if (!(Out->Items = calloc(N, sizeof(*Out->Items)))) {
    R->Bad = true;
    return;
  }
  for (uint32_t I = 0; I < N && !R->Bad; ++I) {
    char *Stub = getString(R), *Target = getString(R), *Display = getString(R);
    uint32_t F = get32(R);
    if (!Stub || !Target || !Display || R->Bad) {
      free(Stub), free(Target), free(Display);
      R->Bad = true;
      break;
    }
    Out->Items[Out->Size++] =
        (orc_rt_jit_Escape){Stub, Target, Display, (F & Flag_RegsOnly) != 0,
                            (F & Flag_FloatArgs) != 0};
  }
}

static void readObjects(Reader *R, const char *Path,
                        LLVMMemoryBufferRef **Objects, size_t *NumObjects) {
  uint32_t N = get32(R);
  if (R->Bad || N > (uint64_t)(R->End - R->P) / 8) {
    R->Bad = true;
    return;
  }
  *Objects = calloc(N ? N : 1, sizeof(LLVMMemoryBufferRef));
  if (!*Objects) {
    R->Bad = true;
    return;
  }
  for (uint32_t I = 0; I < N && !R->Bad; ++I) {
    uint64_t Size = get64(R);
    const uint8_t *P = take(R, Size);
    if (P)
      (*Objects)[(*NumObjects)++] = LLVMCreateMemoryBufferWithMemoryRangeCopy(
          (const char *)P, Size, Path);
  }
  if (R->P != R->End)
    R->Bad = true;
}

/* Drops what a failed read appended to the lists. */
static void truncateInits(orc_rt_jit_InitList *L, size_t Size) {
  while (L->Size > Size)
    free(L->Items[--L->Size].Symbol);
}

static void truncateNames(orc_rt_jit_NameList *L, size_t Size) {
  for (; L->Size > Size; --L->Size) {
    free(L->Items[L->Size - 1].Lookup);
    free(L->Items[L->Size - 1].Display);
  }
}

orc_rt_ErrorRef orc_rt_jit_ObjectCache_load(const char *Dir,
                                            orc_rt_jit_Digest Key, bool *Hit,
                                            const orc_rt_jit_CacheLists *Into,
                                            LLVMMemoryBufferRef **Objects,
                                            size_t *NumObjects) {
  *Hit = false;
  *Objects = NULL;
  *NumObjects = 0;
  char *Path = entryPath(Dir, Key);
  if (!Path)
    return orc_rt_Error_create("out of memory");
  size_t Size = 0;
  uint8_t *Data = (uint8_t *)orc_rt_jit_readFile(Path, &Size);
  if (Data && Size < HEADER_SIZE) {
    free(Data);
    Data = NULL;
  }
  if (!Data) {
    free(Path);
    return NULL; /* no entry (or unreadable): a miss */
  }
  Reader R = {Data, Data + Size, false};
  size_t C0 = Into->Ctors->Size, D0 = Into->Dtors->Size,
         N0 = Into->Names ? Into->Names->Size : 0;
  if (validHeader(&R, Key)) {
    readInits(&R, Into->Ctors);
    readInits(&R, Into->Dtors);
    readNames(&R, Into->Names);
    readExports(&R, Into->Exports);
    readEscapes(&R, Into->Escapes);
    readObjects(&R, Path, Objects, NumObjects);
    *Hit = !R.Bad;
  }
  if (!*Hit) {
    truncateInits(Into->Ctors, C0);
    truncateInits(Into->Dtors, D0);
    if (Into->Names)
      truncateNames(Into->Names, N0);
    if (Into->Exports)
      orc_rt_jit_ExportList_dispose(Into->Exports);
    if (Into->Escapes)
      orc_rt_jit_EscapeList_dispose(Into->Escapes);
    for (size_t I = 0; I < *NumObjects; ++I)
      LLVMDisposeMemoryBuffer((*Objects)[I]);
    free(*Objects);
    *Objects = NULL;
    *NumObjects = 0;
  }
  free(Data);
  free(Path);
  return NULL;
}

orc_rt_ErrorRef
orc_rt_jit_ObjectCache_loadObjects(const char *Dir, orc_rt_jit_Digest Key,
                                   LLVMMemoryBufferRef **Objects,
                                   size_t *NumObjects) {
  *Objects = NULL;
  *NumObjects = 0;
  bool Hit = false;
  orc_rt_jit_InitList None = {0}; /* (such entries list nothing) */
  orc_rt_jit_CacheLists Into = {.Ctors = &None, .Dtors = &None};
  orc_rt_ErrorRef Err =
      orc_rt_jit_ObjectCache_load(Dir, Key, &Hit, &Into, Objects, NumObjects);
  orc_rt_jit_InitList_dispose(&None);
  if (Hit && !*NumObjects) { /* (an entry with no object: a miss) */
    free(*Objects);
    *Objects = NULL;
  }
  return Err;
}

void orc_rt_jit_ObjectCache_storeObjects(
    const char *Dir, orc_rt_jit_Digest Key, const LLVMMemoryBufferRef *Objects,
    size_t NumObjects, void (*Warn)(orc_rt_ErrorRef Err, void *Ctx),
    void *WarnCtx) {
  orc_rt_ErrorRef Err = orc_rt_jit_ObjectCache_store(
      Dir, Key, &(orc_rt_jit_CacheManifest){0}, Objects, NumObjects);
  if (Err && Warn)
    Warn(Err, WarnCtx);
  else
    orc_rt_Error_consume(Err);
}
