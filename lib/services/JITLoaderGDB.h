/*===- lib/services/JITLoaderGDB.h - GDB JIT interface --------------------===*/
/* Adds the GDB JIT interface alloc action
 * (llvm_orc_registerJITLoaderGDBAllocAction). */

#ifndef ORC_RT_C_LIB_SERVICES_JITLOADERGDB_H
#define ORC_RT_C_LIB_SERVICES_JITLOADERGDB_H

#include "services/ExecutorServices.h"

orc_rt_ErrorRef orc_rt_internal_addJITLoaderGDB(orc_rt_ExecutorServicesRef ES);

/* The alloc action, exported under LLVM's name.
 * Error(AddrRange DebugObject, bool AutoRegister). */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
llvm_orc_registerJITLoaderGDBAllocAction(const char *ArgData, size_t ArgSize);

#endif
