/*===- lib/services/DylibManager.h - SimpleExecutorDylibManager -----------===*/
/* Adds the dylib manager: its open / resolve wrappers and
 * its instance (__llvm_orc_SimpleExecutorDylibManager_*). */

#ifndef ORC_RT_C_LIB_SERVICES_DYLIBMANAGER_H
#define ORC_RT_C_LIB_SERVICES_DYLIBMANAGER_H

#include "services/ExecutorServices.h"

orc_rt_ErrorRef orc_rt_internal_addDylibManager(orc_rt_ExecutorServicesRef ES);

#endif
