/*===- lib/core/Session.h - Session internals shared within lib/ ----------===*/

#ifndef ORC_RT_C_LIB_CORE_SESSION_H
#define ORC_RT_C_LIB_CORE_SESSION_H

#include "orc-rt-c/Session.h"

/* S's managed-code group, retained for the caller (drop with
 * orc_rt_internal_TaskGroup_drop). Work deferred past S's lifetime holds this
 * rather than relying on S. */
orc_rt_TaskGroupRef orc_rt_internal_Session_retainGroup(orc_rt_SessionRef S);

/* callManagedCode for deferred work: acquires from G (S's group, retained by
 * the caller) and only touches S once the token is granted, which proves S
 * is still alive. */
bool orc_rt_internal_callInGroup(orc_rt_SessionRef S, orc_rt_TaskGroupRef G,
                                 orc_rt_ManagedFn Fn, void *Ctx);

#endif
