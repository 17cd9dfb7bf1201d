/*===- unittests/NestedGroupTest.c - orc-rt-c/NestedGroup.h ---------------===*/
/* A nested group holds one parent token from creation until it completes: the
 * parent cannot complete before the nested group's OnComplete has returned;
 * creation is denied once the parent is closed; the nested group's own tokens
 * follow the ordinary rules; and under a Session, shutdown's drain (and so
 * onShutdown) waits for the nested group. */

#include "TestUtil.h"

#include "orc-rt-c/NestedGroup.h"
#include "orc-rt-c/Session.h"

#include <stdatomic.h>
#include <string.h>

typedef struct {
  orc_rt_TaskGroupRef Parent;
  int Calls;
  bool ParentCompleteAtCall; /* was the parent complete when OnComplete ran? */
  int Order[4];
  int NumOrder;
} Seen;

static void nestedDone(void *Ctx) {
  Seen *S = Ctx;
  ++S->Calls;
  S->ParentCompleteAtCall = orc_rt_TaskGroup_isComplete(S->Parent);
  S->Order[S->NumOrder++] = 1;
}

static void parentDone(void *Ctx) {
  Seen *S = Ctx;
  S->Order[S->NumOrder++] = 2;
}

static void parentCompletesOnlyAfterTheNestedOnComplete(void **State) {
  (void)State;
  Seen S = {.Parent = orc_rt_TaskGroup_create()};
  assert_null(orc_rt_TaskGroup_addOnComplete(S.Parent, parentDone, &S));
  orc_rt_TaskGroupRef N;
  assert_null(orc_rt_TaskGroup_createNested(
      &N, orc_rt_TaskGroup_getTokenSource(S.Parent), nestedDone, &S));
  assert_true(orc_rt_TaskGroup_acquireToken(N)); /* a live frame in it */
  orc_rt_TaskGroup_close(S.Parent);
  assert_false(orc_rt_TaskGroup_isComplete(S.Parent)); /* held by N */
  orc_rt_TaskGroup_close(N);
  assert_int_equal(S.Calls, 0); /* the frame is still live */
  assert_false(orc_rt_TaskGroup_isComplete(S.Parent));
  orc_rt_TaskGroup_releaseToken(N);
  assert_int_equal(S.Calls, 1);
  assert_false(S.ParentCompleteAtCall);
  assert_true(orc_rt_TaskGroup_isComplete(S.Parent));
  assert_int_equal(S.NumOrder, 2);
  assert_int_equal(S.Order[0], 1);
  assert_int_equal(S.Order[1], 2);
  orc_rt_TaskGroup_destroy(N);
  orc_rt_TaskGroup_destroy(S.Parent);
}

static void creationIsDeniedOnceTheParentIsClosed(void **State) {
  (void)State;
  orc_rt_TaskGroupRef P = orc_rt_TaskGroup_create();
  orc_rt_TaskGroup_close(P);
  Seen S = {.Parent = P};
  orc_rt_TaskGroupRef N = NULL;
  orc_rt_ErrorRef Err = orc_rt_TaskGroup_createNested(
      &N, orc_rt_TaskGroup_getTokenSource(P), nestedDone, &S);
  assert_non_null(Err);
  assert_non_null(
      strstr(orc_rt_Error_getMessage(Err), "parent group is closed"));
  orc_rt_Error_consume(Err);
  assert_null(N);
  assert_int_equal(S.Calls, 0);
  assert_true(orc_rt_TaskGroup_isComplete(P)); /* no parent token kept */
  orc_rt_TaskGroup_destroy(P);
}

static void nestedTokensAreDeniedAfterCloseEvenWhenNested(void **State) {
  (void)State;
  orc_rt_TaskGroupRef P = orc_rt_TaskGroup_create();
  Seen S = {.Parent = P};
  orc_rt_TaskGroupRef N;
  assert_null(orc_rt_TaskGroup_createNested(
      &N, orc_rt_TaskGroup_getTokenSource(P), nestedDone, &S));
  assert_true(orc_rt_TaskGroup_acquireToken(N));
  orc_rt_TaskGroup_close(N);
  assert_false(orc_rt_TaskGroup_acquireToken(N)); /* nested: denied */
  assert_true(orc_rt_TaskGroup_acquireToken(P));  /* the parent is open */
  orc_rt_TaskGroup_releaseToken(P);
  orc_rt_TaskGroup_releaseToken(N);
  assert_int_equal(S.Calls, 1);
  orc_rt_TaskGroup_close(P);
  assert_true(orc_rt_TaskGroup_isComplete(P));
  orc_rt_TaskGroup_destroy(N);
  orc_rt_TaskGroup_destroy(P);
}

/* Threads enter the nested group while the owner closes it, then the parent:
 * OnComplete runs exactly once, after every granted nested token is back, and
 * the parent completes exactly once, after it. */
typedef struct {
  orc_rt_TaskGroupRef P, N;
  atomic_int Live;
  atomic_int NestedDone, ParentDone;
  atomic_int LiveAtNestedDone;
  atomic_int ParentBeforeNested;
} Race;

static void *raceWorker(void *Arg) {
  Race *R = Arg;
  for (int I = 0; I != 50000; ++I) {
    if (!orc_rt_TaskGroup_acquireToken(R->N))
      break;
    atomic_fetch_add(&R->Live, 1);
    atomic_fetch_sub(&R->Live, 1);
    orc_rt_TaskGroup_releaseToken(R->N);
  }
  return NULL;
}

static void raceNestedDone(void *Arg) {
  Race *R = Arg;
  atomic_store(&R->LiveAtNestedDone, atomic_load(&R->Live));
  atomic_fetch_add(&R->NestedDone, 1);
}

static void raceParentDone(void *Arg) {
  Race *R = Arg;
  if (atomic_load(&R->NestedDone) != 1)
    atomic_fetch_add(&R->ParentBeforeNested, 1);
  atomic_fetch_add(&R->ParentDone, 1);
}

static void concurrentEntriesCloseAndParentCompletion(void **State) {
  (void)State;
  for (int Round = 0; Round != 10; ++Round) {
    Race R = {.P = orc_rt_TaskGroup_create()};
    assert_null(orc_rt_TaskGroup_addOnComplete(R.P, raceParentDone, &R));
    assert_null(orc_rt_TaskGroup_createNested(
        &R.N, orc_rt_TaskGroup_getTokenSource(R.P), raceNestedDone, &R));
    pthread_t T[3];
    for (int I = 0; I != 3; ++I)
      pthread_create(&T[I], NULL, raceWorker, &R);
    for (volatile int Spin = 0; Spin < Round * 2000; ++Spin)
      ;
    orc_rt_TaskGroup_close(R.P); /* the parent first: it must still wait */
    orc_rt_TaskGroup_close(R.N);
    for (int I = 0; I != 3; ++I)
      pthread_join(T[I], NULL);
    assert_int_equal(atomic_load(&R.NestedDone), 1);
    assert_int_equal(atomic_load(&R.LiveAtNestedDone), 0);
    assert_int_equal(atomic_load(&R.ParentDone), 1);
    assert_int_equal(atomic_load(&R.ParentBeforeNested), 0);
    orc_rt_TaskGroup_destroy(R.N);
    orc_rt_TaskGroup_destroy(R.P);
  }
}

/* Under a Session: shutdown's drain waits for a nested group made from the
 * managed-code token source; onShutdown runs only after it completed. */
typedef struct {
  atomic_int NestedDone;
  atomic_int ShutdownDone;
  atomic_int ShutdownBeforeNested;
} SessionSeen;

static void sessNestedDone(void *Ctx) {
  SessionSeen *S = Ctx;
  atomic_fetch_add(&S->NestedDone, 1);
}

static void sessOnShutdown(void *Ctx) {
  SessionSeen *S = Ctx;
  if (!atomic_load(&S->NestedDone))
    atomic_fetch_add(&S->ShutdownBeforeNested, 1);
  atomic_fetch_add(&S->ShutdownDone, 1);
}

static void sessionShutdownWaitsForTheNestedGroup(void **State) {
  (void)State;
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  assert_null(
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL));
  SessionSeen Seen = {0};
  orc_rt_TaskGroupRef N;
  assert_null(orc_rt_TaskGroup_createNested(
      &N, orc_rt_Session_managedCodeTokenSource(S), sessNestedDone, &Seen));
  assert_true(orc_rt_TaskGroup_acquireToken(N));
  assert_null(orc_rt_Session_shutdown(S, sessOnShutdown, &Seen));
  assert_int_equal(orc_rt_Session_getState(S),
                   orc_rt_SessionState_ShuttingDown);
  orc_rt_TaskGroup_close(N);
  assert_int_equal(atomic_load(&Seen.ShutdownDone), 0); /* a frame is live */
  orc_rt_TaskGroup_releaseToken(N);
  assert_int_equal(atomic_load(&Seen.NestedDone), 1);
  assert_int_equal(atomic_load(&Seen.ShutdownDone), 1);
  assert_int_equal(atomic_load(&Seen.ShutdownBeforeNested), 0);
  assert_int_equal(orc_rt_Session_getState(S), orc_rt_SessionState_Shutdown);
  /* And once shutdown was requested, no new nested group is made. */
  orc_rt_TaskGroupRef Late = NULL;
  orc_rt_ErrorRef Err = orc_rt_TaskGroup_createNested(
      &Late, orc_rt_Session_managedCodeTokenSource(S), NULL, NULL);
  assert_non_null(Err);
  orc_rt_Error_consume(Err);
  orc_rt_TaskGroup_destroy(N);
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(parentCompletesOnlyAfterTheNestedOnComplete),
      cmocka_unit_test(creationIsDeniedOnceTheParentIsClosed),
      cmocka_unit_test(nestedTokensAreDeniedAfterCloseEvenWhenNested),
      cmocka_unit_test(concurrentEntriesCloseAndParentCompletion),
      cmocka_unit_test(sessionShutdownWaitsForTheNestedGroup),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
