/*===- lib/core/TokenRegistry.h - Per-thread token slots -------*- C -*-===*/
/*
 * The token fast path (see docs/TokenFastPath.md for the full argument).
 *
 * Every task group owns an *index* I, unique among live groups. Every thread
 * that ever touched a group owns an array of slots, one per index; slot I of
 * thread T holds
 *   - Count: the number of tokens of group I acquired on T minus the number
 *     released on T (wrapping; may be "negative" when tokens move between
 *     threads). Written only by T.
 *   - Closed: non-zero once group I is closed. Written only by the registry,
 *     under its lock.
 * The number of live tokens of group I is
 *   Departed[I] + sum over threads of Count[I] - Base[I]
 * where Departed[I] collects the counts of exited threads and Base[I] is that
 * same sum at the moment index I was given to its current group.
 *
 * Hot path (membarrier mode): a plain store to the thread's own Count, a
 * compiler barrier, a plain load of the thread's own Closed. The closer pays
 * for both sides: it sets Closed in every thread's slot, then runs
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), then sums. Fallback mode (no
 * membarrier, or forced, or TSan) does the same with seq_cst stores and loads.
 *
 * Everything here is internal to lib/core.
 */

#ifndef ORC_RT_C_LIB_CORE_TOKENREGISTRY_H
#define ORC_RT_C_LIB_CORE_TOKENREGISTRY_H

#include "orc-rt-c/TaskGroup.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/*---- Token modes ----*/

typedef enum {
  /* Per-thread slots, seq_cst store + load on every acquire and release. */
  orc_rt_internal_TokenMode_Fallback = 0,
  /* Per-thread slots, plain store + compiler barrier; close pays membarrier. */
  orc_rt_internal_TokenMode_Membarrier = 1,
} orc_rt_internal_TokenMode;

/* The mode new groups get. Decided once, on first use: ORC_RT_C_TOKEN_MODE
 * (fallback|membarrier) if set, else membarrier, except in TSan builds
 * (fallback: TSan cannot see membarrier's ordering). Membarrier is only used
 * if the kernel grants MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED. */
orc_rt_internal_TokenMode orc_rt_internal_getTokenMode(void);

/* Sets the mode for groups created from now on (existing groups keep theirs).
 * Returns the mode actually in force: asking for membarrier where the kernel
 * refuses it gives fallback. For tests and benchmarks. */
orc_rt_internal_TokenMode
orc_rt_internal_setTokenMode(orc_rt_internal_TokenMode M);

/* True if membarrier(PRIVATE_EXPEDITED) is registered and usable. */
bool orc_rt_internal_membarrierAvailable(void);

/* The mode G was created in. */
orc_rt_internal_TokenMode
orc_rt_internal_TaskGroup_getMode(orc_rt_TaskGroupRef G);

/*---- Slots (shared between TaskGroup.c and ThreadRegistry.c) ----*/

/* Slots per thread: one array of this many, reserved when the thread first
 * touches a group and never moved. Groups whose index is beyond it (more live
 * groups than this) count their tokens on the locked path. */
#define ORC_RT_C_MAX_TOKEN_SLOTS 16384u

typedef struct {
  _Atomic uintptr_t Count;  /* written only by the owning thread */
  _Atomic uintptr_t Closed; /* written only under the registry lock */
} orc_rt_internal_TokenSlot;

/* The calling thread's slot array and its length (0 until the thread first
 * touches a group), side by side so one TLS offset reaches both.
 * initial-exec: %fs-relative accesses, also in the shared library (no
 * __tls_get_addr). Written only by the owning thread. */
typedef struct {
  orc_rt_internal_TokenSlot *Slots;
  uint32_t Cap;
} orc_rt_internal_ThreadSlots;

extern _Thread_local orc_rt_internal_ThreadSlots orc_rt_internal_My
    __attribute__((tls_model("initial-exec")));

/*---- Registry operations (all take the registry lock) ----*/

/* Gives G a free index, rebased so that G starts with no tokens and no thread
 * sees it closed. Returns UINT32_MAX if memory is exhausted. */
uint32_t orc_rt_internal_Registry_allocIndex(orc_rt_TaskGroupRef G);

/* Returns I to the free list (G is being freed: no token op can be running). */
void orc_rt_internal_Registry_freeIndex(uint32_t I);

/* Registers the calling thread if needed (its slot array covers every index
 * below ORC_RT_C_MAX_TOKEN_SLOTS). False if I is beyond that or memory is
 * exhausted: the caller then uses the locked path. */
bool orc_rt_internal_Registry_ensureSlot(uint32_t I);

/* The locked path, for a thread whose slot could not be allocated: counts the
 * token in Departed[I] under the lock. */
bool orc_rt_internal_Registry_lockedAcquire(uint32_t I);
void orc_rt_internal_Registry_lockedRelease(uint32_t I);

/* Closes group I (idempotent): sets Closed in every thread's slot, waits out
 * the asymmetric fence (membarrier mode), then checks for completion. Runs
 * the completion itself if no token is out. The caller holds a reference. */
void orc_rt_internal_Registry_close(uint32_t I, bool Membarrier);

/* A token of group I was returned (or a denied acquire undone) on a thread
 * that saw I closed: re-counts and, if that was the last token, completes the
 * group (exactly once over all sweeps). Never dereferences a group that may
 * have been freed: it looks the group up by index under the lock. */
void orc_rt_internal_Registry_sweep(uint32_t I);

/*---- Provided by TaskGroup.c for the registry ----*/

/* Takes a reference unless the count already dropped to zero (the group is
 * being freed). */
bool orc_rt_internal_TaskGroup_tryRetain(orc_rt_TaskGroupRef G);

/* Runs G's completion callbacks; called exactly once per group, without the
 * registry lock, by a thread holding a reference. */
void orc_rt_internal_TaskGroup_runCompletion(orc_rt_TaskGroupRef G);

#endif
