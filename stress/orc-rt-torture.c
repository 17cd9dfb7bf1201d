/*===- stress/orc-rt-torture.c - Seeded torture test of the lifecycle -----===*/
/*
 * Each round builds a Session on a thread pool, starts a random number of
 * threads that enter managed code over and over (nesting, stashing
 * continuations for the dispatcher, starting managed threads, now and then
 * requesting shutdown themselves), and requests shutdown from another thread at
 * a random moment. Checked every round:
 *   - no managed function starts after the drain completed (onShutdown ran);
 *   - onShutdown runs exactly once, with no managed function live;
 *   - every registered callback and every stashed continuation is resolved
 *     exactly once (run or denied);
 *   - the round finishes: a watchdog prints the live state and fails the run
 *     if not.
 * Every run prints its seed; `orc-rt-torture --seed S --rounds 1
 * --first-round R` replays round R of a failing run.
 *
 *   orc-rt-torture [--rounds N] [--seed S] [--first-round R]
 *                  [--timeout SECONDS]
 */

#include "orc-rt-c/orc-rt.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MaxThreads = 8, MaxSpawned = 64, MaxCallbacks = MaxThreads + 1 };

typedef struct Round Round;

typedef struct {
  Round *R;
  int Id;
  unsigned Seed;
  atomic_int Depth; /* managed frames live on this thread, for the watchdog */
  atomic_long Ops;
} Worker;

struct Round {
  orc_rt_SessionRef S;
  unsigned Seed;
  int NumThreads;
  atomic_bool Drained;
  atomic_int Live;
  atomic_int Violations;
  atomic_int OnShutdownCalls;
  atomic_int LiveAtShutdown;
  atomic_long Entries, Denials;
  atomic_long Stashed, Resumed, StashDenied;
  atomic_int CallbackRuns[MaxCallbacks];
  atomic_bool CallbackRegistered[MaxCallbacks];
  pthread_mutex_t SpawnLock;
  pthread_t Spawned[MaxSpawned];
  int NumSpawned;
  Worker W[MaxThreads];
};

static unsigned next(unsigned *Seed) { return (unsigned)rand_r(Seed); }

/*---- Managed code ----*/

static void enterBody(Round *R) {
  if (atomic_load(&R->Drained))
    atomic_fetch_add(&R->Violations, 1);
  atomic_fetch_add(&R->Live, 1);
}

static void leaveBody(Round *R) { atomic_fetch_sub(&R->Live, 1); }

static void continuation(void *Ctx) {
  Round *R = Ctx;
  enterBody(R);
  atomic_fetch_add(&R->Resumed, 1);
  leaveBody(R);
}

static void continuationDenied(void *Ctx) {
  atomic_fetch_add(&((Round *)Ctx)->StashDenied, 1);
}

static void *spawnedBody(void *Arg) {
  Round *R = Arg;
  enterBody(R);
  leaveBody(R);
  return NULL;
}

typedef struct {
  Worker *W;
  int Depth;
} Frame;

static void countCallback(void *Ctx);

static void managedFn(void *Ctx) {
  Frame *F = Ctx;
  Worker *W = F->W;
  Round *R = W->R;
  enterBody(R);
  atomic_fetch_add(&W->Depth, 1);
  switch (next(&W->Seed) % 8) {
  case 0: /* nest */
    if (F->Depth < 3) {
      Frame Inner = {W, F->Depth + 1};
      if (orc_rt_Session_callManagedCode(R->S, managedFn, &Inner))
        atomic_fetch_add(&R->Entries, 1);
      else
        atomic_fetch_add(&R->Denials, 1);
    }
    break;
  case 1: { /* stash a continuation for the dispatcher */
    orc_rt_ErrorRef E = orc_rt_Session_dispatchManagedCall(
        R->S, continuation, continuationDenied, R);
    if (E)
      orc_rt_Error_consume(E);
    else
      atomic_fetch_add(&R->Stashed, 1);
    break;
  }
  case 2: { /* start a managed thread */
    pthread_mutex_lock(&R->SpawnLock);
    if (R->NumSpawned < MaxSpawned &&
        orc_rt_pthread_create(&R->Spawned[R->NumSpawned], NULL, spawnedBody,
                              R) == 0)
      ++R->NumSpawned;
    pthread_mutex_unlock(&R->SpawnLock);
    break;
  }
  case 3: /* rarely, request shutdown from inside managed code */
    if (next(&W->Seed) % 64 == 0)
      orc_rt_Error_consume(orc_rt_Session_shutdown(R->S, NULL, NULL));
    break;
  default:
    break;
  }
  atomic_fetch_sub(&W->Depth, 1);
  leaveBody(R);
}

static void *workerMain(void *Arg) {
  Worker *W = Arg;
  Round *R = W->R;
  unsigned RegisterAt = next(&W->Seed) % 64;
  for (long I = 0;; ++I) {
    if (I == RegisterAt) {
      atomic_store(&R->CallbackRegistered[W->Id], true);
      orc_rt_ErrorRef E = orc_rt_Session_addOnShutdown(R->S, countCallback,
                                                       &R->CallbackRuns[W->Id]);
      if (E) {
        atomic_store(&R->CallbackRegistered[W->Id], false);
        orc_rt_Error_consume(E);
      }
    }
    Frame F = {W, 0};
    atomic_fetch_add(&W->Ops, 1);
    if (!orc_rt_Session_callManagedCode(R->S, managedFn, &F)) {
      atomic_fetch_add(&R->Denials, 1);
      if (I >= RegisterAt)
        break;
      continue;
    }
    atomic_fetch_add(&R->Entries, 1);
  }
  return NULL;
}

static void countCallback(void *Ctx) { atomic_fetch_add((atomic_int *)Ctx, 1); }

static void onShutdown(void *Ctx) {
  Round *R = Ctx;
  atomic_store(&R->LiveAtShutdown, atomic_load(&R->Live));
  atomic_store(&R->Drained, true);
  atomic_fetch_add(&R->OnShutdownCalls, 1);
}

static const orc_rt_ServiceVTable Service = {NULL, onShutdown};

/*---- Watchdog ----*/

typedef struct {
  pthread_mutex_t Lock;
  pthread_cond_t Done;
  bool Finished;
  Round *R;
  int TimeoutSec;
  unsigned RoundNo;
} Watchdog;

static void *watchdogMain(void *Arg) {
  Watchdog *WD = Arg;
  struct timespec Deadline;
  clock_gettime(CLOCK_REALTIME, &Deadline);
  Deadline.tv_sec += WD->TimeoutSec;
  pthread_mutex_lock(&WD->Lock);
  int EC = 0;
  while (!WD->Finished && EC != ETIMEDOUT)
    EC = pthread_cond_timedwait(&WD->Done, &WD->Lock, &Deadline);
  bool Hung = !WD->Finished;
  pthread_mutex_unlock(&WD->Lock);
  if (!Hung)
    return NULL;
  Round *R = WD->R;
  fprintf(stderr,
          "orc-rt-torture: error: round %u (seed %u) did not finish in %d s\n"
          "  session state %d, managed functions live %d, entries %ld, denials "
          "%ld\n",
          WD->RoundNo, R->Seed, WD->TimeoutSec,
          (int)orc_rt_Session_getState(R->S), atomic_load(&R->Live),
          atomic_load(&R->Entries), atomic_load(&R->Denials));
  for (int I = 0; I != R->NumThreads; ++I)
    fprintf(stderr,
            "  thread %d: %d managed frames live, %ld entries attempted\n", I,
            atomic_load(&R->W[I].Depth), atomic_load(&R->W[I].Ops));
  fflush(stderr);
  _Exit(2); /* a hang cannot be unwound: fail the whole run */
}

/*---- One round ----*/

static int fail(Round *R, unsigned RoundNo, const char *What) {
  fprintf(stderr, "orc-rt-torture: error: round %u (seed %u): %s\n", RoundNo,
          R->Seed, What);
  return 1;
}

static int runRound(unsigned Seed, unsigned RoundNo, int TimeoutSec,
                    long *Entries, long *Denials) {
  Round *R = calloc(1, sizeof(*R));
  if (!R)
    return fail(R, RoundNo, "out of memory");
  R->Seed = Seed;
  unsigned S = Seed;
  R->NumThreads = 2 + (int)(next(&S) % (MaxThreads - 1));
  pthread_mutex_init(&R->SpawnLock, NULL);

  orc_rt_ThreadPoolRef Pool;
  orc_rt_ErrorRef E = orc_rt_ThreadPool_create(&Pool, 2);
  if (!E)
    E = orc_rt_Session_create(&R->S, orc_rt_ThreadPool_dispatch, Pool, NULL,
                              NULL);
  if (!E)
    E = orc_rt_Session_addService(R->S, &Service, R);
  if (E) {
    fprintf(stderr, "orc-rt-torture: error: %s\n", orc_rt_Error_getMessage(E));
    orc_rt_Error_consume(E);
    return 1;
  }

  Watchdog WD = {PTHREAD_MUTEX_INITIALIZER,
                 PTHREAD_COND_INITIALIZER,
                 false,
                 R,
                 TimeoutSec,
                 RoundNo};
  pthread_t WDThread;
  pthread_create(&WDThread, NULL, watchdogMain, &WD);

  pthread_t T[MaxThreads];
  for (int I = 0; I != R->NumThreads; ++I) {
    R->W[I] = (Worker){.R = R, .Id = I, .Seed = next(&S)};
    pthread_create(&T[I], NULL, workerMain, &R->W[I]);
  }
  /* Request shutdown after a random delay of up to 2 ms. */
  struct timespec Delay = {0, (long)(next(&S) % 2000) * 1000};
  nanosleep(&Delay, NULL);
  atomic_store(&R->CallbackRegistered[MaxThreads], true);
  E = orc_rt_Session_shutdown(R->S, countCallback,
                              &R->CallbackRuns[MaxThreads]);
  if (E) {
    atomic_store(&R->CallbackRegistered[MaxThreads], false);
    orc_rt_Error_consume(E);
  }
  for (int I = 0; I != R->NumThreads; ++I)
    pthread_join(T[I], NULL);
  E = orc_rt_Session_waitForShutdown(R->S);
  orc_rt_Error_consume(E);
  for (int I = 0; I != R->NumSpawned; ++I)
    pthread_join(R->Spawned[I], NULL);
  orc_rt_Session_destroy(R->S);
  orc_rt_ThreadPool_destroy(
      Pool); /* runs (and so denies) continuations still queued */

  pthread_mutex_lock(&WD.Lock);
  WD.Finished = true;
  pthread_cond_signal(&WD.Done);
  pthread_mutex_unlock(&WD.Lock);
  pthread_join(WDThread, NULL);

  int Failed = 0;
  char Msg[160];
  if (atomic_load(&R->Violations)) {
    snprintf(Msg, sizeof(Msg), "%d managed functions started after the drain",
             atomic_load(&R->Violations));
    Failed |= fail(R, RoundNo, Msg);
  }
  if (atomic_load(&R->OnShutdownCalls) != 1) {
    snprintf(Msg, sizeof(Msg), "onShutdown ran %d times",
             atomic_load(&R->OnShutdownCalls));
    Failed |= fail(R, RoundNo, Msg);
  }
  if (atomic_load(&R->LiveAtShutdown) != 0)
    Failed |= fail(R, RoundNo, "onShutdown ran while managed code was live");
  if (atomic_load(&R->Resumed) + atomic_load(&R->StashDenied) !=
      atomic_load(&R->Stashed))
    Failed |=
        fail(R, RoundNo, "a stashed continuation was lost or resolved twice");
  for (int I = 0; I != MaxCallbacks; ++I) {
    int Want = atomic_load(&R->CallbackRegistered[I]) ? 1 : 0;
    if (atomic_load(&R->CallbackRuns[I]) != Want) {
      snprintf(Msg, sizeof(Msg), "callback %d ran %d times, expected %d", I,
               atomic_load(&R->CallbackRuns[I]), Want);
      Failed |= fail(R, RoundNo, Msg);
    }
  }
  *Entries += atomic_load(&R->Entries);
  *Denials += atomic_load(&R->Denials);
  pthread_mutex_destroy(&R->SpawnLock);
  free(R);
  return Failed;
}

static int usage(const char *Msg) {
  fprintf(stderr,
          "orc-rt-torture: error: %s\n"
          "usage: orc-rt-torture [--rounds N] [--seed S] [--first-round R] "
          "[--timeout SECONDS]\n",
          Msg);
  return 1;
}

static bool parseNum(const char *S, unsigned long *Out) {
  char *End;
  errno = 0;
  *Out = strtoul(S, &End, 0);
  return *S && !*End && !errno;
}

int main(int argc, char **argv) {
  unsigned long Rounds = 200, Seed = (unsigned long)time(NULL), First = 0,
                Timeout = 30;
  for (int I = 1; I < argc; ++I) {
    unsigned long *Dst = !strcmp(argv[I], "--rounds")        ? &Rounds
                         : !strcmp(argv[I], "--seed")        ? &Seed
                         : !strcmp(argv[I], "--first-round") ? &First
                         : !strcmp(argv[I], "--timeout")     ? &Timeout
                                                             : NULL;
    if (!Dst)
      return usage("unknown option");
    if (I + 1 == argc || !parseNum(argv[I + 1], Dst))
      return usage("option needs a number");
    ++I;
  }
  printf("orc-rt-torture: seed %lu, rounds %lu..%lu\n", Seed, First,
         First + Rounds - 1);
  fflush(stdout);
  long Entries = 0, Denials = 0;
  int Failures = 0;
  for (unsigned long N = First; N != First + Rounds; ++N)
    Failures += runRound((unsigned)(Seed * 2654435761u + N), (unsigned)N,
                         (int)Timeout, &Entries, &Denials);
  printf("orc-rt-torture: %lu rounds, %ld entries, %ld denials, %d failed "
         "rounds\n",
         Rounds, Entries, Denials, Failures);
  return Failures ? 1 : 0;
}
