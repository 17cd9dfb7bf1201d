/*===- lib/services/DylibManager.c - SimpleExecutorDylibManager -----------===*/
/*
 * open(Inst, path, mode) hands out a handle: a heap "resolver" owned by the
 * manager; resolve(handle, symbols) looks names up through it. The handle for
 * "" is the process itself; there, names a service interposes on (the thread
 * functions of ManagedThreads.c, through the services object's interposer
 * table) resolve to the runtime's versions, and names the process lacks are
 * looked for in the C++ runtime libraries a C++ executor would have loaded
 * (libstdc++, libgcc_s, libm), opened on first need. A handle names its
 * manager, so resolve needs no instance.
 *
 * Lock guards the handle list and the fallback-library state.
 */

#include "services/DylibManager.h"
#include "services/ServiceWire.h"
#include "support/FaultInjection.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct DylibManager DylibManager;

typedef struct Handle {
  DylibManager *DM;
  void *DL;
  bool IsProcess;
  struct Handle *Next;
} Handle;

struct DylibManager {
  orc_rt_ExecutorServicesRef ES;
  pthread_mutex_t Lock;
  Handle *Handles;
  bool FallbacksOpened;
  void *Fallbacks[3];
};

/* The live managers, for the instance open names, and the handles they handed
 * out, for the handle resolve names. */
static orc_rt_internal_InstanceSet Instances =
    ORC_RT_INTERNAL_INSTANCE_SET_INIT;
static orc_rt_internal_InstanceSet LiveHandles =
    ORC_RT_INTERNAL_INSTANCE_SET_INIT;

static const char *const FallbackLibs[] = {"libstdc++.so.6", "libgcc_s.so.1",
                                           "libm.so.6"};

/* Instance shutdown. */
static void shutdownInstance(void *Instance) {
  DylibManager *DM = Instance;
  /* Libraries stay loaded (as the reference's permanent libraries do). */
  for (Handle *H = DM->Handles, *N; H; H = N) {
    N = H->Next;
    orc_rt_internal_InstanceSet_remove(&LiveHandles, H);
    free(H);
  }
  pthread_mutex_destroy(&DM->Lock);
  free(DM);
}

/*---- open: Expected<Addr>(Addr Inst, String Path, u64 Mode) ----*/

static orc_rt_CWrapperFunctionBuffer openWrapper(const char *Data,
                                                 size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  DylibManager *DM = orc_rt_internal_readInstance(&R, &Instances);
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
  H->DM = DM;
  H->IsProcess = Len == 0;
  H->DL = dlopen(Len ? CPath : NULL, RTLD_LAZY | RTLD_GLOBAL);
  free(CPath);
  if (!H->DL) {
    const char *Msg = dlerror();
    free(H);
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_create(Msg ? Msg : "dlopen failed"));
  }
  if (!orc_rt_internal_InstanceSet_add(&LiveHandles, H)) {
    free(H); /* the library stays loaded, as every opened one does */
    return orc_rt_SPS_expectedErrorResult(orc_rt_Error_create("out of memory"));
  }
  pthread_mutex_lock(&DM->Lock);
  H->Next = DM->Handles;
  DM->Handles = H;
  pthread_mutex_unlock(&DM->Lock);
  return orc_rt_SPS_expectedAddrResult((uint64_t)(uintptr_t)H);
}

/*-- resolve: Expected<Seq<Optional<ExecutorSymbolDef>>>(Addr H, LookupSet) --*/

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
static void openFallbacks(DylibManager *DM) {
  pthread_mutex_lock(&DM->Lock);
  if (!DM->FallbacksOpened) {
    DM->FallbacksOpened = true;
    for (size_t I = 0; I < sizeof(FallbackLibs) / sizeof(FallbackLibs[0]); ++I)
      DM->Fallbacks[I] = dlopen(FallbackLibs[I], RTLD_LAZY | RTLD_GLOBAL);
    initStandardStreams(DM->Fallbacks[0]);
  }
  pthread_mutex_unlock(&DM->Lock);
}

static void *lookup(DylibManager *DM, Handle *H, const char *Name) {
  if (H->IsProcess) {
    void *P = orc_rt_internal_ExecutorServices_findInterposer(DM->ES, Name);
    if (P)
      return P;
    /* C++ code (mangled names) expects the C++ runtime as a C++ executor
     * has it, even when some other library already brought libstdc++
     * into the process. */
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

static orc_rt_CWrapperFunctionBuffer resolveWrapper(const char *Data,
                                                    size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t HAddr, N;
  /* Each element is at least an empty name (8) and a bool (1). */
  if (!orc_rt_SPSReader_readAddr(&R, &HAddr) ||
      !orc_rt_SPSReader_readCount(&R, &N, 9))
    return orc_rt_internal_badArgs();
  Handle *H = orc_rt_internal_InstanceSet_find(&LiveHandles, HAddr);
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
        P = lookup(H->DM, H, CName);
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

/*---- The service ----*/

static const orc_rt_internal_ServiceFn Functions[] = {
    {"__llvm_orc_SimpleExecutorDylibManager_open_wrapper", openWrapper},
    {"__llvm_orc_SimpleExecutorDylibManager_resolve_wrapper", resolveWrapper},
};

static const orc_rt_internal_InstanceVTable InstanceVT = {
    &Instances, shutdownInstance, NULL};

orc_rt_ErrorRef orc_rt_internal_addDylibManager(orc_rt_ExecutorServicesRef ES) {
  DylibManager *DM = orc_rt_internal_calloc(1, sizeof(*DM));
  if (!DM)
    return orc_rt_Error_create("out of memory creating executor services");
  DM->ES = ES;
  pthread_mutex_init(&DM->Lock, NULL);
  orc_rt_ErrorRef Err = orc_rt_internal_ExecutorServices_addInstance(
      ES, "__llvm_orc_SimpleExecutorDylibManager_Instance", &InstanceVT, DM);
  return Err ? Err
             : orc_rt_internal_ExecutorServices_addFunctions(
                   ES, Functions, sizeof(Functions) / sizeof(Functions[0]));
}
