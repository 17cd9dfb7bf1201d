/*===- lib/core/TaskGroup.h - Internal task-group helpers -----------------===*/
/* Reference counting for groups shared between a Session and its token sources.
 */

#ifndef ORC_RT_C_LIB_CORE_TASKGROUP_H
#define ORC_RT_C_LIB_CORE_TASKGROUP_H

#include "orc-rt-c/TaskGroup.h"

void orc_rt_internal_TaskGroup_retain(orc_rt_TaskGroupRef G);
void orc_rt_internal_TaskGroup_drop(orc_rt_TaskGroupRef G);

#endif
