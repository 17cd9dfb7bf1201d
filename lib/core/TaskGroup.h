/*===- lib/core/TaskGroup.h - The task group, for lib/core --------*- C -*-===*/
/*
 * The task group's struct, for the code in lib/core that enters a group
 * without a call: the Session's entry wrapper reaches the group's token
 * counter directly (TokenCounter.h, acquireFast/releaseFast). Plus the
 * reference counting shared by a Session and its token sources.
 */

#ifndef ORC_RT_C_LIB_CORE_TASKGROUP_H
#define ORC_RT_C_LIB_CORE_TASKGROUP_H

#include "core/TokenCounter.h"
#include "orc-rt-c/TaskGroup.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct orc_rt_internal_TaskGroupCallback;

struct orc_rt_OpaqueTaskGroup {
  /* Read by every token operation, immutable after create: first, on a cache
   * line of its own. */
  orc_rt_internal_TokenCounter Tokens;

  /* Written by retain/drop (e.g. every dispatched managed call): kept off the
   * token counter's cache line. */
  _Alignas(64) atomic_uint Refs;
  atomic_bool Closed;   /* for isClosed; the counter carries the real state */
  pthread_mutex_t Lock; /* guards Complete and the callback list */
  bool Complete;
  struct orc_rt_internal_TaskGroupCallback *Head, **Tail;
  void *Block; /* what malloc gave: G is Block aligned up to 64 */
};

void orc_rt_internal_TaskGroup_retain(orc_rt_TaskGroupRef G);
void orc_rt_internal_TaskGroup_drop(orc_rt_TaskGroupRef G);

#endif
