/*===- lib/core/ManagedFrame.h - Per-thread stack of managed frames -------===*/
/* Each callManagedCode pushes a record on a thread-local list for exactly the
 * span its function runs, so the runtime can tell which Sessions' managed code
 * is live on the calling thread (waitForShutdown's deadlock check,
 * orc_rt_Session_current). The list is only ever touched by its own thread: no
 * synchronisation needed. */

#ifndef ORC_RT_C_LIB_CORE_MANAGEDFRAME_H
#define ORC_RT_C_LIB_CORE_MANAGEDFRAME_H

#include "orc-rt-c/Session.h"

typedef struct orc_rt_internal_ManagedFrame {
  orc_rt_SessionRef S;
  struct orc_rt_internal_ManagedFrame *Prev;
} orc_rt_internal_ManagedFrame;

extern _Thread_local orc_rt_internal_ManagedFrame *orc_rt_internal_TopFrame;

static inline void orc_rt_internal_pushFrame(orc_rt_internal_ManagedFrame *F,
                                             orc_rt_SessionRef S) {
  F->S = S;
  F->Prev = orc_rt_internal_TopFrame;
  orc_rt_internal_TopFrame = F;
}

static inline void orc_rt_internal_popFrame(orc_rt_internal_ManagedFrame *F) {
  orc_rt_internal_TopFrame = F->Prev;
}

#endif
