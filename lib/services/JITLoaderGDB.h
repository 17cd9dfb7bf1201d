/*===- lib/services/JITLoaderGDB.h - GDB JIT interface --------------------===*/
/* Adds the GDB JIT interface alloc action
 * (llvm_orc_registerJITLoaderGDBAllocAction). */

#ifndef ORC_RT_C_LIB_SERVICES_JITLOADERGDB_H
#define ORC_RT_C_LIB_SERVICES_JITLOADERGDB_H

#include "services/ExecutorServices.h"

orc_rt_ErrorRef orc_rt_internal_addJITLoaderGDB(orc_rt_ExecutorServicesRef ES);

#endif
