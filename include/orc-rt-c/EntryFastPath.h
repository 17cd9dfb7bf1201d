/*===- orc-rt-c/EntryFastPath.h - callManagedCode, inline -------*- C -*-===*\
|* Part of orc-rt-c. The fast path of orc_rt_Session_callManagedCode, inlined *|
|* into the caller (as Linux's percpu_ref puts get/put in its header), and    *|
|* the ABI it freezes. Included by orc-rt-c/Session.h; not for direct use.    *|
\*===----------------------------------------------------------------------===*/
/*
 * With ORC_RT_C_INLINE_ENTRY defined (pkg-config's --cflags and the CMake
 * package's targets define it for programs linked against the library),
 * orc_rt_Session_callManagedCode(S, Fn, Ctx) is a macro for
 * orc_rt_abi_callManagedCode: the token and the managed-frame push touch only
 * the calling thread's own state, with no call into the library, no PLT and
 * no locked instruction; anything else (fallback token mode, a thread's first
 * entry) calls the library's general path. The library's
 * orc_rt_Session_callManagedCode is still exported: JIT'd code and function
 * pointers reach it (the macro only replaces direct calls). Without
 * ORC_RT_C_INLINE_ENTRY, with ORC_RT_C_NO_INLINE_ENTRY, and in TSan builds
 * (TSan cannot see the ordering membarrier gives the inline path) direct
 * calls call it too. Code compiled to be JIT'd should not define
 * ORC_RT_C_INLINE_ENTRY: the inline entry reaches the host's thread-locals
 * (initial-exec TLS), which a JIT linker may not resolve.
 *
 * Everything named orc_rt_abi_ is ABI, not API: compiled into programs, so
 * frozen for a soname (docs/TokenFastPath.md, "The ABI the inline entry
 * freezes"):
 *   - a Session's first member is an orc_rt_abi_SessionHead, whose EntryIndex
 *     (immutable for the Session's life) is its managed-code group's slot
 *     index, or UINT32_MAX to send every entry out of line;
 *   - orc_rt_abi_ThisThread: the calling thread's slot array (fixed for the
 *     thread's life) and its length (0 until the library gives it one), and
 *     its list of live managed frames; slot I's Count is written only by its
 *     thread, Closed only by the library;
 *   - the four out-of-line functions below, and the protocol in
 *     docs/TokenFastPath.md: Count += 1, compiler barrier, load Closed; on
 *     return Count -= 1 (release store), compiler barrier, load Closed.
 */

#ifndef ORC_RT_C_ENTRYFASTPATH_H
#define ORC_RT_C_ENTRYFASTPATH_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Session.h"

#include <stdbool.h>
#include <stdint.h>

ORC_RT_C_EXTERN_C_BEGIN

/* One thread's counts for one token counter (group). */
typedef struct {
  uintptr_t Count;  /* tokens acquired on this thread minus released on it */
  uintptr_t Closed; /* non-zero once the counter is closed */
} orc_rt_abi_TokenSlot;

/* One live callManagedCode frame on this thread's stack. */
typedef struct orc_rt_abi_ManagedFrame {
  orc_rt_SessionRef S;
  struct orc_rt_abi_ManagedFrame *Prev;
} orc_rt_abi_ManagedFrame;

/* The calling thread's entry state, in one thread-local so that one TLS
 * offset reaches all of it: its slot array (never moved) and length, and its
 * list of live managed frames. */
typedef struct {
  orc_rt_abi_TokenSlot *Slots;
  uint32_t Cap;
  orc_rt_abi_ManagedFrame *TopFrame;
} orc_rt_abi_ThreadState;

/* The start of every Session. */
typedef struct {
  uint32_t EntryIndex;
} orc_rt_abi_SessionHead;

/* initial-exec: one %fs-relative access, in the library and in programs (the
 * library needs static TLS anyway; see docs/TokenFastPath.md). */
ORC_RT_C_API extern __thread orc_rt_abi_ThreadState orc_rt_abi_ThisThread
    __attribute__((tls_model("initial-exec")));

/* A fast acquire stored Prev + 1 into S (this thread's slot of index I) and
 * then saw Closed: undoes the +1 and re-counts. The token is denied. */
ORC_RT_C_API __attribute__((cold)) void
orc_rt_abi_TokenSlot_acquirerSawClosed(orc_rt_abi_TokenSlot *S, uintptr_t Prev,
                                       uint32_t I);
/* A fast release stored into S and then saw Closed: re-counts. */
ORC_RT_C_API __attribute__((cold)) void
orc_rt_abi_TokenSlot_releaserSawClosed(orc_rt_abi_TokenSlot *S);
/* The whole release of a token counted in S (this thread's slot), for when
 * the count carried across the call was stale. */
ORC_RT_C_API void orc_rt_abi_TokenSlot_releaseSlow(orc_rt_abi_TokenSlot *S);
/* The whole of orc_rt_Session_callManagedCode on the library's general path,
 * for an entry the inline fast path did not take (it did nothing). */
ORC_RT_C_API bool orc_rt_abi_Session_callManagedCodeSlow(orc_rt_SessionRef S,
                                                         orc_rt_ManagedFn Fn,
                                                         void *Ctx);

/* Fast acquire of index I on this thread. 1: granted, *Slot and *Expect (the
 * slot's Count after the acquire) are for releaseFast; 0: denied; -1: take
 * the library's slow path (nothing was done). */
static inline int orc_rt_abi_acquireFast(uint32_t I,
                                         orc_rt_abi_TokenSlot **Slot,
                                         uintptr_t *Expect) {
  if (__builtin_expect(I >= orc_rt_abi_ThisThread.Cap, 0))
    return -1;
  orc_rt_abi_TokenSlot *S = &orc_rt_abi_ThisThread.Slots[I];
  /* Only this thread writes its Count: a plain load and store, no RMW. */
  uintptr_t Prev = __atomic_load_n(&S->Count, __ATOMIC_RELAXED);
  __atomic_store_n(&S->Count, Prev + 1, __ATOMIC_RELAXED);
  /* Compiler barrier (no instruction): keeps the Count store before the
   * Closed load. Pairs with the membarrier in the library's close, which puts
   * a full CPU barrier between them on this thread while a close is in
   * progress (docs/TokenFastPath.md, "Why a token cannot be granted after
   * close"). */
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  /* Opaque to the compiler, so the caller keeps one register (Prev + 1)
   * across the call instead of two (Prev and Prev + 1). */
  uintptr_t E = Prev + 1;
  __asm__("" : "+r"(E));
  *Slot = S;
  *Expect = E;
  if (__builtin_expect(__atomic_load_n(&S->Closed, __ATOMIC_RELAXED) != 0, 0)) {
    orc_rt_abi_TokenSlot_acquirerSawClosed(S, Prev, I);
    return 0;
  }
  return 1;
}

/* Fast release after acquireFast returned 1 on this thread with S, Expect.
 * Expect is a hint, never trusted: false, having done nothing, unless the
 * slot still holds exactly Expect (a token moved between threads during the
 * call); the caller then uses orc_rt_abi_TokenSlot_releaseSlow. */
static inline bool orc_rt_abi_releaseFast(orc_rt_abi_TokenSlot *S,
                                          uintptr_t Expect) {
  if (__builtin_expect(__atomic_load_n(&S->Count, __ATOMIC_RELAXED) != Expect,
                       0))
    return false;
  /* Count - 1 from a register: hidden from the compiler so the store does
   * not wait for the load (the branch is predicted). */
  uintptr_t New = Expect - 1;
  __asm__("" : "+r"(New));
  /* Release store (a plain mov on x86): the holder's work is ordered before
   * the token's return for whoever counts it (pairs with the closer's seq_cst
   * Count loads). Once the count is back, the group may be completed and
   * freed by another thread: only this thread's slot is touched after. */
  __atomic_store_n(&S->Count, New, __ATOMIC_RELEASE);
  /* Compiler barrier: keeps the Count store before the Closed load. Pairs
   * with the membarrier in the library's close (docs/TokenFastPath.md, "Why
   * close cannot miss a live token"). */
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (__builtin_expect(__atomic_load_n(&S->Closed, __ATOMIC_RELAXED) != 0, 0))
    orc_rt_abi_TokenSlot_releaserSawClosed(S);
  return true;
}

/* Pushes F (of Session S) on this thread's frame list; returns the frame
 * below it, for popFrameTo. Only this thread touches its list. */
static inline orc_rt_abi_ManagedFrame *
orc_rt_abi_pushFrame(orc_rt_abi_ManagedFrame *F, orc_rt_SessionRef S) {
  orc_rt_abi_ManagedFrame *Outer = orc_rt_abi_ThisThread.TopFrame;
  F->S = S;
  /* Empty; keeps GCC from packing the two stores into one through an xmm
   * register (four instructions instead of two). */
  __asm__("" : : "m"(F->S));
  F->Prev = Outer;
  orc_rt_abi_ThisThread.TopFrame = F;
  return Outer;
}

/* Pops the top frame given what pushFrame returned: a store from a value kept
 * in a register (no reload after the call, so the store waits on no load). */
static inline void orc_rt_abi_popFrameTo(orc_rt_abi_ManagedFrame *Outer) {
  orc_rt_abi_ThisThread.TopFrame = Outer;
}

/* The entry under a token of slot index I (S's managed-code group): 1 if
 * Fn(Ctx) ran, 0 if denied, -1 if the slow path must be taken (nothing was
 * done). S is only touched once the token is granted. */
static inline int orc_rt_abi_enter(uint32_t I, orc_rt_SessionRef S,
                                   orc_rt_ManagedFn Fn, void *Ctx) {
  orc_rt_abi_TokenSlot *Slot;
  uintptr_t Expect;
  int Fast = orc_rt_abi_acquireFast(I, &Slot, &Expect);
  if (Fast <= 0)
    return Fast;
  orc_rt_abi_ManagedFrame F;
  orc_rt_abi_ManagedFrame *Outer = orc_rt_abi_pushFrame(&F, S);
  Fn(Ctx);
  orc_rt_abi_popFrameTo(Outer);
  if (__builtin_expect(!orc_rt_abi_releaseFast(Slot, Expect), 0))
    orc_rt_abi_TokenSlot_releaseSlow(Slot);
  return 1;
}

static inline uint32_t orc_rt_abi_Session_entryIndex(orc_rt_SessionRef S) {
  return ((const orc_rt_abi_SessionHead *)(const void *)S)->EntryIndex;
}

#if defined(__SANITIZE_THREAD__)
#define ORC_RT_C_ENTRY_OUT_OF_LINE 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ORC_RT_C_ENTRY_OUT_OF_LINE 1
#endif
#endif
#if defined(ORC_RT_C_NO_INLINE_ENTRY) || !defined(ORC_RT_C_INLINE_ENTRY)
#define ORC_RT_C_ENTRY_OUT_OF_LINE 1
#endif

#ifndef ORC_RT_C_ENTRY_OUT_OF_LINE
/* orc_rt_Session_callManagedCode, inline; the library's general path for
 * what the fast path does not take. Always
 * inlined: GCC otherwise makes one out-of-line copy for a function with
 * several call sites, and the entry pays the call it is here to avoid. */
static inline __attribute__((always_inline)) bool
orc_rt_abi_callManagedCode(orc_rt_SessionRef S, orc_rt_ManagedFn Fn,
                           void *Ctx) {
  int R = orc_rt_abi_enter(orc_rt_abi_Session_entryIndex(S), S, Fn, Ctx);
  if (__builtin_expect(R < 0, 0))
    return orc_rt_abi_Session_callManagedCodeSlow(S, Fn, Ctx);
  return R != 0;
}
#define orc_rt_Session_callManagedCode(S, Fn, Ctx)                             \
  orc_rt_abi_callManagedCode(S, Fn, Ctx)
#endif

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_ENTRYFASTPATH_H */
