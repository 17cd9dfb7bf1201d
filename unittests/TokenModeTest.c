/*===- unittests/TokenModeTest.c - Token fast path, both modes ------------===*/
/* The token implementation has two modes (lib/core/TokenCounter.h): per-thread
 * slots with membarrier on the closing side, and the fallback with a real
 * fence on every token operation. Each test here forces each mode in turn and
 * checks both give the same observable behaviour on the same scenario:
 * concurrent entries with tokens handed between threads and threads exiting
 * while their tokens are still out, more live groups than a thread has slots
 * (the locked path), and group indices being reused. All shared test state is
 * atomic, so TSan can check the membarrier mode here too. */

#include "TestUtil.h"

#include "core/TaskGroup.h"
#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Session.h"
#include "orc-rt-c/TaskGroup.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static const orc_rt_internal_TokenMode Modes[] = {
    orc_rt_internal_TokenMode_Fallback, orc_rt_internal_TokenMode_Membarrier};

static const char *modeName(orc_rt_internal_TokenMode M) {
  return M == orc_rt_internal_TokenMode_Fallback ? "fallback" : "membarrier";
}

/* Forces M for the groups created next; false (skip) if unavailable here. */
static bool useMode(orc_rt_internal_TokenMode M) {
  if (orc_rt_internal_setTokenMode(M) != M) {
    printf("# %s mode unavailable here (membarrier refused); skipped\n",
           modeName(M));
    return false;
  }
  return true;
}

static orc_rt_internal_TokenMode DefaultMode; /* in force at start */

static void restoreDefaultMode(void) {
  orc_rt_internal_setTokenMode(DefaultMode);
}

static void groupsTakeTheModeInForceAtCreation(void **State) {
  (void)State;
  orc_rt_internal_setTokenMode(orc_rt_internal_TokenMode_Fallback);
  orc_rt_TaskGroupRef F = orc_rt_TaskGroup_create();
  assert_int_equal(orc_rt_internal_TokenCounter_getMode(&F->Tokens),
                   orc_rt_internal_TokenMode_Fallback);
  orc_rt_internal_TokenMode Got =
      orc_rt_internal_setTokenMode(orc_rt_internal_TokenMode_Membarrier);
  assert_int_equal(Got == orc_rt_internal_TokenMode_Membarrier,
                   orc_rt_internal_membarrierAvailable());
  orc_rt_TaskGroupRef M = orc_rt_TaskGroup_create();
  assert_int_equal(orc_rt_internal_TokenCounter_getMode(&M->Tokens), Got);
  /* The earlier group keeps its mode. */
  assert_int_equal(orc_rt_internal_TokenCounter_getMode(&F->Tokens),
                   orc_rt_internal_TokenMode_Fallback);
  printf("# membarrier %s\n",
         orc_rt_internal_membarrierAvailable() ? "available" : "unavailable");
  orc_rt_TaskGroup_destroy(F);
  orc_rt_TaskGroup_destroy(M);
  restoreDefaultMode();
}

/*---- The concurrent scenario ----*/

enum { Workers = 4, Iterations = 20000 };

typedef struct {
  orc_rt_TaskGroupRef G;
  atomic_bool CloseReturned;
  atomic_int Outstanding; /* tokens granted and not yet released */
  atomic_int Pending;     /* tokens parked for another thread */
  atomic_long Granted, Denied, Released;
  atomic_int GrantedAfterClose;
  atomic_int NestedGranted;
  atomic_int Completions;
  atomic_int OutstandingAtCompletion;
  atomic_uint Seed;
  atomic_int Finished; /* workers done */
} Scenario;

typedef struct {
  long Granted, Released;
  int GrantedAfterClose, Completions, OutstandingAtCompletion, Complete;
} Outcome;

static void onScenarioComplete(void *Arg) {
  Scenario *Sc = Arg;
  atomic_store(&Sc->OutstandingAtCompletion, atomic_load(&Sc->Outstanding));
  atomic_fetch_add(&Sc->Completions, 1);
}

static void releaseOne(Scenario *Sc) {
  atomic_fetch_sub(&Sc->Outstanding, 1);
  atomic_fetch_add(&Sc->Released, 1);
  orc_rt_TaskGroup_releaseToken(Sc->G);
}

/* Takes a token parked by any thread, if there is one, and releases it here. */
static bool releaseParked(Scenario *Sc) {
  int P = atomic_load(&Sc->Pending);
  while (P > 0)
    if (atomic_compare_exchange_weak(&Sc->Pending, &P, P - 1)) {
      releaseOne(Sc);
      return true;
    }
  return false;
}

static void *scenarioWorker(void *Arg) {
  Scenario *Sc = Arg;
  unsigned R = atomic_fetch_add(&Sc->Seed, 7919) * 2654435761u;
  for (int I = 0; I != Iterations; ++I) {
    R = R * 1103515245u + 12345u;
    bool ClosedBefore = atomic_load(&Sc->CloseReturned);
    if (!orc_rt_TaskGroup_acquireToken(Sc->G)) {
      atomic_fetch_add(&Sc->Denied, 1);
      break;
    }
    atomic_fetch_add(&Sc->Outstanding, 1);
    atomic_fetch_add(&Sc->Granted, 1);
    if (ClosedBefore)
      atomic_fetch_add(&Sc->GrantedAfterClose, 1);
    if ((R >> 8) % 4 == 0) {
      /* Nested entry: may be denied even though we hold a token. */
      if (orc_rt_TaskGroup_acquireToken(Sc->G)) {
        atomic_fetch_add(&Sc->Outstanding, 1);
        atomic_fetch_add(&Sc->Granted, 1);
        atomic_fetch_add(&Sc->NestedGranted, 1);
        if (atomic_load(&Sc->CloseReturned) && ClosedBefore)
          atomic_fetch_add(&Sc->GrantedAfterClose, 1);
        releaseOne(Sc);
      }
    }
    if ((R >> 12) % 3 == 0)
      atomic_fetch_add(&Sc->Pending, 1); /* another thread releases it */
    else
      releaseOne(Sc);
    releaseParked(Sc);
  }
  /* Exit with whatever this thread parked still out: the registry folds this
   * thread's count away and another thread releases those tokens. */
  atomic_fetch_add(&Sc->Finished, 1);
  return NULL;
}

/* Closes once CloseAfter tokens have been granted (or every worker is done). */
static Outcome runScenario(orc_rt_internal_TokenMode M, long CloseAfter) {
  Scenario Sc = {.G = orc_rt_TaskGroup_create()};
  atomic_init(&Sc.Seed, 1);
  assert_int_equal(orc_rt_internal_TokenCounter_getMode(&Sc.G->Tokens), M);
  assert_null(orc_rt_TaskGroup_addOnComplete(Sc.G, onScenarioComplete, &Sc));
  pthread_t T[Workers];
  for (int I = 0; I != Workers; ++I)
    assert_int_equal(pthread_create(&T[I], NULL, scenarioWorker, &Sc), 0);
  while (atomic_load(&Sc.Granted) < CloseAfter &&
         atomic_load(&Sc.Finished) != Workers)
    ;
  orc_rt_TaskGroup_close(Sc.G);
  atomic_store(&Sc.CloseReturned, true);
  /* Nothing is granted after close returned, on any thread. */
  assert_false(orc_rt_TaskGroup_acquireToken(Sc.G));
  for (int I = 0; I != Workers; ++I)
    pthread_join(T[I], NULL);
  /* Every worker is gone; the tokens they parked are released here. */
  int Left = atomic_load(&Sc.Pending);
  assert_int_equal(atomic_load(&Sc.Outstanding), Left);
  if (Left > 0)
    assert_int_equal(atomic_load(&Sc.Completions), 0);
  while (releaseParked(&Sc))
    ;
  Outcome O = {atomic_load(&Sc.Granted),
               atomic_load(&Sc.Released),
               atomic_load(&Sc.GrantedAfterClose),
               atomic_load(&Sc.Completions),
               atomic_load(&Sc.OutstandingAtCompletion),
               orc_rt_TaskGroup_isComplete(Sc.G)};
  orc_rt_TaskGroup_destroy(Sc.G);
  return O;
}

static void bothModesAgreeOnConcurrentEntriesAndClose(void **State) {
  (void)State;
  for (int Round = 0; Round != 12; ++Round) {
    Outcome Out[2];
    bool Ran[2] = {false, false};
    for (int K = 0; K != 2; ++K) {
      if (!useMode(Modes[K]))
        continue;
      Out[K] = runScenario(Modes[K], Round * 6000L);
      Ran[K] = true;
      /* The rules, in each mode. */
      assert_int_equal(Out[K].Granted, Out[K].Released);
      assert_int_equal(Out[K].GrantedAfterClose, 0);
      assert_int_equal(Out[K].Completions, 1);
      assert_int_equal(Out[K].OutstandingAtCompletion, 0);
      assert_true(Out[K].Complete);
    }
    /* And the modes agree on everything that does not depend on timing. */
    if (Ran[0] && Ran[1]) {
      assert_int_equal(Out[0].Completions, Out[1].Completions);
      assert_int_equal(Out[0].GrantedAfterClose, Out[1].GrantedAfterClose);
      assert_int_equal(Out[0].OutstandingAtCompletion,
                       Out[1].OutstandingAtCompletion);
      assert_int_equal(Out[0].Complete, Out[1].Complete);
    }
  }
  restoreDefaultMode();
}

/*---- Many groups, tokens out on threads that have exited ----*/

enum { ManyGroups = 40 };

typedef struct {
  orc_rt_TaskGroupRef *Groups;
  Latch *Go;
  atomic_int *Completions;
} GrowCtx;

static void countCompletion(void *Arg) {
  atomic_fetch_add((atomic_int *)Arg, 1);
}

/* Acquires one token of every group; the main thread releases them all after
 * this thread has exited (its counts are folded into the registry). */
static void *acquireEverywhere(void *Arg) {
  GrowCtx *C = Arg;
  for (int I = 0; I != ManyGroups; ++I)
    assert_true(orc_rt_TaskGroup_acquireToken(C->Groups[I]));
  return NULL;
}

static void manyGroupsWithTokensOfExitedThreads(void **State) {
  (void)State;
  for (int K = 0; K != 2; ++K) {
    if (!useMode(Modes[K]))
      continue;
    orc_rt_TaskGroupRef G[ManyGroups];
    atomic_int Completions;
    atomic_init(&Completions, 0);
    for (int I = 0; I != ManyGroups; ++I) {
      G[I] = orc_rt_TaskGroup_create();
      assert_non_null(G[I]);
      assert_null(
          orc_rt_TaskGroup_addOnComplete(G[I], countCompletion, &Completions));
    }
    GrowCtx C = {G, NULL, &Completions};
    pthread_t T[2];
    for (int I = 0; I != 2; ++I)
      assert_int_equal(pthread_create(&T[I], NULL, acquireEverywhere, &C), 0);
    for (int I = 0; I != 2; ++I)
      pthread_join(T[I], NULL);
    for (int I = 0; I != ManyGroups; ++I)
      orc_rt_TaskGroup_close(G[I]);
    assert_int_equal(atomic_load(&Completions), 0);
    for (int I = 0; I != ManyGroups; ++I) {
      orc_rt_TaskGroup_releaseToken(G[I]);
      assert_false(orc_rt_TaskGroup_isComplete(G[I]));
      orc_rt_TaskGroup_releaseToken(G[I]);
      assert_true(orc_rt_TaskGroup_isComplete(G[I]));
    }
    assert_int_equal(atomic_load(&Completions), ManyGroups);
    for (int I = 0; I != ManyGroups; ++I)
      orc_rt_TaskGroup_destroy(G[I]);
  }
  restoreDefaultMode();
}

/*---- More live groups than slots per thread ----*/

static void *acquireOnce(void *Arg) {
  assert_true(orc_rt_TaskGroup_acquireToken((orc_rt_TaskGroupRef)Arg));
  return NULL;
}

static void groupsBeyondTheSlotArrayUseTheLockedPath(void **State) {
  (void)State;
  enum { N = ORC_RT_C_MAX_TOKEN_SLOTS + 3 };
  orc_rt_TaskGroupRef *G = malloc(N * sizeof(*G));
  assert_non_null(G);
  for (int K = 0; K != 2; ++K) {
    if (!useMode(Modes[K]))
      continue;
    for (int I = 0; I != N; ++I) {
      G[I] = orc_rt_TaskGroup_create();
      assert_non_null(G[I]);
    }
    /* The last groups have indices past every thread's slot array. */
    for (int I = N - 4; I != N; ++I) {
      atomic_int Completions;
      atomic_init(&Completions, 0);
      assert_null(
          orc_rt_TaskGroup_addOnComplete(G[I], countCompletion, &Completions));
      assert_true(orc_rt_TaskGroup_acquireToken(G[I]));
      pthread_t T;
      assert_int_equal(pthread_create(&T, NULL, acquireOnce, G[I]), 0);
      pthread_join(T, NULL);
      orc_rt_TaskGroup_close(G[I]);
      assert_false(orc_rt_TaskGroup_acquireToken(G[I]));
      orc_rt_TaskGroup_releaseToken(G[I]);
      assert_int_equal(atomic_load(&Completions), 0);
      orc_rt_TaskGroup_releaseToken(G[I]);
      assert_int_equal(atomic_load(&Completions), 1);
    }
    for (int I = 0; I != N; ++I)
      orc_rt_TaskGroup_destroy(G[I]);
  }
  free(G);
  restoreDefaultMode();
}

/*---- Close racing the creation of groups (registry tables growing) ----*/

enum { Churn = 3000 };

static void *createMany(void *Arg) {
  orc_rt_TaskGroupRef *G = Arg;
  for (int I = 0; I != Churn; ++I)
    G[I] = orc_rt_TaskGroup_create();
  return NULL;
}

static void closeWhileGroupsAreCreated(void **State) {
  (void)State;
  orc_rt_TaskGroupRef *Made = malloc(Churn * sizeof(*Made));
  assert_non_null(Made);
  for (int K = 0; K != 2; ++K) {
    if (!useMode(Modes[K]))
      continue;
    pthread_t T;
    assert_int_equal(pthread_create(&T, NULL, createMany, Made), 0);
    for (int I = 0; I != 200; ++I) {
      orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
      atomic_int Completions;
      atomic_init(&Completions, 0);
      assert_null(
          orc_rt_TaskGroup_addOnComplete(G, countCompletion, &Completions));
      assert_true(orc_rt_TaskGroup_acquireToken(G));
      orc_rt_TaskGroup_close(G);
      assert_int_equal(atomic_load(&Completions), 0);
      orc_rt_TaskGroup_releaseToken(G);
      assert_int_equal(atomic_load(&Completions), 1);
      orc_rt_TaskGroup_destroy(G);
    }
    pthread_join(T, NULL);
    for (int I = 0; I != Churn; ++I) {
      assert_non_null(Made[I]);
      orc_rt_TaskGroup_destroy(Made[I]);
    }
  }
  free(Made);
  restoreDefaultMode();
}

/*---- Index reuse: a new group never inherits an old group's state ----*/

static void reusedIndicesStartOpenAndEmpty(void **State) {
  (void)State;
  for (int K = 0; K != 2; ++K) {
    if (!useMode(Modes[K]))
      continue;
    for (int Round = 0; Round != 50; ++Round) {
      /* Leave the index with a "negative" slot on this thread and a positive
       * one on another, and closed marks in the slots. */
      orc_rt_TaskGroupRef Old = orc_rt_TaskGroup_create();
      assert_true(orc_rt_TaskGroup_acquireToken(Old));
      orc_rt_TaskGroup_close(Old);
      orc_rt_TaskGroup_releaseToken(Old);
      assert_true(orc_rt_TaskGroup_isComplete(Old));
      orc_rt_TaskGroup_destroy(Old);
      orc_rt_TaskGroupRef New = orc_rt_TaskGroup_create();
      atomic_int Completions;
      atomic_init(&Completions, 0);
      assert_null(
          orc_rt_TaskGroup_addOnComplete(New, countCompletion, &Completions));
      assert_true(orc_rt_TaskGroup_acquireToken(New));
      orc_rt_TaskGroup_close(New);
      assert_int_equal(atomic_load(&Completions), 0);
      orc_rt_TaskGroup_releaseToken(New);
      assert_int_equal(atomic_load(&Completions), 1);
      orc_rt_TaskGroup_destroy(New);
    }
  }
  restoreDefaultMode();
}

/*---- Several sessions per thread, both modes at once ----*/

static void bump(void *Ctx) { atomic_fetch_add((atomic_int *)Ctx, 1); }

static void runNow(orc_rt_TaskRef T, void *Ctx) {
  (void)Ctx;
  orc_rt_Task_run(T);
}

static void sessionsOfBothModesOnOneThread(void **State) {
  (void)State;
  orc_rt_SessionRef S[2] = {NULL, NULL};
  for (int K = 0; K != 2; ++K) {
    orc_rt_internal_setTokenMode(Modes[K]);
    assert_null(orc_rt_Session_create(&S[K], runNow, NULL, NULL, NULL));
  }
  restoreDefaultMode();
  atomic_int Calls;
  atomic_init(&Calls, 0);
  for (int I = 0; I != 1000; ++I)
    for (int K = 0; K != 2; ++K)
      assert_true(orc_rt_Session_callManagedCode(S[K], bump, &Calls));
  assert_int_equal(atomic_load(&Calls), 2000);
  assert_null(orc_rt_Session_shutdown(S[0], NULL, NULL));
  assert_false(orc_rt_Session_callManagedCode(S[0], bump, &Calls));
  assert_true(orc_rt_Session_callManagedCode(S[1], bump, &Calls));
  orc_rt_Session_destroy(S[0]);
  orc_rt_Session_destroy(S[1]);
}

int main(void) {
  DefaultMode = orc_rt_internal_getTokenMode();
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(groupsTakeTheModeInForceAtCreation),
      cmocka_unit_test(bothModesAgreeOnConcurrentEntriesAndClose),
      cmocka_unit_test(manyGroupsWithTokensOfExitedThreads),
      cmocka_unit_test(groupsBeyondTheSlotArrayUseTheLockedPath),
      cmocka_unit_test(closeWhileGroupsAreCreated),
      cmocka_unit_test(reusedIndicesStartOpenAndEmpty),
      cmocka_unit_test(sessionsOfBothModesOnOneThread),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
