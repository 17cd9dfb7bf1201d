/*===- lib/jit/host/HostReload.h - orc_rt_JitModule_reload: hot reload ----===*/

#ifndef ORC_RT_C_LIB_JIT_HOST_HOSTRELOAD_H
#define ORC_RT_C_LIB_JIT_HOST_HOSTRELOAD_H

#include "jit/host/HostParts.h"

/* Replaces M's code with the module in Buf (consumed; Source names where it
 * came from, for errors), under J->Lock. */
orc_rt_ErrorRef orc_rt_jit_Host_reload(orc_rt_JitModuleRef M,
                                       LLVMMemoryBufferRef Buf,
                                       const char *Source);

#endif
