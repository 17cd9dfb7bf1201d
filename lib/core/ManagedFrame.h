/*===- lib/core/ManagedFrame.h - Per-thread stack of managed frames -------===*/
/* Each callManagedCode pushes a record on a thread-local list for exactly the
 * span its function runs, so the runtime can tell which Sessions' managed
 * code is live on the calling thread (waitForShutdown's deadlock check,
 * orc_rt_Session_current). The list is only ever touched by its own thread:
 * no synchronisation needed. */

#ifndef ORC_RT_C_LIB_CORE_MANAGEDFRAME_H
#define ORC_RT_C_LIB_CORE_MANAGEDFRAME_H

#include "orc-rt-c/Session.h"

/* The frame, the list's head (orc_rt_abi_ThisThread.TopFrame, initial-exec
 * TLS: one %fs-relative access, also in the shared library) and push/pop are
 * ABI, in the public orc-rt-c/EntryFastPath.h: the inline entry in programs
 * pushes frames too. */
typedef orc_rt_abi_ManagedFrame orc_rt_internal_ManagedFrame;

/* Returns the frame below F (F->Prev). */
static inline orc_rt_internal_ManagedFrame *
orc_rt_internal_pushFrame(orc_rt_internal_ManagedFrame *F,
                          orc_rt_SessionRef S) {
  return orc_rt_abi_pushFrame(F, S);
}

static inline void orc_rt_internal_popFrame(orc_rt_internal_ManagedFrame *F) {
  orc_rt_abi_ThisThread.TopFrame = F->Prev;
}

/* Pops the top frame given what pushFrame returned for it. */
static inline void
orc_rt_internal_popFrameTo(orc_rt_internal_ManagedFrame *Outer) {
  orc_rt_abi_popFrameTo(Outer);
}

#endif
