/*===- lib/services/MemoryAccess.h - Bootstrap memory read/write ----------===*/
/* Adds the bootstrap memory read / write wrappers
 * (__llvm_orc_bootstrap_mem_{read,write}_*_wrapper). */

#ifndef ORC_RT_C_LIB_SERVICES_MEMORYACCESS_H
#define ORC_RT_C_LIB_SERVICES_MEMORYACCESS_H

#include "services/ExecutorServices.h"

orc_rt_ErrorRef orc_rt_internal_addMemoryAccess(orc_rt_ExecutorServicesRef ES);

#endif
