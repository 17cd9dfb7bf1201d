/*===- lib/services/DylibManager.c - SimpleExecutorDylibManager -----------===*/
/*
 * open(Inst, path, mode) hands out a handle: a heap "resolver" owned by the
 * manager; resolve(handle, symbols) looks names up through it. The handle for
 * "" is the process itself; there, names the runtime must interpose on
 * (pthread_create, thrd_create, pthread_exit, thrd_exit, thrd_join,
 * thrd_detach: threads JIT'd code starts enter and leave through the Session,
 * see ManagedThreads.c) resolve to the runtime's versions, and names the
 * process lacks are looked for in the C++ runtime libraries a C++ executor
 * would have loaded (libstdc++, libgcc_s, libm), opened on first need.
 *
 * Lock guards the handle list and the fallback-library state.
 */

#include "services/Services.h"
#include "support/FaultInjection.h"

#include "orc-rt-c/ManagedThread.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct Handle {
  void *DL;
  bool IsProcess;
  struct Handle *Next;
} Handle;

struct orc_rt_internal_DylibManager {
  pthread_mutex_t Lock;
  Handle *Handles;
  bool FallbacksOpened;
  void *Fallbacks[3];
};

static const char *const FallbackLibs[] = {"libstdc++.so.6", "libgcc_s.so.1",
                                           "libm.so.6"};

orc_rt_internal_DylibManager *orc_rt_internal_DylibManager_create(void) {
  orc_rt_internal_DylibManager *DM = orc_rt_internal_calloc(1, sizeof(*DM));
  if (DM)
    pthread_mutex_init(&DM->Lock, NULL);
  return DM;
}

void orc_rt_internal_DylibManager_destroy(orc_rt_internal_DylibManager *DM) {
  if (!DM)
    return;
  /* Libraries stay loaded (as the reference's permanent libraries do). */
  for (Handle *H = DM->Handles, *N; H; H = N) {
    N = H->Next;
    free(H);
  }
  pthread_mutex_destroy(&DM->Lock);
  free(DM);
}

static orc_rt_internal_DylibManager *readInstance(orc_rt_SPSReader *R) {
  orc_rt_ExecutorServicesRef ES = orc_rt_internal_currentServices();
  return orc_rt_internal_readInstance(R, ES ? ES->DM : NULL);
}

/*---- open: Expected<Addr>(Addr Inst, String Path, u64 Mode) ----*/

orc_rt_CWrapperFunctionBuffer orc_rt_internal_DM_open(const char *Data,
                                                      size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  orc_rt_internal_DylibManager *DM = readInstance(&R);
  const char *Path;
  size_t Len;
  uint64_t Mode;
  if (!DM || !orc_rt_SPSReader_readBytes(&R, &Path, &Len) ||
      !orc_rt_SPSReader_readU64(&R, &Mode))
    return orc_rt_internal_badArgs();
  if (Mode != 0)
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_create("open: non-zero mode bits not yet supported"));
  if (memchr(Path, 0, Len))
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_create("open: path contains a NUL byte"));
  char *CPath = orc_rt_internal_malloc(Len + 1);
  Handle *H = orc_rt_internal_calloc(1, sizeof(*H));
  if (!CPath || !H) {
    free(CPath);
    free(H);
    return orc_rt_SPS_expectedErrorResult(orc_rt_Error_create("out of memory"));
  }
  memcpy(CPath, Path, Len);
  CPath[Len] = 0;
  H->IsProcess = Len == 0;
  H->DL = dlopen(Len ? CPath : NULL, RTLD_LAZY | RTLD_GLOBAL);
  free(CPath);
  if (!H->DL) {
    const char *Msg = dlerror();
    free(H);
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_create(Msg ? Msg : "dlopen failed"));
  }
  pthread_mutex_lock(&DM->Lock);
  H->Next = DM->Handles;
  DM->Handles = H;
  pthread_mutex_unlock(&DM->Lock);
  return orc_rt_SPS_expectedAddrResult((uint64_t)(uintptr_t)H);
}

/*---- resolve: Expected<Seq<Optional<ExecutorSymbolDef>>>(Addr H, LookupSet)
 * ----*/

/* The runtime's replacements for process symbols JIT'd code must not use
 * directly. */
static void *interposed(const char *Name) {
  if (strcmp(Name, "pthread_create") == 0)
    return (void *)(uintptr_t)orc_rt_ExecutorServices_pthread_create;
  if (strcmp(Name, "thrd_create") == 0)
    return (void *)(uintptr_t)orc_rt_ExecutorServices_thrd_create;
  if (strcmp(Name, "pthread_exit") == 0)
    return (void *)(uintptr_t)orc_rt_ExecutorServices_pthread_exit;
  if (strcmp(Name, "thrd_exit") == 0)
    return (void *)(uintptr_t)orc_rt_ExecutorServices_thrd_exit;
  if (strcmp(Name, "thrd_join") == 0)
    return (void *)(uintptr_t)orc_rt_ExecutorServices_thrd_join;
  if (strcmp(Name, "thrd_detach") == 0)
    return (void *)(uintptr_t)orc_rt_ExecutorServices_thrd_detach;
  return NULL;
}

/* A C++ executor has std::cout & co. constructed before any JIT'd code runs
 * (some translation unit of it includes <iostream>); JIT'd code relies on that,
 * since its own static initialisers only run with an ORC runtime. Do the same
 * once libstdc++ is loaded: construct one std::ios_base::Init, never destroyed
 * (the streams write through C stdio, which exit flushes). */
static void initStandardStreams(void *LibStdCxx) {
  static _Alignas(16) char InitObject[16];
  if (!LibStdCxx)
    return;
  void (*Ctor)(void *) =
      (void (*)(void *))(uintptr_t)dlsym(LibStdCxx, "_ZNSt8ios_base4InitC1Ev");
  if (Ctor)
    Ctor(InitObject);
}

/* Opens the C++ runtime libraries once (and sets up the standard streams). */
static void openFallbacks(orc_rt_internal_DylibManager *DM) {
  pthread_mutex_lock(&DM->Lock);
  if (!DM->FallbacksOpened) {
    DM->FallbacksOpened = true;
    for (size_t I = 0; I < sizeof(FallbackLibs) / sizeof(FallbackLibs[0]); ++I)
      DM->Fallbacks[I] = dlopen(FallbackLibs[I], RTLD_LAZY | RTLD_GLOBAL);
    initStandardStreams(DM->Fallbacks[0]);
  }
  pthread_mutex_unlock(&DM->Lock);
}

static void *lookup(orc_rt_internal_DylibManager *DM, Handle *H,
                    const char *Name) {
  if (H->IsProcess) {
    void *P = interposed(Name);
    if (P)
      return P;
    /* C++ code (mangled names) expects the C++ runtime as a C++ executor has
     * it, even when some other library already brought libstdc++ into the
     * process. */
    if (Name[0] == '_' && Name[1] == 'Z')
      openFallbacks(DM);
  }
  void *P = dlsym(H->DL, Name);
  if (P || !H->IsProcess)
    return P;
  openFallbacks(DM);
  for (size_t I = 0; !P && I < sizeof(FallbackLibs) / sizeof(FallbackLibs[0]);
       ++I)
    if (DM->Fallbacks[I])
      P = dlsym(DM->Fallbacks[I], Name);
  return P;
}

orc_rt_CWrapperFunctionBuffer orc_rt_internal_DM_resolve(const char *Data,
                                                         size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t HAddr, N;
  orc_rt_ExecutorServicesRef ES = orc_rt_internal_currentServices();
  /* Each element is at least an empty name (8) and a bool (1). */
  if (!ES || !orc_rt_SPSReader_readAddr(&R, &HAddr) ||
      !orc_rt_SPSReader_readCount(&R, &N, 9))
    return orc_rt_internal_badArgs();
  orc_rt_internal_DylibManager *DM = ES->DM;
  pthread_mutex_lock(&DM->Lock);
  Handle *H = DM->Handles;
  while (H && (uint64_t)(uintptr_t)H != HAddr)
    H = H->Next;
  pthread_mutex_unlock(&DM->Lock);
  if (!H)
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_createf("resolve: 0x%llx is not a handle returned by open",
                             (unsigned long long)HAddr));

  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendExpectedValueHead(&W);
  orc_rt_SPSWriter_appendU64(&W, N);
  char Name[512];
  for (uint64_t I = 0; I < N; ++I) {
    const char *Str;
    size_t Len;
    bool Required;
    if (!orc_rt_SPSReader_readBytes(&R, &Str, &Len) ||
        !orc_rt_SPSReader_readBool(&R, &Required)) {
      orc_rt_SPSWriter_dispose(&W);
      return orc_rt_internal_badArgs();
    }
    if (Len == 0 && Required) {
      orc_rt_SPSWriter_dispose(&W);
      return orc_rt_SPS_expectedErrorResult(
          orc_rt_Error_create("resolve: empty symbol name marked required"));
    }
    if (Len == 0) {
      orc_rt_SPSWriter_appendBool(&W, false);
      continue;
    }
    void *P = NULL;
    /* Names with NUL bytes cannot exist; longer names need a heap copy. */
    if (!memchr(Str, 0, Len)) {
      char *CName = Len < sizeof(Name) ? Name : orc_rt_internal_malloc(Len + 1);
      if (CName) {
        memcpy(CName, Str, Len);
        CName[Len] = 0;
        P = lookup(DM, H, CName);
        if (CName != Name)
          free(CName);
      }
    }
    if (!P && Required) {
      orc_rt_SPSWriter_appendBool(&W, false);
      continue;
    }
    orc_rt_SPSWriter_appendBool(&W, true);
    orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)P);
    orc_rt_SPSWriter_appendU8(&W, 0x10); /* JITSymbolFlags::Exported */
    orc_rt_SPSWriter_appendU8(&W, 0);
  }
  return orc_rt_SPSWriter_finish(&W);
}
