/*===- lib/services/ManagedThreads.h - Threads JIT'd code starts ----------===*/
/* Adds the thread interposers JIT'd code gets for pthread_create, thrd_create,
 * pthread_exit, thrd_exit, thrd_join and thrd_detach. */

#ifndef ORC_RT_C_LIB_SERVICES_MANAGEDTHREADS_H
#define ORC_RT_C_LIB_SERVICES_MANAGEDTHREADS_H

#include "services/ExecutorServices.h"

orc_rt_ErrorRef
orc_rt_internal_addManagedThreads(orc_rt_ExecutorServicesRef ES);

#endif
