/*===- lib/services/RunAsMain.h - run_as_main / void / int ----------------===*/
/* Adds the bootstrap wrappers that call JIT'd entry points
 * (__llvm_orc_bootstrap_run_as_*_wrapper). */

#ifndef ORC_RT_C_LIB_SERVICES_RUNASMAIN_H
#define ORC_RT_C_LIB_SERVICES_RUNASMAIN_H

#include "services/ExecutorServices.h"

orc_rt_ErrorRef orc_rt_internal_addRunAsMain(orc_rt_ExecutorServicesRef ES);

#endif
