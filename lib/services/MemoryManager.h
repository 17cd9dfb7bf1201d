/*===- lib/services/MemoryManager.h - SimpleExecutorMemoryManager ---------===*/
/* Adds the memory manager: its reserve / initialize / deinitialize / release
 * wrappers and its instance (__llvm_orc_SimpleExecutorMemoryManager_*). */

#ifndef ORC_RT_C_LIB_SERVICES_MEMORYMANAGER_H
#define ORC_RT_C_LIB_SERVICES_MEMORYMANAGER_H

#include "services/ExecutorServices.h"

orc_rt_ErrorRef orc_rt_internal_addMemoryManager(orc_rt_ExecutorServicesRef ES);

#endif
