/*===- lib/core/TokenCounter.c - Token counters: registry, slow paths -----===*/
/*
 * Everything of a token counter (TokenCounter.h) that is not inline: which
 * threads own slot arrays, which counter owns which index (with its owner and
 * Ops), the modes, the closer's side (close, re-count, completion) and the
 * out-of-line halves of acquire and release. One mutex, Lock, guards all
 * shared state here; nothing here is on the hot path.
 *
 * The correctness argument is docs/TokenFastPath.md; the comment at each
 * barrier below says what it orders and which barrier it pairs with.
 */

#include "core/TokenCounter.h"
#include "support/FaultInjection.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#if __has_include(<linux/membarrier.h>)
#include <linux/membarrier.h>
#endif
#ifndef MEMBARRIER_CMD_QUERY
#define MEMBARRIER_CMD_QUERY 0
#endif
#ifndef MEMBARRIER_CMD_PRIVATE_EXPEDITED
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#endif
#ifndef MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
#endif

#if defined(__SANITIZE_THREAD__)
#define ORC_RT_C_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ORC_RT_C_TSAN 1
#endif
#endif

/* The calling thread's slots (written here) and its managed-frame list
 * (ManagedFrame.h): one thread-local, declared in orc-rt-c/EntryFastPath.h. */
_Thread_local orc_rt_abi_ThreadState orc_rt_abi_ThisThread
    __attribute__((tls_model("initial-exec")));

typedef struct ThreadRec {
  orc_rt_internal_TokenSlot *Slots; /* Cap entries, page aligned, fixed */
  uint32_t Cap;
  struct ThreadRec *Next, **PrevNext;
} ThreadRec;

typedef struct {
  void *Owner; /* the owner of the counter holding this index; NULL if free */
  const orc_rt_internal_TokenCounterOps *Ops;
  uintptr_t Departed; /* exited threads' counts, the locked path's tokens */
  uintptr_t Base;     /* the count sum when the index was handed out */
  bool Closed;        /* close has started: slots are marked */
  bool Armed;         /* close's fence is done: a zero sum is final */
  bool Done;          /* completion has been handed to some thread */
  uint32_t NextFree;
} IndexEntry;

#define NO_INDEX UINT32_MAX

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static ThreadRec *Threads;
static IndexEntry *Entries;
static uint32_t NumEntries, CapEntries, FreeHead = NO_INDEX;

static pthread_once_t Once = PTHREAD_ONCE_INIT;
static pthread_key_t ExitKey;
static bool HaveExitKey;
static bool MembarrierOK;
static _Atomic int Mode;

static _Thread_local ThreadRec *Self;

/*---- Modes and membarrier ----*/

static long sysMembarrier(int Cmd) {
  return syscall(SYS_membarrier, Cmd, 0, 0);
}

static bool registerMembarrier(void) {
  if (orc_rt_internal_FaultInjector_fail(orc_rt_internal_Fault_Membarrier))
    return false; /* as if the kernel said ENOSYS */
  long Cmds = sysMembarrier(MEMBARRIER_CMD_QUERY);
  if (Cmds < 0 || !(Cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
    return false; /* ENOSYS (old kernel, valgrind), EPERM (seccomp) */
  return sysMembarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

static void threadExit(void *P);

/* fork: Lock is not held across it, so that the child, whose only thread is
 * the forking one, can take it (a thread that held it in the parent is not
 * in the child to give it back; the child's next group or thread would wait
 * for ever). Lock's critical sections block on nothing, so the prepare's
 * wait is short. Registered at the first use, before anything built on the
 * runtime registers its own: prepare handlers run newest first, so theirs
 * (which may wait for threads that need Lock) run before this one. */
static void lockForFork(void) { pthread_mutex_lock(&Lock); }
static void unlockAfterFork(void) { pthread_mutex_unlock(&Lock); }

static void initOnce(void) {
  pthread_atfork(lockForFork, unlockAfterFork, unlockAfterFork);
  HaveExitKey = pthread_key_create(&ExitKey, threadExit) == 0;
  MembarrierOK = registerMembarrier();
#ifdef ORC_RT_C_TSAN
  orc_rt_internal_TokenMode M = orc_rt_internal_TokenMode_Fallback;
#else
  orc_rt_internal_TokenMode M = orc_rt_internal_TokenMode_Membarrier;
#endif
  const char *Env = getenv("ORC_RT_C_TOKEN_MODE");
  if (Env && !strcmp(Env, "fallback"))
    M = orc_rt_internal_TokenMode_Fallback;
  else if (Env && !strcmp(Env, "membarrier"))
    M = orc_rt_internal_TokenMode_Membarrier;
  if (!MembarrierOK)
    M = orc_rt_internal_TokenMode_Fallback;
  atomic_store(&Mode, (int)M);
}

static void init(void) { pthread_once(&Once, initOnce); }

orc_rt_internal_TokenMode orc_rt_internal_getTokenMode(void) {
  init();
  return (orc_rt_internal_TokenMode)atomic_load(&Mode);
}

orc_rt_internal_TokenMode
orc_rt_internal_setTokenMode(orc_rt_internal_TokenMode M) {
  init();
  if (M == orc_rt_internal_TokenMode_Membarrier && !MembarrierOK)
    M = orc_rt_internal_TokenMode_Fallback;
  atomic_store(&Mode, (int)M);
  return M;
}

bool orc_rt_internal_membarrierAvailable(void) {
  init();
  return MembarrierOK;
}

/*---- Counting and completion (the closer's side, under Lock) ----*/

/* The live-token count of index I, plus Base. seq_cst loads: in fallback mode
 * they are the closer's half of the store->load pairs in acquireSlow and
 * releaseSlow (fallback branch); in membarrier mode the order is given by the
 * membarrier in close (an acquire load would do; seq_cst costs the same plain
 * mov on x86). Either way they also pair with the releases' release stores of
 * Count, so the holders' work happens before the completion. */
static uintptr_t sumLocked(uint32_t I) {
  uintptr_t S = Entries[I].Departed;
  for (ThreadRec *T = Threads; T; T = T->Next)
    if (I < T->Cap)
      S += __atomic_load_n(&T->Slots[I].Count, __ATOMIC_SEQ_CST);
  return S;
}

/* Who runs a completion: the entry whose owner was pinned under Lock. */
typedef struct {
  void *Owner;
  const orc_rt_internal_TokenCounterOps *Ops;
} Completion;

/* If index I is armed and has no token out, marks it done and pins its owner:
 * the caller runs the completion once Lock is released. */
static Completion takeCompletionLocked(uint32_t I) {
  IndexEntry *E = &Entries[I];
  Completion None = {NULL, NULL};
  if (!E->Owner || !E->Armed || E->Done)
    return None;
  uintptr_t Live = sumLocked(I) - E->Base;
  assert((intptr_t)Live >= 0 && "releaseToken without a matching acquire");
  if (Live != 0)
    return None;
  E->Done = true;
  /* The owner may be on its way out (its exit waiting for Lock to free the
   * index): then nobody can observe completion. */
  if (!E->Ops->tryPin(E->Owner))
    return None;
  Completion C = {E->Owner, E->Ops};
  return C;
}

static void completeOwner(Completion C) {
  if (C.Owner)
    C.Ops->complete(C.Owner);
}

/* After a release, or an undone acquire, that saw I closed: re-counts and, if
 * that was the last token, completes (exactly once over all re-counts). Looks
 * the owner up by index under Lock, so an owner freed meanwhile is never
 * touched; a re-count for an index a new counter has taken meanwhile merely
 * re-counts that counter, which is always safe. */
static __attribute__((noinline, cold)) void recount(uint32_t I) {
  pthread_mutex_lock(&Lock);
  Completion C = takeCompletionLocked(I);
  pthread_mutex_unlock(&Lock);
  completeOwner(C);
}

/*---- Indices: the owner's init and exit ----*/

bool orc_rt_internal_TokenCounter_init(
    orc_rt_internal_TokenCounter *C, const orc_rt_internal_TokenCounterOps *Ops,
    void *Owner) {
  init();
  bool Fenced = (orc_rt_internal_TokenMode)atomic_load(&Mode) ==
                orc_rt_internal_TokenMode_Fallback;
  pthread_mutex_lock(&Lock);
  uint32_t I;
  if (FreeHead != NO_INDEX) {
    I = FreeHead;
    FreeHead = Entries[I].NextFree;
  } else {
    if (NumEntries == CapEntries) {
      uint32_t NewCap = CapEntries ? 2 * CapEntries : 16;
      IndexEntry *N = orc_rt_internal_realloc(Entries, NewCap * sizeof(*N));
      if (!N || NewCap >= NO_INDEX) {
        pthread_mutex_unlock(&Lock);
        return false;
      }
      Entries = N;
      CapEntries = NewCap;
    }
    I = NumEntries++;
    memset(&Entries[I], 0, sizeof(Entries[I]));
  }
  /* A reused index keeps the counts its previous counter left behind (zero in
   * sum if every token came back); Base absorbs them. Slots still marked
   * closed by the previous counter are cleared. Every store into index I by
   * the previous counter's token operations happens-before this (they were
   * counted by its completion, or its owner exited it after they returned,
   * and the index came back through exit under Lock). */
  IndexEntry *E = &Entries[I];
  uintptr_t Base = E->Departed;
  for (ThreadRec *T = Threads; T; T = T->Next)
    if (I < T->Cap) {
      __atomic_store_n(&T->Slots[I].Closed, 0, __ATOMIC_SEQ_CST);
      Base += __atomic_load_n(&T->Slots[I].Count, __ATOMIC_SEQ_CST);
    }
  E->Owner = Owner;
  E->Ops = Ops;
  E->Base = Base;
  E->Closed = E->Armed = E->Done = false;
  pthread_mutex_unlock(&Lock);
  C->Index = I;
  C->FastIndex = Fenced ? NO_INDEX : I;
  C->Fenced = Fenced;
  return true;
}

void orc_rt_internal_TokenCounter_exit(orc_rt_internal_TokenCounter *C) {
  uint32_t I = C->Index;
  pthread_mutex_lock(&Lock);
  Entries[I].Owner = NULL;
  Entries[I].Ops = NULL;
  Entries[I].NextFree = FreeHead;
  FreeHead = I;
  pthread_mutex_unlock(&Lock);
}

/*---- Threads ----*/

static void threadExit(void *P) {
  ThreadRec *T = P;
  pthread_mutex_lock(&Lock);
  for (uint32_t I = 0; I < T->Cap && I < NumEntries; ++I)
    Entries[I].Departed +=
        __atomic_load_n(&T->Slots[I].Count, __ATOMIC_RELAXED);
  *T->PrevNext = T->Next;
  if (T->Next)
    T->Next->PrevNext = T->PrevNext;
  pthread_mutex_unlock(&Lock);
  /* A later destructor that enters a counter re-registers this thread (and
   * sets the key again, so it is cleaned up in the next destructor round). */
  orc_rt_abi_ThisThread.Slots = NULL;
  orc_rt_abi_ThisThread.Cap = 0;
  Self = NULL;
  munmap(T->Slots,
         ORC_RT_C_MAX_TOKEN_SLOTS * sizeof(orc_rt_internal_TokenSlot));
  free(T);
}

/* Registers the calling thread if needed (its slot array covers every index
 * below ORC_RT_C_MAX_TOKEN_SLOTS). False if I is beyond that or memory is
 * exhausted: the caller then uses the locked path. */
static __attribute__((noinline, cold)) bool ensureSlot(uint32_t I) {
  init();
  if (!HaveExitKey || I >= ORC_RT_C_MAX_TOKEN_SLOTS)
    return false;
  pthread_mutex_lock(&Lock);
  ThreadRec *T = Self;
  if (!T) {
    /* The whole array at once, reserved not committed (MAP_NORESERVE, zero
     * pages on demand: a thread that only uses low indices touches one page).
     * It never moves, so an entry wrapper can keep a pointer to its slot
     * across the call it guards. */
    size_t Bytes = ORC_RT_C_MAX_TOKEN_SLOTS * sizeof(orc_rt_internal_TokenSlot);
    void *Mem = orc_rt_internal_mmap(
        NULL, Bytes, PROT_READ | PROT_WRITE,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    T = Mem == MAP_FAILED ? NULL : orc_rt_internal_calloc(1, sizeof(*T));
    if (!T || pthread_setspecific(ExitKey, T) != 0) {
      pthread_mutex_unlock(&Lock);
      if (Mem != MAP_FAILED)
        munmap(Mem, Bytes);
      free(T);
      return false;
    }
    T->Slots = Mem;
    T->Cap = ORC_RT_C_MAX_TOKEN_SLOTS;
    /* Counters already closing are closed for this thread too (Count starts
     * at zero, which Base does not include: the thread was not registered
     * when the counters got their indices). Under Lock, so ordered after the
     * closer's marking by the lock itself. */
    for (uint32_t J = 0; J != NumEntries; ++J)
      if (Entries[J].Owner && Entries[J].Closed)
        __atomic_store_n(&T->Slots[J].Closed, 1, __ATOMIC_RELAXED);
    T->Next = Threads;
    T->PrevNext = &Threads;
    if (Threads)
      Threads->PrevNext = &T->Next;
    Threads = T;
    Self = T;
    orc_rt_abi_ThisThread.Slots = T->Slots;
    orc_rt_abi_ThisThread.Cap = T->Cap;
  }
  pthread_mutex_unlock(&Lock);
  return true;
}

/*---- The acquirer's and releaser's side, out of line ----*/

/* The locked path (no slot could be had): the token is counted in Departed,
 * under Lock, which orders it against close's marking by the lock itself. */
static __attribute__((noinline, cold)) bool lockedAcquire(uint32_t I) {
  pthread_mutex_lock(&Lock);
  bool Ok = !Entries[I].Closed;
  if (Ok)
    Entries[I].Departed += 1;
  pthread_mutex_unlock(&Lock);
  return Ok;
}

static __attribute__((noinline, cold)) void lockedRelease(uint32_t I) {
  pthread_mutex_lock(&Lock);
  Entries[I].Departed -= 1;
  Completion C = takeCompletionLocked(I);
  pthread_mutex_unlock(&Lock);
  completeOwner(C);
}

static uint32_t indexOfMySlot(orc_rt_internal_TokenSlot *S) {
  return (uint32_t)(S - orc_rt_abi_ThisThread.Slots);
}

__attribute__((noinline, cold)) bool orc_rt_internal_TokenCounter_acquireSlow(
    const orc_rt_internal_TokenCounter *C) {
  uint32_t I = C->Index;
  if (I >= orc_rt_abi_ThisThread.Cap && !ensureSlot(I))
    return lockedAcquire(I);
  orc_rt_internal_TokenSlot *S = &orc_rt_abi_ThisThread.Slots[I];
  uintptr_t Prev = __atomic_load_n(&S->Count, __ATOMIC_RELAXED);
  if (C->Fenced) {
    /* Fallback mode: seq_cst store, then seq_cst load. Pairs with the
     * closer's seq_cst store of Closed (close) and seq_cst loads of Count
     * (sumLocked): in the single total order either our store precedes the
     * closer's loads (counted) or the mark precedes our load (denied). */
    __atomic_store_n(&S->Count, Prev + 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&S->Closed, __ATOMIC_SEQ_CST))
      return true;
    __atomic_store_n(&S->Count, Prev, __ATOMIC_SEQ_CST);
    recount(I); /* our transient +1 may have been counted */
    return false;
  }
  /* A membarrier-mode counter on a thread that just got its slots: the fast
   * path (acquireFast has the barrier's comment). */
  __atomic_store_n(&S->Count, Prev + 1, __ATOMIC_RELAXED);
  /* Compiler barrier: Count store before Closed load. Pairs with the
   * membarrier in close. */
  atomic_signal_fence(memory_order_seq_cst);
  if (!__atomic_load_n(&S->Closed, __ATOMIC_RELAXED))
    return true;
  orc_rt_abi_TokenSlot_acquirerSawClosed(S, Prev, I);
  return false;
}

__attribute__((noinline, cold)) void orc_rt_internal_TokenCounter_releaseSlow(
    const orc_rt_internal_TokenCounter *C) {
  /* Read before the Count store: the owner may be freed after it. */
  uint32_t I = C->Index;
  bool Fenced = C->Fenced;
  if (I >= orc_rt_abi_ThisThread.Cap && !ensureSlot(I)) {
    lockedRelease(I);
    return;
  }
  orc_rt_internal_TokenSlot *S = &orc_rt_abi_ThisThread.Slots[I];
  if (!Fenced) {
    /* Membarrier mode on a thread that just got its slots. */
    orc_rt_abi_TokenSlot_releaseSlow(S);
    return;
  }
  uintptr_t Count = __atomic_load_n(&S->Count, __ATOMIC_RELAXED);
  /* Fallback mode: seq_cst store, then seq_cst load. Pairs with the closer's
   * seq_cst store of Closed and seq_cst loads of Count, as in acquireSlow. */
  __atomic_store_n(&S->Count, Count - 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&S->Closed, __ATOMIC_SEQ_CST))
    recount(I); /* by index: the owner is not touched */
}

__attribute__((noinline)) void
orc_rt_abi_TokenSlot_releaseSlow(orc_rt_internal_TokenSlot *S) {
  uintptr_t Count = __atomic_load_n(&S->Count, __ATOMIC_RELAXED);
  /* Release store: the holder's work before the token's return (pairs with
   * the closer's seq_cst Count loads). */
  __atomic_store_n(&S->Count, Count - 1, __ATOMIC_RELEASE);
  /* Compiler barrier: Count store before Closed load. Pairs with the
   * membarrier in close. */
  atomic_signal_fence(memory_order_seq_cst);
  if (__atomic_load_n(&S->Closed, __ATOMIC_RELAXED))
    recount(indexOfMySlot(S));
}

__attribute__((noinline, cold)) void
orc_rt_abi_TokenSlot_acquirerSawClosed(orc_rt_internal_TokenSlot *S,
                                       uintptr_t Prev, uint32_t I) {
  /* Undo the +1. Release store, like a release's. */
  __atomic_store_n(&S->Count, Prev, __ATOMIC_RELEASE);
  /* Compiler barrier: keeps the undo before the re-count (the call would
   * too). Pairs with the membarrier in close, as for every Count store: the
   * undo either precedes the barrier membarrier puts in this thread (close's
   * own count sees it) or the re-count below, which sees it under Lock. */
  atomic_signal_fence(memory_order_seq_cst);
  recount(I);
}

__attribute__((noinline, cold)) void
orc_rt_abi_TokenSlot_releaserSawClosed(orc_rt_internal_TokenSlot *S) {
  recount(indexOfMySlot(S));
}

/*---- The closer's side ----*/

static void fenceAllThreads(void) {
  if (sysMembarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
    fprintf(stderr, "orc-rt-c: fatal: membarrier failed after registration "
                    "succeeded\n");
    abort();
  }
}

void orc_rt_internal_TokenCounter_close(const orc_rt_internal_TokenCounter *C) {
  uint32_t I = C->Index;
  bool Membarrier = !C->Fenced;
  pthread_mutex_lock(&Lock);
  IndexEntry *E = &Entries[I];
  if (E->Closed) {
    pthread_mutex_unlock(&Lock);
    /* Closed already (or being closed by another thread, maybe still before
     * its fence): fence too, so that this close also returns only once every
     * thread's loads see the marks. Pairs as below. */
    if (Membarrier)
      fenceAllThreads();
    return;
  }
  E->Closed = true;
  /* Mark every registered thread's slot. Threads that register later copy
   * E->Closed under Lock (ensureSlot). seq_cst: in fallback mode this store is
   * the closer's half of the store->load pair whose other half is the
   * acquirer's or releaser's seq_cst Count store then Closed load
   * (acquireSlow, releaseSlow, fallback branch). In membarrier mode the
   * membarrier below orders it. */
  for (ThreadRec *T = Threads; T; T = T->Next)
    if (I < T->Cap)
      __atomic_store_n(&T->Slots[I].Closed, 1, __ATOMIC_SEQ_CST);
  if (Membarrier) {
    pthread_mutex_unlock(&Lock);
    /* The asymmetric fence: orders the marks above before this thread's
     * counts below, and puts a full barrier in every other thread's
     * instruction stream. Pairs with the compiler barrier between the Count
     * store and the Closed load in every membarrier-mode token operation
     * (TokenCounter.h: acquireFast, releaseFast, release; here: acquireSlow,
     * releaseSlotSlow, acquirerSawClosed). A token operation whose Count store
     * precedes that barrier is visible to the sums below; one whose Closed
     * load follows it sees the marks (docs/TokenFastPath.md). */
    fenceAllThreads();
    pthread_mutex_lock(&Lock);
    E = &Entries[I]; /* Entries may have been reallocated meanwhile */
  }
  /* From here on a zero sum is final: no token can be granted any more, and
   * every granted token's Count store is visible to anyone holding Lock. */
  E->Armed = true;
  Completion Done = takeCompletionLocked(I);
  pthread_mutex_unlock(&Lock);
  completeOwner(Done);
}
