/*===- lib/services/EHFrame.c - EH-frame registration alloc actions -------===*/
/* Registers JIT'd .eh_frame sections with the unwinder C++ exceptions use:
 * libgcc_s's __register_frame (one call with the section start, as under
 * libgcc). The unwinder is found at run time (dlsym, loading libgcc_s.so.1 if
 * the process has none yet), so the runtime itself links no unwinder. */

#include "services/EHFrame.h"
#include "services/SafeCopy.h"
#include "services/ServiceWire.h"

#include <dlfcn.h>

typedef void (*FrameFn)(const void *);

static FrameFn findFrameFn(const char *Name) {
  void *P = dlsym(RTLD_DEFAULT, Name);
  if (!P) {
    void *H = dlopen("libgcc_s.so.1", RTLD_LAZY | RTLD_GLOBAL);
    if (H)
      P = dlsym(H, Name);
  }
  return (FrameFn)(uintptr_t)P;
}

/* Error(AddrRange EHFrame). */
static orc_rt_CWrapperFunctionBuffer frameAction(const char *Data, size_t Size,
                                                 const char *FnName) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t Start, End;
  if (!orc_rt_SPSReader_readAddr(&R, &Start) ||
      !orc_rt_SPSReader_readAddr(&R, &End))
    return orc_rt_internal_badArgs();
  if (End < Start || !orc_rt_internal_isReadable((const void *)(uintptr_t)Start,
                                                 (size_t)(End - Start)))
    return orc_rt_SPS_errorResult(orc_rt_Error_createf(
        "%s: eh-frame range 0x%llx -- 0x%llx is not readable", FnName,
        (unsigned long long)Start, (unsigned long long)End));
  FrameFn Fn = findFrameFn(FnName);
  if (!Fn)
    return orc_rt_SPS_errorResult(
        orc_rt_Error_createf("%s not available in this process", FnName));
  if (Start)
    Fn((const void *)(uintptr_t)Start);
  return orc_rt_SPS_errorResult(NULL);
}

orc_rt_CWrapperFunctionBuffer
llvm_orc_registerEHFrameSectionAllocAction(const char *Data, size_t Size) {
  return frameAction(Data, Size, "__register_frame");
}

orc_rt_CWrapperFunctionBuffer
llvm_orc_deregisterEHFrameSectionAllocAction(const char *Data, size_t Size) {
  return frameAction(Data, Size, "__deregister_frame");
}

/*---- The service ----*/

static const orc_rt_internal_ServiceFn Functions[] = {
    {"llvm_orc_registerEHFrameAllocAction",
     llvm_orc_registerEHFrameSectionAllocAction},
    {"llvm_orc_deregisterEHFrameAllocAction",
     llvm_orc_deregisterEHFrameSectionAllocAction},
};

orc_rt_ErrorRef orc_rt_internal_addEHFrame(orc_rt_ExecutorServicesRef ES) {
  return orc_rt_internal_ExecutorServices_addFunctions(
      ES, Functions, sizeof(Functions) / sizeof(Functions[0]));
}
