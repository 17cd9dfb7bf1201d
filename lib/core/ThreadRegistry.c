/*===- lib/core/ThreadRegistry.c - Thread registry and token slow paths ---===*/
/*
 * The registry behind the token fast path (TokenRegistry.h): which threads own
 * slot arrays, which group owns which index, and every slow path (first use of
 * a group on a thread, close, and the re-count after close). One mutex guards
 * all of it; nothing here is on the hot path.
 *
 * The correctness argument lives in docs/TokenFastPath.md; the comments at each
 * barrier below name the partner it pairs with.
 */

#include "core/TaskGroup.h"
#include "core/TokenRegistry.h"
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

_Thread_local orc_rt_internal_ThreadSlots orc_rt_internal_My
    __attribute__((tls_model("initial-exec")));

typedef struct ThreadRec {
  orc_rt_internal_TokenSlot *Slots; /* Cap entries, page aligned, fixed */
  uint32_t Cap;
  struct ThreadRec *Next, **PrevNext;
} ThreadRec;

typedef struct {
  orc_rt_TaskGroupRef G; /* the group owning this index; NULL if free */
  uintptr_t Departed;    /* counts folded in from exited threads */
  uintptr_t Base;        /* the count sum when G got this index */
  bool Closed;           /* close has started: slots are marked */
  bool Armed;            /* close's fence is done: a zero sum is final */
  bool Done;             /* completion has been handed to some thread */
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

static void initOnce(void) {
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

/*---- Counting (all under Lock) ----*/

/* The live-token count of index I, plus Base. seq_cst loads: in fallback mode
 * they are the closer's half of the store->load pairs in acquire and release
 * (TaskGroup.c, acquireSlow/releaseSlow, fallback branch); in membarrier
 * mode the order is given by the membarrier in Registry_close (an acquire load
 * would do; seq_cst costs the same plain mov on x86). */
static uintptr_t sumLocked(uint32_t I) {
  uintptr_t S = Entries[I].Departed;
  for (ThreadRec *T = Threads; T; T = T->Next)
    if (I < T->Cap)
      S += atomic_load_explicit(&T->Slots[I].Count, memory_order_seq_cst);
  return S;
}

/* If group I is armed and has no token out, marks it done and returns it
 * retained: the caller runs its completion once the lock is released. */
static orc_rt_TaskGroupRef takeCompletionLocked(uint32_t I) {
  IndexEntry *E = &Entries[I];
  if (!E->G || !E->Armed || E->Done)
    return NULL;
  uintptr_t Live = sumLocked(I) - E->Base;
  assert((intptr_t)Live >= 0 && "releaseToken without a matching acquire");
  if (Live != 0)
    return NULL;
  E->Done = true;
  /* The group may be on its way out (its last reference dropped, the dropper
   * waiting for Lock to free the index): then nobody can observe completion.
   */
  return orc_rt_internal_TaskGroup_tryRetain(E->G) ? E->G : NULL;
}

static void complete(orc_rt_TaskGroupRef G) {
  if (!G)
    return;
  orc_rt_internal_TaskGroup_runCompletion(G);
  orc_rt_internal_TaskGroup_drop(G);
}

/*---- Indices ----*/

uint32_t orc_rt_internal_Registry_allocIndex(orc_rt_TaskGroupRef G) {
  init();
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
        return NO_INDEX;
      }
      Entries = N;
      CapEntries = NewCap;
    }
    I = NumEntries++;
    memset(&Entries[I], 0, sizeof(Entries[I]));
  }
  /* A reused index keeps the counts its previous group left behind (zero in
   * sum if every token came back); Base absorbs them. Slots still marked
   * closed by the previous group are cleared. Every store into index I by the
   * previous group's token operations happens-before this (they were counted
   * by its completion, or its owner dropped it after they returned, and the
   * index came back through freeIndex under Lock). */
  IndexEntry *E = &Entries[I];
  uintptr_t Base = E->Departed;
  for (ThreadRec *T = Threads; T; T = T->Next)
    if (I < T->Cap) {
      atomic_store_explicit(&T->Slots[I].Closed, 0, memory_order_seq_cst);
      Base += atomic_load_explicit(&T->Slots[I].Count, memory_order_seq_cst);
    }
  E->G = G;
  E->Base = Base;
  E->Closed = E->Armed = E->Done = false;
  pthread_mutex_unlock(&Lock);
  return I;
}

void orc_rt_internal_Registry_freeIndex(uint32_t I) {
  pthread_mutex_lock(&Lock);
  Entries[I].G = NULL;
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
        atomic_load_explicit(&T->Slots[I].Count, memory_order_relaxed);
  *T->PrevNext = T->Next;
  if (T->Next)
    T->Next->PrevNext = T->PrevNext;
  pthread_mutex_unlock(&Lock);
  /* A later destructor that enters a group re-registers this thread (and sets
   * the key again, so it is cleaned up in the next destructor round). */
  orc_rt_internal_My.Slots = NULL;
  orc_rt_internal_My.Cap = 0;
  Self = NULL;
  munmap(T->Slots,
         ORC_RT_C_MAX_TOKEN_SLOTS * sizeof(orc_rt_internal_TokenSlot));
  free(T);
}

bool orc_rt_internal_Registry_ensureSlot(uint32_t I) {
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
    /* Groups already closing are closed for this thread too (Count starts at
     * zero, which Base does not include: the thread was not registered when
     * the groups got their indices). */
    for (uint32_t J = 0; J != NumEntries; ++J)
      if (Entries[J].G && Entries[J].Closed)
        atomic_store_explicit(&T->Slots[J].Closed, 1, memory_order_relaxed);
    T->Next = Threads;
    T->PrevNext = &Threads;
    if (Threads)
      Threads->PrevNext = &T->Next;
    Threads = T;
    Self = T;
    orc_rt_internal_My.Slots = T->Slots;
    orc_rt_internal_My.Cap = T->Cap;
  }
  pthread_mutex_unlock(&Lock);
  return true;
}

/*---- The locked path (no slot could be allocated) ----*/

bool orc_rt_internal_Registry_lockedAcquire(uint32_t I) {
  pthread_mutex_lock(&Lock);
  /* Under Lock, so ordered against Registry_close's marking by the lock. */
  bool Ok = !Entries[I].Closed;
  if (Ok)
    Entries[I].Departed += 1;
  pthread_mutex_unlock(&Lock);
  return Ok;
}

void orc_rt_internal_Registry_lockedRelease(uint32_t I) {
  pthread_mutex_lock(&Lock);
  Entries[I].Departed -= 1;
  orc_rt_TaskGroupRef G = takeCompletionLocked(I);
  pthread_mutex_unlock(&Lock);
  complete(G);
}

/*---- Close and sweep ----*/

static void fenceAllThreads(void) {
  if (sysMembarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
    fprintf(stderr, "orc-rt-c: fatal: membarrier failed after registration "
                    "succeeded\n");
    abort();
  }
}

void orc_rt_internal_Registry_close(uint32_t I, bool Membarrier) {
  pthread_mutex_lock(&Lock);
  IndexEntry *E = &Entries[I];
  if (E->Closed) {
    pthread_mutex_unlock(&Lock);
    /* Closed already (or being closed by another thread, maybe still before
     * its fence): fence too, so that this close also returns only once every
     * thread's loads see the marks. Partner: as below. */
    if (Membarrier)
      fenceAllThreads();
    return;
  }
  E->Closed = true;
  /* Mark every registered thread's slot. Threads that register later copy
   * E->Closed under Lock (ensureSlot). seq_cst: in fallback mode this store is
   * the closer's half of the store->load pair whose other half is the
   * acquirer's seq_cst Count store then Closed load (TaskGroup.c,
   * acquireSlow/releaseSlow, fallback branch). In membarrier mode the
   * membarrier below orders it. */
  for (ThreadRec *T = Threads; T; T = T->Next)
    if (I < T->Cap)
      atomic_store_explicit(&T->Slots[I].Closed, 1, memory_order_seq_cst);
  if (Membarrier) {
    pthread_mutex_unlock(&Lock);
    /* The asymmetric fence. Partner: the compiler barrier between the Count
     * store and the Closed load in every membarrier-mode token operation
     * (TokenFast.h: orc_rt_internal_TokenFast_acquire/releaseAt; TaskGroup.c:
     * releaseToken, acquireSlow, releaseSlow, acquireDenied, releaseAtSlow).
     * Every thread of the process executes a full barrier at some point
     * during this call: a token operation whose Count store precedes that
     * point is visible to the sums below; one whose Closed load follows it
     * sees the marks stored above. */
    fenceAllThreads();
    pthread_mutex_lock(&Lock);
    E = &Entries[I]; /* Entries may have been reallocated meanwhile */
  }
  /* From here on a zero sum is final: no token can be granted any more, and
   * every granted token's Count store is visible to anyone holding Lock. */
  E->Armed = true;
  orc_rt_TaskGroupRef G = takeCompletionLocked(I);
  pthread_mutex_unlock(&Lock);
  complete(G);
}

void orc_rt_internal_Registry_sweep(uint32_t I) {
  pthread_mutex_lock(&Lock);
  orc_rt_TaskGroupRef G = takeCompletionLocked(I);
  pthread_mutex_unlock(&Lock);
  complete(G);
}
