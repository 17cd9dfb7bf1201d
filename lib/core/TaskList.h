/*===- lib/core/TaskList.h - Intrusive FIFO of tasks ----------------------===*/
/* Not synchronised: callers hold their own lock. */

#ifndef ORC_RT_C_LIB_CORE_TASKLIST_H
#define ORC_RT_C_LIB_CORE_TASKLIST_H

#include "orc-rt-c/Dispatch.h"

typedef struct {
  orc_rt_TaskRef Head, *Tail;
  size_t Size;
} orc_rt_internal_TaskList;

static inline void orc_rt_internal_TaskList_init(orc_rt_internal_TaskList *L) {
  L->Head = NULL;
  L->Tail = &L->Head;
  L->Size = 0;
}

void orc_rt_internal_TaskList_push(orc_rt_internal_TaskList *L,
                                   orc_rt_TaskRef T);
orc_rt_TaskRef orc_rt_internal_TaskList_pop(orc_rt_internal_TaskList *L);

#endif
