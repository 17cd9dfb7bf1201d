/*===- lib/platform/Bootstrap.c - Controller-called registration wrappers -===*/
/*
 * The wrapper functions the LLVM 22 ELFNixPlatform controller runs as
 * allocation actions (each returns an SPSError; the second of each pair runs
 * when the graph's memory is deallocated):
 *
 *   __orc_rt_elfnix_platform_bootstrap(SPSExecutorAddr PlatformHeader)
 *   __orc_rt_elfnix_platform_shutdown()
 *   __orc_rt_elfnix_register_jitdylib(SPSString Name, SPSExecutorAddr Header)
 *   __orc_rt_elfnix_deregister_jitdylib(SPSExecutorAddr Header)
 *   __orc_rt_elfnix_register_init_sections(SPSExecutorAddr Header,
 *                                     SPSSequence<SPSExecutorAddrRange>)
 *   __orc_rt_elfnix_deregister_init_sections(same)
 *   __orc_rt_elfnix_register_object_sections(
 *       SPSTuple<SPSExecutorAddrRange EHFrame, SPSExecutorAddrRange TData>)
 *   __orc_rt_elfnix_deregister_object_sections(same)
 *
 * Order (from the controller): bootstrap, register the platform JITDylib,
 * then the platform's own deferred registrations; each later graph's
 * registrations run when it is finalized. Deallocation runs the pairs in
 * reverse, shutdown last.
 */

#include "AtExit.h"
#include "JITDylibs.h"

#include "orc-rt-c/SPS.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

orc_rt_platform_State orc_rt_platform_TheState;

static orc_rt_CWrapperFunctionBuffer badArgs(const char *Fn) {
  return orc_rt_SPS_errorResult(
      orc_rt_Error_createf("%s: could not decode arguments", Fn));
}

static void freeDLError(void *P) { free(P); }

/* A leak checker does not scan JIT'd memory, and the State lives in this
 * JIT-linked image: when the process ends with the platform still up (exit()
 * from JIT'd code), the records only the State points to would be reported
 * as leaked. Under LeakSanitizer the State is registered as a root region
 * for as long as the platform is up. */
typedef void (*RootRegionFn)(const void *, size_t);
static bool LeakRootRegistered;

static void leakRoot(bool Register) {
  if (Register == LeakRootRegistered)
    return;
  RootRegionFn F = (RootRegionFn)(uintptr_t)dlsym(
      RTLD_DEFAULT, Register ? "__lsan_register_root_region"
                             : "__lsan_unregister_root_region");
  if (!F)
    return;
  F(&orc_rt_platform_TheState, sizeof(orc_rt_platform_TheState));
  LeakRootRegistered = Register;
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_platform_bootstrap(const char *ArgData, size_t ArgSize) {
  orc_rt_SPSReader R;
  uint64_t Header;
  orc_rt_SPSReader_init(&R, ArgData, ArgSize);
  if (!orc_rt_SPSReader_readAddr(&R, &Header) || !orc_rt_SPSReader_atEnd(&R))
    return badArgs("__orc_rt_elfnix_platform_bootstrap");
  orc_rt_platform_State *S = &orc_rt_platform_TheState;
  if (S->Bootstrapped)
    return orc_rt_SPS_errorResult(
        orc_rt_Error_create("ELFNix platform runtime bootstrapped twice"));
  memset(S, 0, sizeof(*S));
  pthread_mutexattr_t A;
  pthread_mutexattr_init(&A);
  pthread_mutexattr_settype(&A, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&S->Mutex, &A);
  pthread_mutexattr_destroy(&A);
  if (pthread_key_create(&S->DLErrorKey, freeDLError) != 0 ||
      pthread_key_create(&S->AtExitOwnerKey, NULL) != 0)
    return orc_rt_SPS_errorResult(
        orc_rt_Error_create("ELFNix platform bootstrap: out of pthread keys"));
  S->PlatformHeader = (void *)(uintptr_t)Header;
  S->Bootstrapped = true;
  orc_rt_platform_installExitHook();
  orc_rt_platform_findUnwinder();
  leakRoot(true);
  return orc_rt_SPS_errorResult(NULL);
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_platform_shutdown(const char *ArgData, size_t ArgSize) {
  (void)ArgData;
  if (ArgSize != 0)
    return badArgs("__orc_rt_elfnix_platform_shutdown");
  orc_rt_platform_State *S = &orc_rt_platform_TheState;
  if (!S->Bootstrapped)
    return orc_rt_SPS_errorResult(NULL);
  /* Program end for whatever never reached its dlclose: run the handlers
   * left, then make sure nothing in the process calls into this archive once
   * its memory is released (exit hook, TLS key destructors). */
  orc_rt_platform_removeExitHook();
  orc_rt_platform_deleteTLSKeys();
  orc_rt_platform_destroyJITDylibs();
  free(pthread_getspecific(S->DLErrorKey));
  pthread_key_delete(S->DLErrorKey);
  pthread_key_delete(S->AtExitOwnerKey);
  free(S->AtExits);
  pthread_mutex_destroy(&S->Mutex);
  memset(S, 0, sizeof(*S));
  leakRoot(false);
  return orc_rt_SPS_errorResult(NULL);
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_register_jitdylib(const char *ArgData, size_t ArgSize) {
  orc_rt_SPSReader R;
  const char *Name;
  size_t Len;
  uint64_t Header;
  orc_rt_SPSReader_init(&R, ArgData, ArgSize);
  orc_rt_SPSReader_readBytes(&R, &Name, &Len);
  orc_rt_SPSReader_readAddr(&R, &Header);
  if (!orc_rt_SPSReader_atEnd(&R))
    return badArgs("__orc_rt_elfnix_register_jitdylib");
  return orc_rt_SPS_errorResult(
      orc_rt_platform_registerJITDylib(Name, Len, (void *)(uintptr_t)Header));
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_deregister_jitdylib(const char *ArgData, size_t ArgSize) {
  orc_rt_SPSReader R;
  uint64_t Header;
  orc_rt_SPSReader_init(&R, ArgData, ArgSize);
  if (!orc_rt_SPSReader_readAddr(&R, &Header) || !orc_rt_SPSReader_atEnd(&R))
    return badArgs("__orc_rt_elfnix_deregister_jitdylib");
  return orc_rt_SPS_errorResult(
      orc_rt_platform_deregisterJITDylib((void *)(uintptr_t)Header));
}

/* (SPSExecutorAddr, SPSSequence<SPSExecutorAddrRange>) into malloc'd ranges. */
static bool readInitArgs(const char *ArgData, size_t ArgSize, uint64_t *Header,
                         orc_rt_platform_Range **Ranges, size_t *N) {
  orc_rt_SPSReader R;
  uint64_t Count = 0;
  orc_rt_SPSReader_init(&R, ArgData, ArgSize);
  orc_rt_SPSReader_readAddr(&R, Header);
  if (!orc_rt_SPSReader_readCount(&R, &Count, 16))
    return false;
  *Ranges = malloc((Count ? Count : 1) * sizeof(**Ranges));
  if (!*Ranges)
    return false;
  for (uint64_t I = 0; I < Count; ++I) {
    orc_rt_SPSReader_readAddr(&R, &(*Ranges)[I].Start);
    orc_rt_SPSReader_readAddr(&R, &(*Ranges)[I].End);
  }
  if (!orc_rt_SPSReader_atEnd(&R)) {
    free(*Ranges);
    return false;
  }
  *N = Count;
  return true;
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_register_init_sections(const char *ArgData, size_t ArgSize) {
  uint64_t Header;
  orc_rt_platform_Range *Ranges;
  size_t N;
  if (!readInitArgs(ArgData, ArgSize, &Header, &Ranges, &N))
    return badArgs("__orc_rt_elfnix_register_init_sections");
  orc_rt_ErrorRef Err =
      orc_rt_platform_registerInits((void *)(uintptr_t)Header, Ranges, N);
  free(Ranges);
  return orc_rt_SPS_errorResult(Err);
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_deregister_init_sections(const char *ArgData, size_t ArgSize) {
  uint64_t Header;
  orc_rt_platform_Range *Ranges;
  size_t N;
  if (!readInitArgs(ArgData, ArgSize, &Header, &Ranges, &N))
    return badArgs("__orc_rt_elfnix_deregister_init_sections");
  orc_rt_ErrorRef Err =
      orc_rt_platform_deregisterInits((void *)(uintptr_t)Header, Ranges, N);
  free(Ranges);
  return orc_rt_SPS_errorResult(Err);
}

static bool readObjectSections(const char *ArgData, size_t ArgSize,
                               orc_rt_platform_Range *EH,
                               orc_rt_platform_Range *TData) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, ArgData, ArgSize);
  orc_rt_SPSReader_readAddr(&R, &EH->Start);
  orc_rt_SPSReader_readAddr(&R, &EH->End);
  orc_rt_SPSReader_readAddr(&R, &TData->Start);
  orc_rt_SPSReader_readAddr(&R, &TData->End);
  return orc_rt_SPSReader_atEnd(&R);
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_register_object_sections(const char *ArgData, size_t ArgSize) {
  orc_rt_platform_Range EH, TData;
  if (!readObjectSections(ArgData, ArgSize, &EH, &TData))
    return badArgs("__orc_rt_elfnix_register_object_sections");
  orc_rt_ErrorRef Err = NULL;
  if (EH.Start)
    Err = orc_rt_platform_registerEHFrame(EH.Start);
  if (!Err && TData.Start) {
    Err = orc_rt_platform_registerThreadData(TData.Start, TData.End);
    if (Err && EH.Start)
      orc_rt_platform_deregisterEHFrame(EH.Start);
  }
  return orc_rt_SPS_errorResult(Err);
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_deregister_object_sections(const char *ArgData,
                                           size_t ArgSize) {
  orc_rt_platform_Range EH, TData;
  if (!readObjectSections(ArgData, ArgSize, &EH, &TData))
    return badArgs("__orc_rt_elfnix_deregister_object_sections");
  if (EH.Start)
    orc_rt_platform_deregisterEHFrame(EH.Start);
  if (TData.Start)
    orc_rt_platform_deregisterThreadData(TData.Start);
  return orc_rt_SPS_errorResult(NULL);
}
