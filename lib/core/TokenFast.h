/*===- lib/core/TokenFast.h - The token hot path, inlinable ----*- C -*-===*/
/*
 * The acquire and release fast paths as inline functions, so that
 * orc_rt_TaskGroup_acquireToken/releaseToken (TaskGroup.c) and the Session's
 * entry wrapper (Session.c, callInGroup) share one definition and the wrapper
 * pays no call for them. The protocol and its proof are in TaskGroup.c and
 * docs/TokenFastPath.md.
 *
 * Entry wrappers that acquire and release on the same thread pass the slot's
 * previous Count from acquire to release ("carry the previous value"): the
 * release then stores a value already in a register instead of one computed
 * from a fresh load, which takes the load off the critical path. The release
 * still loads the slot and checks the carried value is right (it is unless
 * something released on this thread a token acquired elsewhere, or the
 * reverse), so it is a hint, never trusted.
 */

#ifndef ORC_RT_C_LIB_CORE_TOKENFAST_H
#define ORC_RT_C_LIB_CORE_TOKENFAST_H

#include "core/TokenRegistry.h"

/* The first members of struct orc_rt_OpaqueTaskGroup (TaskGroup.c asserts
 * this layout). FastIndex is the group's slot index in membarrier mode and
 * UINT32_MAX in fallback mode, so a single compare against the thread's slot
 * count sends fallback groups and unregistered threads to the slow path. */
typedef struct {
  uint32_t FastIndex;
  uint32_t Index;
} orc_rt_internal_TaskGroupHead;

/* Out of line, in TaskGroup.c. */
void orc_rt_internal_TaskGroup_acquireDenied(orc_rt_internal_TokenSlot *S,
                                             uintptr_t Prev, uint32_t I);
void orc_rt_internal_TaskGroup_releaseClosed(uint32_t I);
void orc_rt_internal_TaskGroup_releaseClosedAt(orc_rt_internal_TokenSlot *S);
/* Releases a token of the membarrier group whose slot on this thread is S:
 * the general form of releaseAt. */
void orc_rt_internal_TaskGroup_releaseAtSlow(orc_rt_internal_TokenSlot *S);

/* Fast acquire for membarrier groups on a registered thread. Returns 1 if the
 * token was granted, 0 if denied, -1 if the slow path must be taken (nothing
 * was done). On 1, *Slot gets the thread's slot (fixed for the thread's
 * life) and *Expect its Count after the acquire (for
 * orc_rt_internal_TokenFast_releaseAt). */
static inline int
orc_rt_internal_TokenFast_acquire(orc_rt_TaskGroupRef G,
                                  orc_rt_internal_TokenSlot **Slot,
                                  uintptr_t *Expect) {
  uint32_t I =
      ((const orc_rt_internal_TaskGroupHead *)(const void *)G)->FastIndex;
  if (__builtin_expect(I >= orc_rt_internal_My.Cap, 0))
    return -1;
  orc_rt_internal_TokenSlot *S = &orc_rt_internal_My.Slots[I];
  /* Only this thread writes its Count: a plain load and store, no RMW. */
  uintptr_t C = atomic_load_explicit(&S->Count, memory_order_relaxed);
  atomic_store_explicit(&S->Count, C + 1, memory_order_relaxed);
  /* Compiler barrier (no instruction): keeps the Count store before the
   * Closed load. Partner: the membarrier in orc_rt_internal_Registry_close
   * (ThreadRegistry.c), which puts a full CPU barrier between them on this
   * thread whenever a close is in progress. */
  atomic_signal_fence(memory_order_seq_cst);
  /* Opaque to the compiler, so the wrapper keeps one register (C + 1) across
   * the call instead of two (C and C + 1). */
  uintptr_t E = C + 1;
  __asm__("" : "+r"(E));
  *Slot = S;
  *Expect = E;
  if (__builtin_expect(
          atomic_load_explicit(&S->Closed, memory_order_relaxed) != 0, 0)) {
    orc_rt_internal_TaskGroup_acquireDenied(S, C, I);
    return 0;
  }
  return 1;
}

/* Fast release for entry wrappers, after a fast acquire on this thread
 * returned 1 with slot S and count Expect. Expect is a hint: returns false,
 * having done nothing, unless the slot still holds exactly Expect (then the
 * caller uses orc_rt_internal_TaskGroup_releaseAtSlow). S stays valid: a
 * thread's slot array never moves while the thread runs. */
static inline bool
orc_rt_internal_TokenFast_releaseAt(orc_rt_internal_TokenSlot *S,
                                    uintptr_t Expect) {
  if (__builtin_expect(
          atomic_load_explicit(&S->Count, memory_order_relaxed) != Expect, 0))
    return false;
  /* Count - 1, computed from a register: hide the equality from the
   * compiler so the store does not wait for the load (the branch is
   * predicted). */
  uintptr_t New = Expect - 1;
  __asm__("" : "+r"(New));
  /* Release store (a plain mov on x86): the holder's work is ordered before
   * the token's return for whoever counts it. The group is not touched after
   * this: once the count is back, another thread may complete and free it. */
  atomic_store_explicit(&S->Count, New, memory_order_release);
  /* Compiler barrier. Partner: the membarrier in
   * orc_rt_internal_Registry_close, as in acquire. */
  atomic_signal_fence(memory_order_seq_cst);
  if (__builtin_expect(
          atomic_load_explicit(&S->Closed, memory_order_relaxed) != 0, 0))
    orc_rt_internal_TaskGroup_releaseClosedAt(S);
  return true;
}

#endif
