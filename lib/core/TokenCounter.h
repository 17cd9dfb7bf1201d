/*===- lib/core/TokenCounter.h - Tokens in per-thread slots -------*- C -*-===*/
/*
 * A token counter counts the live tokens of one owner (a task group) so that
 * taking and returning a token touches only the calling thread's own slot,
 * with no locked instruction and no fence; the closer pays instead. The
 * model (Linux percpu_ref's asymmetric-fence design):
 *
 *   - Each counter owns an *index* I, unique among live counters. Each thread
 *     that has touched a counter owns one fixed array of slots, one per index:
 *       Count   tokens of I acquired on this thread minus those released on
 *               it (wrapping: "negative" when tokens move between threads);
 *               written only by this thread, plain load and store, no RMW
 *       Closed  I is closed; written only by the closer, under the registry
 *               lock
 *   - live tokens of I = Departed[I] + (sum over threads of Count[I]) - Base[I]
 *     (Departed: counts of exited threads and of the locked path; Base: the
 *     same sum when I was handed to this counter)
 *   - acquirer:  Count += 1; barrier; load Closed; if set: undo, re-count, deny
 *     releaser:  Count -= 1; barrier; load Closed; if set: re-count
 *     closer:    mark Closed in every slot; fence; arm; count
 *     Whoever counts zero after arming completes the owner, exactly once.
 *   - membarrier mode: the barrier is a compiler barrier and the closer's
 *     fence is membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED).
 *     fallback mode (no membarrier, ORC_RT_C_TOKEN_MODE=fallback, or TSan):
 *     seq_cst stores and loads instead of both.
 *
 * Why this grants no token after close and misses no live token is argued
 * once, in docs/TokenFastPath.md; the comment at each barrier here and in
 * TokenCounter.c says what it orders and which barrier it pairs with.
 *
 * Usage (the owner is lib/core/TaskGroup.c):
 *   init(C, Ops, Owner)     before any token op; C is then read-only
 *   acquire / release       any thread; a token may be released on another
 *                           thread than the one that acquired it
 *   close                   after it returns every acquire is denied; once
 *                           closed with no token out, Ops->complete(Owner)
 *                           runs, once, on the thread that counted zero
 *   exit                    when the owner is freed (no token op running)
 * The counter reaches its owner only through Ops and Owner, handed to init.
 *
 * Names say which side of the protocol runs them: acquire... and release...
 * run on token holders' threads, close on the closer's; ...Fast is inline and
 * touches only the calling thread's slot, ...Slow is out of line
 * (TokenCounter.c); acquirerSawClosed and releaserSawClosed are where an
 * acquirer or a releaser that saw the mark hands over to the closer's side.
 *
 * Everything here is internal to lib/core (and its tests and benchmarks).
 */

#ifndef ORC_RT_C_LIB_CORE_TOKENCOUNTER_H
#define ORC_RT_C_LIB_CORE_TOKENCOUNTER_H

#include "orc-rt-c/EntryFastPath.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*---- Modes ----*/

typedef enum {
  /* Per-thread slots, seq_cst store + load on every acquire and release. */
  orc_rt_internal_TokenMode_Fallback = 0,
  /* Per-thread slots, plain store + compiler barrier; close pays membarrier. */
  orc_rt_internal_TokenMode_Membarrier = 1,
} orc_rt_internal_TokenMode;

/* The mode new counters get. Decided once, on first use: ORC_RT_C_TOKEN_MODE
 * (fallback|membarrier) if set, else membarrier, except in TSan builds
 * (fallback: TSan cannot see membarrier's ordering). Membarrier is only used
 * if the kernel grants MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED. */
orc_rt_internal_TokenMode orc_rt_internal_getTokenMode(void);

/* Sets the mode for counters initialised from now on (existing ones keep
 * theirs). Returns the mode actually in force: asking for membarrier where the
 * kernel refuses it gives fallback. For tests and benchmarks. */
orc_rt_internal_TokenMode
orc_rt_internal_setTokenMode(orc_rt_internal_TokenMode M);

/* True if membarrier(PRIVATE_EXPEDITED) is registered and usable. */
bool orc_rt_internal_membarrierAvailable(void);

/*---- The counter and the calling thread's slots ----*/

/* What the owner hands to init; the counter's only way to the owner. */
typedef struct {
  /* Called under the registry lock when the closed counter's count has
   * reached zero: pins the owner (e.g. takes a reference) unless it is being
   * torn down, i.e. its exit is waiting for that lock. False: nothing more is
   * called, and nobody is left to observe completion. */
  bool (*tryPin)(void *Owner);
  /* Called once, after tryPin returned true, without the lock: the owner
   * runs its completion and lets go of what tryPin took. */
  void (*complete)(void *Owner);
} orc_rt_internal_TokenCounterOps;

/* Read by every token operation; immutable after init. */
typedef struct {
  /* Index in membarrier mode, UINT32_MAX in fallback mode, so the fast
   * paths' one compare against the thread's slot count sends fallback
   * counters and threads without slots out of line. */
  uint32_t FastIndex;
  uint32_t Index;
  bool Fenced; /* fallback mode */
} orc_rt_internal_TokenCounter;

/* Slots per thread: one array of this many, reserved when the thread first
 * touches a counter and never moved. Counters whose index is beyond it (more
 * live counters than this) count their tokens on the locked path. */
#define ORC_RT_C_MAX_TOKEN_SLOTS 16384u

/* A thread's slot, its slot array and the entry's inline fast path are ABI,
 * in the public orc-rt-c/EntryFastPath.h (compiled into programs that call
 * orc_rt_Session_callManagedCode): one copy, used here too. Slot fields are
 * accessed with __atomic builtins (the public header is also C++). */
typedef orc_rt_abi_TokenSlot orc_rt_internal_TokenSlot;

/*---- Owner's side: lifetime and close (TokenCounter.c) ----*/

/* Gives C a free index in the mode in force, with no token out and not
 * closed. False if memory is exhausted. */
bool orc_rt_internal_TokenCounter_init(
    orc_rt_internal_TokenCounter *C, const orc_rt_internal_TokenCounterOps *Ops,
    void *Owner);

/* Returns C's index (no token operation on C may be running or follow).
 * After this the counter never calls Ops again. */
void orc_rt_internal_TokenCounter_exit(orc_rt_internal_TokenCounter *C);

/* The closer (idempotent): marks every thread's slot, fences (membarrier
 * mode), arms, counts. Never blocks on tokens; runs Ops->complete itself if no
 * token is out. Returns once no acquire can be granted any more. The owner
 * must stay alive across the call. */
void orc_rt_internal_TokenCounter_close(const orc_rt_internal_TokenCounter *C);

static inline orc_rt_internal_TokenMode
orc_rt_internal_TokenCounter_getMode(const orc_rt_internal_TokenCounter *C) {
  return C->Fenced ? orc_rt_internal_TokenMode_Fallback
                   : orc_rt_internal_TokenMode_Membarrier;
}

/*---- Acquirer's and releaser's side, out of line (TokenCounter.c) ----*/

/* Cold: the fast paths' compilers keep these calls off the hot path's layout
 * and register allocation. */
#define ORC_RT_C_TOKEN_COLD __attribute__((cold))

/* The whole acquire / release, for what the fast paths send out of line:
 * fallback mode, a thread without slots yet, the locked path. */
ORC_RT_C_TOKEN_COLD bool
orc_rt_internal_TokenCounter_acquireSlow(const orc_rt_internal_TokenCounter *C);
ORC_RT_C_TOKEN_COLD void
orc_rt_internal_TokenCounter_releaseSlow(const orc_rt_internal_TokenCounter *C);
/* Out of line too, declared in orc-rt-c/EntryFastPath.h (ABI: the inline
 * entry in programs calls them): orc_rt_abi_TokenSlot_releaseSlow (a whole
 * release, when a carried count was stale), ..._acquirerSawClosed (undo a
 * denied acquire and re-count; it takes the index I although S determines
 * it: keeping I live until the check lets GCC put the entry wrapper's
 * register saves after its fast/slow test (shrink-wrapping), 7 fewer
 * instructions per fallback-mode entry) and ..._releaserSawClosed
 * (re-count after a release that saw the mark). */

/*---- Acquirer's and releaser's side, inline: the hot path ----*/

/* Fast acquire, membarrier mode on a thread with slots: orc_rt_abi_acquireFast
 * (orc-rt-c/EntryFastPath.h) on C's index. Returns 1 if the token was granted,
 * 0 if denied, -1 if acquireSlow must be taken (nothing was done). On 1, *Slot
 * gets the thread's slot (fixed for the thread's life) and *Expect its Count
 * after the acquire, for releaseFast: an entry wrapper that releases on the
 * same thread carries them across the call it guards. */
static inline int
orc_rt_internal_TokenCounter_acquireFast(const orc_rt_internal_TokenCounter *C,
                                         orc_rt_internal_TokenSlot **Slot,
                                         uintptr_t *Expect) {
  return orc_rt_abi_acquireFast(C->FastIndex, Slot, Expect);
}

/* Fast release for an entry wrapper, after acquireFast on this thread returned
 * 1 with slot S and count Expect: orc_rt_abi_releaseFast. False, having done
 * nothing, if the slot no longer holds Expect; the caller then uses
 * orc_rt_abi_TokenSlot_releaseSlow. */
static inline bool
orc_rt_internal_TokenCounter_releaseFast(orc_rt_internal_TokenSlot *S,
                                         uintptr_t Expect) {
  return orc_rt_abi_releaseFast(S, Expect);
}

/* Takes a token; false, taking nothing, if C is closed. */
static inline bool
orc_rt_internal_TokenCounter_acquire(const orc_rt_internal_TokenCounter *C) {
  orc_rt_internal_TokenSlot *S;
  uintptr_t Expect;
  int R = orc_rt_internal_TokenCounter_acquireFast(C, &S, &Expect);
  if (__builtin_expect(R < 0, 0))
    return orc_rt_internal_TokenCounter_acquireSlow(C);
  return R;
}

/* Returns a token, on any thread. C is not touched after the Count store. */
static inline void
orc_rt_internal_TokenCounter_release(const orc_rt_internal_TokenCounter *C) {
  uint32_t I = C->FastIndex;
  if (__builtin_expect(I >= orc_rt_abi_ThisThread.Cap, 0)) {
    orc_rt_internal_TokenCounter_releaseSlow(C);
    return;
  }
  orc_rt_internal_TokenSlot *S = &orc_rt_abi_ThisThread.Slots[I];
  uintptr_t Count = __atomic_load_n(&S->Count, __ATOMIC_RELAXED);
  /* Release store, as in releaseFast. */
  __atomic_store_n(&S->Count, Count - 1, __ATOMIC_RELEASE);
  /* Compiler barrier, as in releaseFast: pairs with the
   * membarrier in TokenCounter_close. */
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (__builtin_expect(__atomic_load_n(&S->Closed, __ATOMIC_RELAXED) != 0, 0))
    orc_rt_abi_TokenSlot_releaserSawClosed(S);
}

#endif
