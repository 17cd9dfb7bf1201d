/*===- lib/services/SharedMemoryMapper.h - Shared-memory mapper -----------===*/
/* Adds the shared-memory mapper (llvm-jitlink -use-memmgr=shared): its wrappers
 * and its instance (__llvm_orc_ExecutorSharedMemoryMapperService_*). */

#ifndef ORC_RT_C_LIB_SERVICES_SHAREDMEMORYMAPPER_H
#define ORC_RT_C_LIB_SERVICES_SHAREDMEMORYMAPPER_H

#include "services/ExecutorServices.h"

orc_rt_ErrorRef
orc_rt_internal_addSharedMemoryMapper(orc_rt_ExecutorServicesRef ES);

#endif
