/*===- lib/core/ManagedFrame.h - Per-thread stack of managed frames -------===*/
/* Each callManagedCode pushes a record on a thread-local list for exactly the
 * span its function runs, so the runtime can tell which Sessions' managed
 * code is live on the calling thread (waitForShutdown's deadlock check,
 * orc_rt_Session_current). The list is only ever touched by its own thread:
 * no synchronisation needed. */

#ifndef ORC_RT_C_LIB_CORE_MANAGEDFRAME_H
#define ORC_RT_C_LIB_CORE_MANAGEDFRAME_H

#include "orc-rt-c/Session.h"

typedef struct orc_rt_internal_ManagedFrame {
  orc_rt_SessionRef S;
  struct orc_rt_internal_ManagedFrame *Prev;
} orc_rt_internal_ManagedFrame;

/* initial-exec: one %fs-relative access, also in the shared library (no
 * __tls_get_addr call on every managed-code entry). */
extern _Thread_local orc_rt_internal_ManagedFrame *orc_rt_internal_TopFrame
    __attribute__((tls_model("initial-exec")));

/* Returns the frame below F (F->Prev). */
static inline orc_rt_internal_ManagedFrame *
orc_rt_internal_pushFrame(orc_rt_internal_ManagedFrame *F,
                          orc_rt_SessionRef S) {
  orc_rt_internal_ManagedFrame *Outer = orc_rt_internal_TopFrame;
  F->S = S;
  F->Prev = Outer;
  orc_rt_internal_TopFrame = F;
  return Outer;
}

static inline void orc_rt_internal_popFrame(orc_rt_internal_ManagedFrame *F) {
  orc_rt_internal_TopFrame = F->Prev;
}

/* Pops the top frame given what pushFrame returned for it: the same store as
 * popFrame, from a value the caller kept in a register (no reload of F->Prev
 * after the call, so the store does not wait on a load). */
static inline void
orc_rt_internal_popFrameTo(orc_rt_internal_ManagedFrame *Outer) {
  orc_rt_internal_TopFrame = Outer;
}

#endif
