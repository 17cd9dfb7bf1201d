/*===- lib/services/ExecutorServices.c - The services object --------------===*/
/* Creates the individual services, registers them on the Session as one
 * service, keeps the bootstrap-symbol table, and is the single place where the
 * services enter JIT'd code (callManaged / callWrapper). */

#include "services/SafeCopy.h"
#include "services/Services.h"
#include "support/FaultInjection.h"

#include "orc-rt-c/ManagedThread.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The most recently created live services, for the instance-less wrappers.
 * Written at create and cleared at shutdown; read by wrappers that run while
 * the Session is alive (they run under the transport's token), so a plain
 * atomic pointer suffices. */
static _Atomic(orc_rt_ExecutorServicesRef) Current;

orc_rt_ExecutorServicesRef orc_rt_internal_currentServices(void) {
  return atomic_load(&Current);
}

void *orc_rt_internal_readInstance(orc_rt_SPSReader *R, void *Expected) {
  uint64_t Inst;
  if (!orc_rt_SPSReader_readAddr(R, &Inst))
    return NULL;
  if (!Expected || Inst != (uint64_t)(uintptr_t)Expected) {
    R->Failed = true;
    return NULL;
  }
  return Expected;
}

orc_rt_CWrapperFunctionBuffer orc_rt_internal_badArgs(void) {
  return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(ORC_RT_BAD_ARGS_MSG);
}

/*---- Bootstrap symbols ----*/

typedef struct {
  const char *Name;
  orc_rt_WrapperFunctionFn Fn;
} ServiceFn;

/* Every service function, under its LLVM 22 bootstrap name. */
static const ServiceFn ServiceFns[] = {
    {"__llvm_orc_bootstrap_run_as_main_wrapper", orc_rt_internal_runAsMain},
    {"__llvm_orc_bootstrap_run_as_void_function_wrapper",
     orc_rt_internal_runAsVoid},
    {"__llvm_orc_bootstrap_run_as_int_function_wrapper",
     orc_rt_internal_runAsInt},
    {"__llvm_orc_SimpleExecutorDylibManager_open_wrapper",
     orc_rt_internal_DM_open},
    {"__llvm_orc_SimpleExecutorDylibManager_resolve_wrapper",
     orc_rt_internal_DM_resolve},
    {"__llvm_orc_SimpleExecutorMemoryManager_reserve_wrapper",
     orc_rt_internal_MM_reserve},
    {"__llvm_orc_SimpleExecutorMemoryManager_initialize_wrapper",
     orc_rt_internal_MM_initialize},
    {"__llvm_orc_SimpleExecutorMemoryManager_deinitialize_wrapper",
     orc_rt_internal_MM_deinitialize},
    {"__llvm_orc_SimpleExecutorMemoryManager_release_wrapper",
     orc_rt_internal_MM_release},
    {"__llvm_orc_ExecutorSharedMemoryMapperService_Reserve",
     orc_rt_internal_SM_reserve},
    {"__llvm_orc_ExecutorSharedMemoryMapperService_Initialize",
     orc_rt_internal_SM_initialize},
    {"__llvm_orc_ExecutorSharedMemoryMapperService_Deinitialize",
     orc_rt_internal_SM_deinitialize},
    {"__llvm_orc_ExecutorSharedMemoryMapperService_Release",
     orc_rt_internal_SM_release},
    {"__llvm_orc_bootstrap_mem_write_uint8s_wrapper",
     orc_rt_internal_memWriteU8s},
    {"__llvm_orc_bootstrap_mem_write_uint16s_wrapper",
     orc_rt_internal_memWriteU16s},
    {"__llvm_orc_bootstrap_mem_write_uint32s_wrapper",
     orc_rt_internal_memWriteU32s},
    {"__llvm_orc_bootstrap_mem_write_uint64s_wrapper",
     orc_rt_internal_memWriteU64s},
    {"__llvm_orc_bootstrap_mem_write_pointers_wrapper",
     orc_rt_internal_memWritePointers},
    {"__llvm_orc_bootstrap_mem_write_buffers_wrapper",
     orc_rt_internal_memWriteBuffers},
    {"__llvm_orc_bootstrap_mem_read_uint8s_wrapper",
     orc_rt_internal_memReadU8s},
    {"__llvm_orc_bootstrap_mem_read_uint16s_wrapper",
     orc_rt_internal_memReadU16s},
    {"__llvm_orc_bootstrap_mem_read_uint32s_wrapper",
     orc_rt_internal_memReadU32s},
    {"__llvm_orc_bootstrap_mem_read_uint64s_wrapper",
     orc_rt_internal_memReadU64s},
    {"__llvm_orc_bootstrap_mem_read_pointers_wrapper",
     orc_rt_internal_memReadPointers},
    {"__llvm_orc_bootstrap_mem_read_buffers_wrapper",
     orc_rt_internal_memReadBuffers},
    {"__llvm_orc_bootstrap_mem_read_strings_wrapper",
     orc_rt_internal_memReadStrings},
    {"llvm_orc_registerEHFrameAllocAction",
     llvm_orc_registerEHFrameSectionAllocAction},
    {"llvm_orc_deregisterEHFrameAllocAction",
     llvm_orc_deregisterEHFrameSectionAllocAction},
    {"llvm_orc_registerJITLoaderGDBAllocAction",
     llvm_orc_registerJITLoaderGDBAllocAction},
};
#define NUM_SERVICE_FNS (sizeof(ServiceFns) / sizeof(ServiceFns[0]))

static uint64_t addrOf(const void *P) { return (uint64_t)(uintptr_t)P; }
static uint64_t fnAddr(orc_rt_WrapperFunctionFn F) {
  return (uint64_t)(uintptr_t)F;
}

orc_rt_ErrorRef
orc_rt_ExecutorServices_addBootstrapSymbol(orc_rt_ExecutorServicesRef ES,
                                           const char *Name, uint64_t Addr) {
  pthread_mutex_lock(&ES->SymLock);
  for (size_t I = 0; I < ES->NumSyms; ++I)
    if (strcmp(ES->Syms[I].Name, Name) == 0) {
      ES->Syms[I].Addr = Addr;
      pthread_mutex_unlock(&ES->SymLock);
      return NULL;
    }
  orc_rt_BootstrapSymbol *N =
      orc_rt_internal_realloc(ES->Syms, (ES->NumSyms + 1) * sizeof(*N));
  char *Copy = orc_rt_internal_strdup(Name);
  if (!N || !Copy) {
    if (N)
      ES->Syms = N;
    free(Copy);
    pthread_mutex_unlock(&ES->SymLock);
    return orc_rt_Error_create("out of memory adding a bootstrap symbol");
  }
  ES->Syms = N;
  ES->Syms[ES->NumSyms++] = (orc_rt_BootstrapSymbol){Copy, Addr};
  pthread_mutex_unlock(&ES->SymLock);
  return NULL;
}

const orc_rt_BootstrapSymbol *
orc_rt_ExecutorServices_getBootstrapSymbols(orc_rt_ExecutorServicesRef ES,
                                            size_t *NumSymbols) {
  *NumSymbols = ES->NumSyms;
  return ES->Syms;
}

/*---- Lifetime ----*/

static void freeServices(orc_rt_ExecutorServicesRef ES) {
  orc_rt_internal_freeUnstartedThreads(ES);
  for (size_t I = 0; I < ES->NumSyms; ++I)
    free((char *)ES->Syms[I].Name);
  free(ES->Syms);
  pthread_mutex_destroy(&ES->SymLock);
  free(ES);
}

/* Session service: runs after the managed-code drain, so no JIT'd code is live
 * and none can start; every slab can go. */
static void onShutdown(void *Ctx) {
  orc_rt_ExecutorServicesRef ES = Ctx;
  orc_rt_internal_MemoryManager_shutdown(ES->MM);
  orc_rt_internal_SharedMemoryMapper_shutdown(ES->SM);
  orc_rt_internal_DylibManager_destroy(ES->DM);
  orc_rt_ExecutorServicesRef Self = ES;
  atomic_compare_exchange_strong(&Current, &Self, NULL);
  freeServices(ES);
}

static const orc_rt_ServiceVTable ServicesVT = {NULL, onShutdown};

orc_rt_ErrorRef
orc_rt_ExecutorServices_create(orc_rt_ExecutorServicesRef *Result,
                               orc_rt_SessionRef S) {
  orc_rt_ExecutorServicesRef ES = orc_rt_internal_calloc(1, sizeof(*ES));
  if (!ES)
    return orc_rt_Error_create("out of memory creating executor services");
  ES->S = S;
  atomic_init(&ES->LiveEntries, 0);
  pthread_mutex_init(&ES->SymLock, NULL);
  ES->MM = orc_rt_internal_MemoryManager_create(ES);
  ES->SM = orc_rt_internal_SharedMemoryMapper_create(ES);
  ES->DM = orc_rt_internal_DylibManager_create();
  orc_rt_ErrorRef Err = NULL;
  if (!ES->MM || !ES->SM || !ES->DM)
    Err = orc_rt_Error_create("out of memory creating executor services");
  for (size_t I = 0; !Err && I < NUM_SERVICE_FNS; ++I)
    Err = orc_rt_ExecutorServices_addBootstrapSymbol(ES, ServiceFns[I].Name,
                                                     fnAddr(ServiceFns[I].Fn));
  if (!Err)
    Err = orc_rt_ExecutorServices_addBootstrapSymbol(
        ES, "__llvm_orc_SimpleExecutorMemoryManager_Instance", addrOf(ES->MM));
  if (!Err)
    Err = orc_rt_ExecutorServices_addBootstrapSymbol(
        ES, "__llvm_orc_SimpleExecutorDylibManager_Instance", addrOf(ES->DM));
  if (!Err)
    Err = orc_rt_ExecutorServices_addBootstrapSymbol(
        ES, "__llvm_orc_ExecutorSharedMemoryMapperService_Instance",
        addrOf(ES->SM));
  if (!Err)
    Err = orc_rt_Session_addService(S, &ServicesVT, ES);
  if (Err) {
    if (ES->MM)
      orc_rt_internal_MemoryManager_shutdown(ES->MM);
    if (ES->SM)
      orc_rt_internal_SharedMemoryMapper_shutdown(ES->SM);
    orc_rt_internal_DylibManager_destroy(ES->DM);
    freeServices(ES);
    return Err;
  }
  atomic_store(&Current, ES);
  *Result = ES;
  return NULL;
}

orc_rt_SessionRef
orc_rt_ExecutorServices_getSession(orc_rt_ExecutorServicesRef ES) {
  return ES->S;
}

/*---- Entering JIT'd code ----*/

bool orc_rt_ExecutorServices_isServiceFunction(orc_rt_ExecutorServicesRef ES,
                                               uint64_t Addr) {
  (void)ES;
  for (size_t I = 0; I < NUM_SERVICE_FNS; ++I)
    if (fnAddr(ServiceFns[I].Fn) == Addr)
      return true;
  return false;
}

bool orc_rt_ExecutorServices_isCallable(orc_rt_ExecutorServicesRef ES,
                                        uint64_t Addr) {
  if (Addr == 0)
    return false;
  if (orc_rt_ExecutorServices_isServiceFunction(ES, Addr))
    return true;
  /* Precise where the process map is readable: an executable mapping. */
  bool Known;
  bool Exec = orc_rt_internal_isExecutable(Addr, &Known);
  if (Known)
    return Exec;
  if (orc_rt_internal_MemoryManager_contains(ES->MM, Addr) ||
      orc_rt_internal_SharedMemoryMapper_contains(ES->SM, Addr))
    return true;
  Dl_info Info;
  return dladdr((void *)(uintptr_t)Addr, &Info) != 0;
}

long orc_rt_ExecutorServices_liveEntries(orc_rt_ExecutorServicesRef ES) {
  return atomic_load(&ES->LiveEntries);
}

bool orc_rt_ExecutorServices_callManaged(orc_rt_ExecutorServicesRef ES,
                                         orc_rt_ManagedFn Fn, void *Ctx) {
  /* Counted before the token is taken and uncounted after it is returned, so a
   * release that sees LiveEntries == 0 knows no entry made here is using JIT'd
   * memory. */
  atomic_fetch_add(&ES->LiveEntries, 1);
  bool Entered = orc_rt_Session_callManagedCode(ES->S, Fn, Ctx);
  atomic_fetch_sub(&ES->LiveEntries, 1);
  return Entered;
}

typedef struct {
  orc_rt_WrapperFunctionFn Fn;
  const char *Args;
  size_t ArgSize;
  orc_rt_CWrapperFunctionBuffer Result;
} WrapperCall;

static void runWrapperCall(void *Ctx) {
  WrapperCall *C = Ctx;
  C->Result = C->Fn(C->Args, C->ArgSize);
}

orc_rt_CWrapperFunctionBuffer
orc_rt_internal_callWrapper(orc_rt_ExecutorServicesRef ES, uint64_t Fn,
                            const char *Args, size_t ArgSize, bool Managed) {
  WrapperCall C = {(orc_rt_WrapperFunctionFn)(uintptr_t)Fn, Args, ArgSize,
                   orc_rt_CWrapperFunctionBuffer_empty()};
  if (orc_rt_ExecutorServices_isServiceFunction(ES, Fn)) {
    runWrapperCall(&C);
    return C.Result;
  }
  if (!orc_rt_ExecutorServices_isCallable(ES, Fn)) {
    orc_rt_ErrorRef Err = orc_rt_Error_createf(
        "call to 0x%llx: not an address of code in this process",
        (unsigned long long)Fn);
    return orc_rt_CWrapperFunctionBuffer_fromError(Err);
  }
  if (!Managed) { /* after the drain: nothing else can run JIT'd code now */
    runWrapperCall(&C);
    return C.Result;
  }
  if (!orc_rt_ExecutorServices_callManaged(ES, runWrapperCall, &C))
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(
        "call into JIT'd code denied: the session is shutting down");
  return C.Result;
}

orc_rt_CWrapperFunctionBuffer
orc_rt_ExecutorServices_callWrapper(orc_rt_ExecutorServicesRef ES, uint64_t Fn,
                                    const char *ArgData, size_t ArgSize) {
  return orc_rt_internal_callWrapper(ES, Fn, ArgData, ArgSize, true);
}
