/*===- lib/services/ServiceList.c - The services an executor offers -------===*/
/* orc_rt_ExecutorServices_create: the services object (ExecutorServices.c)
 * with every service added, in this order. Adding a service means a new file
 * pair (its wrappers, its state, its adder) and one line here.
 *
 * Instances shut down newest first: the memory managers (whose dealloc actions
 * may call into loaded libraries) before the dylib manager. */

#include "services/DylibManager.h"
#include "services/EHFrame.h"
#include "services/ExecutorServices.h"
#include "services/JITLoaderGDB.h"
#include "services/ManagedThreads.h"
#include "services/MemoryAccess.h"
#include "services/MemoryManager.h"
#include "services/RunAsMain.h"
#include "services/SharedMemoryMapper.h"

static const orc_rt_internal_ServiceAdder Adders[] = {
    orc_rt_internal_addRunAsMain,
    orc_rt_internal_addMemoryAccess,
    orc_rt_internal_addEHFrame,
    orc_rt_internal_addJITLoaderGDB,
    orc_rt_internal_addManagedThreads,
    orc_rt_internal_addDylibManager,
    orc_rt_internal_addSharedMemoryMapper,
    orc_rt_internal_addMemoryManager,
};

orc_rt_ErrorRef
orc_rt_ExecutorServices_create(orc_rt_ExecutorServicesRef *Result,
                               orc_rt_SessionRef S) {
  return orc_rt_internal_ExecutorServices_create(
      Result, S, Adders, sizeof(Adders) / sizeof(Adders[0]));
}
