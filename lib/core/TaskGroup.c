/*===- lib/core/TaskGroup.c - Task groups, tokens and completion ----------===*/
/*
 * Tokens are counted in per-thread slots (TokenRegistry.h): an acquire adds
 * one to the calling thread's slot for the group, a release subtracts one
 * from the releasing thread's slot (so a slot may go "negative" when tokens
 * move between threads; only the sum means anything). The hot path touches
 * nothing shared but the group's read-only index:
 *
 *   acquire: Count += 1; compiler barrier; if (Closed) undo, re-count, deny
 *   release: Count -= 1; compiler barrier; if (Closed) re-count
 *
 * with plain (relaxed / release) stores and loads: no locked instruction, no
 * fence. The hot path itself is in TokenFast.h, shared with the Session's
 * entry wrapper (Session.c), which inlines it. The closer pays instead: it
 * marks Closed in every thread's slot, runs
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) (a full barrier on every thread
 * of the process), and then sums the slots. In fallback mode (no membarrier,
 * forced, or TSan) the same protocol runs with seq_cst stores and loads instead
 * of the compiler barrier.
 *
 * Why no token is granted after close has returned, and why close (or the
 * re-count of a later release) cannot miss a live token:
 *
 *  1. Close marks the slots, then fences (membarrier), then "arms" the group
 *     (ThreadRegistry.c, orc_rt_internal_Registry_close). On each thread the
 *     membarrier's barrier falls somewhere in its instruction stream. An
 *     acquire whose Count store comes before that point has the store visible
 *     to every sum taken after arming. An acquire whose Closed load comes
 *     after that point sees the mark and is denied. Since the store precedes
 *     the load (compiler barrier), every acquire is in one of these cases; a
 *     granted token (load saw no mark) is therefore always counted.
 *  2. close returns only after the fence; any acquire that starts after close
 *     returned has its load after the barrier point (and happens-after the
 *     mark): it is denied.
 *  3. A sum taken after arming is never below the number of live tokens: a
 *     granted token's +1 is visible (1.), a -1 is only stored by the release
 *     of a token whose +1 was stored earlier, and a denied acquire's +1 and
 *     its undo hit the same slot in program order. So a zero sum means no
 *     token is live, and completion runs at most once (a flag under the
 *     registry lock).
 *  4. Completion is not missed: every release that sees the mark re-counts
 *     after its store, under the lock; every release that does not see it
 *     has its store visible to close's own count. The last of these counts
 *     sees every store.
 *  5. After its Count store a release never touches the group: the re-count
 *     looks the group up by index under the registry lock, so a group freed
 *     by the thread that completed it is never dereferenced.
 * docs/TokenFastPath.md spells this out.
 *
 * Memory ordering for completion: a release's Count store is a release store;
 * the re-count's loads are seq_cst (acquire), and in membarrier mode the fence
 * orders the rest, so everything a token holder did before releasing happens
 * before the completion callbacks (onShutdown may free what it used).
 */

#include "core/TaskGroup.h"
#include "core/TokenFast.h"
#include "core/TokenRegistry.h"
#include "support/FaultInjection.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NO_INDEX UINT32_MAX

typedef struct Callback {
  orc_rt_CallbackFn Fn;
  void *Ctx;
  struct Callback *Next;
} Callback;

struct orc_rt_OpaqueTaskGroup {
  /* Read by the hot path; immutable after create. FastIndex is Index in
   * membarrier mode and NO_INDEX in fallback mode, so one compare against the
   * thread's slot count routes fallback groups (and threads without a slot
   * yet) to the out-of-line paths. Must match orc_rt_internal_TaskGroupHead
   * (TokenFast.h). */
  uint32_t FastIndex;
  uint32_t Index;
  bool Fenced; /* fallback mode */

  /* Written by retain/drop (e.g. every dispatched managed call): kept off the
   * hot path's cache line. */
  _Alignas(64) atomic_uint Refs;
  atomic_bool Closed;   /* for isClosed; the slots carry the real state */
  pthread_mutex_t Lock; /* guards Complete and the callback list */
  bool Complete;
  Callback *Head, **Tail;
};

_Static_assert(offsetof(struct orc_rt_OpaqueTaskGroup, FastIndex) ==
                       offsetof(orc_rt_internal_TaskGroupHead, FastIndex) &&
                   offsetof(struct orc_rt_OpaqueTaskGroup, Index) ==
                       offsetof(orc_rt_internal_TaskGroupHead, Index),
               "TokenFast.h reads the group's first members");

struct orc_rt_OpaqueTokenSource {
  orc_rt_TaskGroupRef G;
};

orc_rt_TaskGroupRef orc_rt_TaskGroup_create(void) {
  size_t Size = (sizeof(struct orc_rt_OpaqueTaskGroup) + 63) & ~(size_t)63;
  orc_rt_TaskGroupRef G = aligned_alloc(64, Size);
  if (!G)
    return NULL;
  memset(G, 0, Size);
  G->Fenced =
      orc_rt_internal_getTokenMode() == orc_rt_internal_TokenMode_Fallback;
  G->Index = orc_rt_internal_Registry_allocIndex(G);
  if (G->Index == NO_INDEX) {
    free(G);
    return NULL;
  }
  G->FastIndex = G->Fenced ? NO_INDEX : G->Index;
  atomic_init(&G->Refs, 1);
  atomic_init(&G->Closed, false);
  pthread_mutex_init(&G->Lock, NULL);
  G->Tail = &G->Head;
  return G;
}

orc_rt_internal_TokenMode
orc_rt_internal_TaskGroup_getMode(orc_rt_TaskGroupRef G) {
  return G->Fenced ? orc_rt_internal_TokenMode_Fallback
                   : orc_rt_internal_TokenMode_Membarrier;
}

void orc_rt_internal_TaskGroup_retain(orc_rt_TaskGroupRef G) {
  atomic_fetch_add_explicit(&G->Refs, 1, memory_order_relaxed);
}

bool orc_rt_internal_TaskGroup_tryRetain(orc_rt_TaskGroupRef G) {
  unsigned R = atomic_load_explicit(&G->Refs, memory_order_relaxed);
  do {
    if (R == 0)
      return false;
  } while (!atomic_compare_exchange_weak_explicit(
      &G->Refs, &R, R + 1, memory_order_relaxed, memory_order_relaxed));
  return true;
}

void orc_rt_internal_TaskGroup_drop(orc_rt_TaskGroupRef G) {
  /* acq_rel: the last dropper must see every other holder's writes before
   * freeing. */
  if (atomic_fetch_sub_explicit(&G->Refs, 1, memory_order_acq_rel) != 1)
    return;
  /* Unpublish the index first: a re-count running concurrently finds the
   * index free (or fails tryRetain) and leaves G alone. */
  orc_rt_internal_Registry_freeIndex(G->Index);
  for (Callback *C = G->Head, *N; C; C = N) {
    N = C->Next;
    free(C);
  }
  pthread_mutex_destroy(&G->Lock);
  free(G);
}

void orc_rt_TaskGroup_destroy(orc_rt_TaskGroupRef G) {
  if (G)
    orc_rt_internal_TaskGroup_drop(G);
}

/* Runs every registered callback in order, including ones registered while
 * running, then marks the group complete. The registry hands completion to
 * exactly one thread, which holds a reference for the duration. */
void orc_rt_internal_TaskGroup_runCompletion(orc_rt_TaskGroupRef G) {
  pthread_mutex_lock(&G->Lock);
  while (G->Head) {
    Callback *List = G->Head;
    G->Head = NULL;
    G->Tail = &G->Head;
    pthread_mutex_unlock(&G->Lock);
    for (Callback *C = List, *N; C; C = N) {
      N = C->Next;
      C->Fn(C->Ctx);
      free(C);
    }
    pthread_mutex_lock(&G->Lock);
  }
  G->Complete = true;
  pthread_mutex_unlock(&G->Lock);
}

/*---- Out-of-line paths: fallback mode, first use on a thread ----*/

/* Fallback mode, or a thread with no slot for G yet. */
static __attribute__((noinline, cold)) bool acquireSlow(orc_rt_TaskGroupRef G) {
  uint32_t I = G->Index;
  if (I >= orc_rt_internal_My.Cap && !orc_rt_internal_Registry_ensureSlot(I))
    return orc_rt_internal_Registry_lockedAcquire(I);
  orc_rt_internal_TokenSlot *S = &orc_rt_internal_My.Slots[I];
  uintptr_t C = atomic_load_explicit(&S->Count, memory_order_relaxed);
  if (G->Fenced) {
    /* seq_cst store then seq_cst load. Partner: the closer's seq_cst store of
     * Closed and its seq_cst loads of Count (ThreadRegistry.c, Registry_close
     * and sumLocked). In the single total order either our store precedes
     * the closer's loads (counted) or the mark precedes our load (denied). */
    atomic_store_explicit(&S->Count, C + 1, memory_order_seq_cst);
    if (!atomic_load_explicit(&S->Closed, memory_order_seq_cst))
      return true;
    atomic_store_explicit(&S->Count, C, memory_order_seq_cst);
  } else {
    /* A membarrier group on a thread that just got its slot: the fast path. */
    atomic_store_explicit(&S->Count, C + 1, memory_order_relaxed);
    /* Compiler barrier. Partner: the membarrier in Registry_close. */
    atomic_signal_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&S->Closed, memory_order_relaxed))
      return true;
    atomic_store_explicit(&S->Count, C, memory_order_release);
    /* Compiler barrier. Partner: the membarrier in Registry_close. */
    atomic_signal_fence(memory_order_seq_cst);
  }
  /* Denied. Our transient +1 may have been seen by a count; re-count. */
  orc_rt_internal_Registry_sweep(I);
  return false;
}

__attribute__((noinline, cold)) void
orc_rt_internal_TaskGroup_acquireDenied(orc_rt_internal_TokenSlot *S,
                                        uintptr_t C, uint32_t I) {
  atomic_store_explicit(&S->Count, C, memory_order_release);
  /* Compiler barrier. Partner: the membarrier in Registry_close (the re-count
   * below must come after the undo). */
  atomic_signal_fence(memory_order_seq_cst);
  orc_rt_internal_Registry_sweep(I);
}

static __attribute__((noinline, cold)) void releaseSlow(orc_rt_TaskGroupRef G) {
  uint32_t I = G->Index; /* read before the store: G may die after it */
  bool Fenced = G->Fenced;
  if (I >= orc_rt_internal_My.Cap && !orc_rt_internal_Registry_ensureSlot(I)) {
    orc_rt_internal_Registry_lockedRelease(I);
    return;
  }
  orc_rt_internal_TokenSlot *S = &orc_rt_internal_My.Slots[I];
  uintptr_t C = atomic_load_explicit(&S->Count, memory_order_relaxed);
  bool Closed;
  if (Fenced) {
    /* seq_cst store then seq_cst load. Partner: the closer's seq_cst Closed
     * store and seq_cst Count loads (Registry_close, sumLocked). */
    atomic_store_explicit(&S->Count, C - 1, memory_order_seq_cst);
    Closed = atomic_load_explicit(&S->Closed, memory_order_seq_cst);
  } else {
    atomic_store_explicit(&S->Count, C - 1, memory_order_release);
    /* Compiler barrier. Partner: the membarrier in Registry_close. */
    atomic_signal_fence(memory_order_seq_cst);
    Closed = atomic_load_explicit(&S->Closed, memory_order_relaxed);
  }
  if (Closed)
    orc_rt_internal_Registry_sweep(I); /* by index: G is not touched */
}

__attribute__((noinline, cold)) void
orc_rt_internal_TaskGroup_releaseClosed(uint32_t I) {
  orc_rt_internal_Registry_sweep(I);
}

__attribute__((noinline, cold)) void
orc_rt_internal_TaskGroup_releaseClosedAt(orc_rt_internal_TokenSlot *S) {
  orc_rt_internal_Registry_sweep((uint32_t)(S - orc_rt_internal_My.Slots));
}

__attribute__((noinline)) void
orc_rt_internal_TaskGroup_releaseAtSlow(orc_rt_internal_TokenSlot *S) {
  uintptr_t C = atomic_load_explicit(&S->Count, memory_order_relaxed);
  atomic_store_explicit(&S->Count, C - 1, memory_order_release);
  /* Compiler barrier. Partner: the membarrier in Registry_close. */
  atomic_signal_fence(memory_order_seq_cst);
  if (atomic_load_explicit(&S->Closed, memory_order_relaxed))
    orc_rt_internal_Registry_sweep((uint32_t)(S - orc_rt_internal_My.Slots));
}

/*---- The hot path ----*/

bool orc_rt_TaskGroup_acquireToken(orc_rt_TaskGroupRef G) {
  orc_rt_internal_TokenSlot *S;
  uintptr_t Expect;
  int R = orc_rt_internal_TokenFast_acquire(G, &S, &Expect); /* TokenFast.h */
  if (__builtin_expect(R < 0, 0))
    return acquireSlow(G);
  return R;
}

void orc_rt_TaskGroup_releaseToken(orc_rt_TaskGroupRef G) {
  uint32_t I = G->FastIndex;
  if (__builtin_expect(I >= orc_rt_internal_My.Cap, 0)) {
    releaseSlow(G);
    return;
  }
  orc_rt_internal_TokenSlot *S = &orc_rt_internal_My.Slots[I];
  uintptr_t C = atomic_load_explicit(&S->Count, memory_order_relaxed);
  /* Release store (a plain mov on x86): the holder's work is ordered before
   * the token's return for whoever counts it. G is not touched after this. */
  atomic_store_explicit(&S->Count, C - 1, memory_order_release);
  /* Compiler barrier. Partner: the membarrier in
   * orc_rt_internal_Registry_close (as in acquire). */
  atomic_signal_fence(memory_order_seq_cst);
  if (__builtin_expect(
          atomic_load_explicit(&S->Closed, memory_order_relaxed) != 0, 0))
    orc_rt_internal_TaskGroup_releaseClosed(I);
}

void orc_rt_TaskGroup_close(orc_rt_TaskGroupRef G) {
  /* Held across the close: completion may run inside it and let the owner drop
   * its reference (a Session destroyed on another thread). */
  orc_rt_internal_TaskGroup_retain(G);
  orc_rt_internal_Registry_close(G->Index, !G->Fenced);
  /* Only now is every later acquire denied, so only now may isClosed say so.
   * Release: pairs with the acquire load in orc_rt_TaskGroup_isClosed. */
  atomic_store_explicit(&G->Closed, true, memory_order_release);
  orc_rt_internal_TaskGroup_drop(G);
}

bool orc_rt_TaskGroup_isClosed(orc_rt_TaskGroupRef G) {
  return atomic_load_explicit(&G->Closed, memory_order_acquire);
}

bool orc_rt_TaskGroup_isComplete(orc_rt_TaskGroupRef G) {
  pthread_mutex_lock(&G->Lock);
  bool C = G->Complete;
  pthread_mutex_unlock(&G->Lock);
  return C;
}

orc_rt_ErrorRef orc_rt_TaskGroup_addOnComplete(orc_rt_TaskGroupRef G,
                                               orc_rt_CallbackFn Fn,
                                               void *Ctx) {
  pthread_mutex_lock(&G->Lock);
  if (G->Complete) {
    pthread_mutex_unlock(&G->Lock);
    Fn(Ctx);
    return NULL;
  }
  Callback *C = orc_rt_internal_malloc(sizeof(*C));
  if (!C) {
    pthread_mutex_unlock(&G->Lock);
    return orc_rt_Error_create(
        "out of memory registering a task group callback");
  }
  C->Fn = Fn;
  C->Ctx = Ctx;
  C->Next = NULL;
  *G->Tail = C;
  G->Tail = &C->Next;
  pthread_mutex_unlock(&G->Lock);
  return NULL;
}

orc_rt_TokenSourceRef orc_rt_TaskGroup_getTokenSource(orc_rt_TaskGroupRef G) {
  orc_rt_TokenSourceRef TS = orc_rt_internal_malloc(sizeof(*TS));
  if (!TS)
    return NULL;
  orc_rt_internal_TaskGroup_retain(G);
  TS->G = G;
  return TS;
}

bool orc_rt_TokenSource_acquireToken(orc_rt_TokenSourceRef TS) {
  return orc_rt_TaskGroup_acquireToken(TS->G);
}

void orc_rt_TokenSource_releaseToken(orc_rt_TokenSourceRef TS) {
  orc_rt_TaskGroup_releaseToken(TS->G);
}

void orc_rt_TokenSource_dispose(orc_rt_TokenSourceRef TS) {
  if (!TS)
    return;
  orc_rt_internal_TaskGroup_drop(TS->G);
  free(TS);
}
