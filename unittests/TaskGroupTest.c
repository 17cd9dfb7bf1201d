/*===- unittests/TaskGroupTest.c - orc-rt-c/TaskGroup.h -------------------===*/
/* The token rules: acquire until close, denial after close (nested too),
 * completion exactly once after close and the last release, callbacks in
 * order, token sources. */

#include "TestUtil.h"

#include "orc-rt-c/TaskGroup.h"

#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  int Calls;
  pthread_t Thread;
  int Order[8];
  int NumOrder;
} Record;

static void recordCall(void *Ctx) {
  Record *R = Ctx;
  ++R->Calls;
  R->Thread = pthread_self();
}

static void closeWithNoTokensCompletesAtOnce(void **State) {
  (void)State;
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  Record R = {0};
  assert_null(orc_rt_TaskGroup_addOnComplete(G, recordCall, &R));
  assert_false(orc_rt_TaskGroup_isClosed(G));
  orc_rt_TaskGroup_close(G);
  assert_int_equal(R.Calls, 1);
  assert_true(orc_rt_TaskGroup_isClosed(G));
  assert_true(orc_rt_TaskGroup_isComplete(G));
  orc_rt_TaskGroup_destroy(G);
}

static void completionWaitsForTheLastRelease(void **State) {
  (void)State;
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  Record R = {0};
  assert_null(orc_rt_TaskGroup_addOnComplete(G, recordCall, &R));
  assert_true(orc_rt_TaskGroup_acquireToken(G));
  assert_true(orc_rt_TaskGroup_acquireToken(G));
  orc_rt_TaskGroup_close(G);
  assert_int_equal(R.Calls, 0);
  assert_false(orc_rt_TaskGroup_isComplete(G));
  orc_rt_TaskGroup_releaseToken(G);
  assert_int_equal(R.Calls, 0);
  orc_rt_TaskGroup_releaseToken(G);
  assert_int_equal(R.Calls, 1);
  assert_true(orc_rt_TaskGroup_isComplete(G));
  orc_rt_TaskGroup_destroy(G);
}

static void acquireAfterCloseIsDeniedEvenWhenNested(void **State) {
  (void)State;
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  assert_true(orc_rt_TaskGroup_acquireToken(G)); /* the outer, live token */
  orc_rt_TaskGroup_close(G);
  assert_false(orc_rt_TaskGroup_acquireToken(G)); /* nested: denied */
  orc_rt_TaskGroup_releaseToken(G);
  assert_false(orc_rt_TaskGroup_acquireToken(G));
  orc_rt_TaskGroup_destroy(G);
}

static void closeIsIdempotentAndCallbacksRunOnce(void **State) {
  (void)State;
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  Record R = {0};
  assert_null(orc_rt_TaskGroup_addOnComplete(G, recordCall, &R));
  orc_rt_TaskGroup_close(G);
  orc_rt_TaskGroup_close(G);
  assert_int_equal(R.Calls, 1);
  orc_rt_TaskGroup_destroy(G);
}

static void callbackAddedAfterCompletionRunsAtOnce(void **State) {
  (void)State;
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  orc_rt_TaskGroup_close(G);
  Record R = {0};
  assert_null(orc_rt_TaskGroup_addOnComplete(G, recordCall, &R));
  assert_int_equal(R.Calls, 1);
  orc_rt_TaskGroup_destroy(G);
}

typedef struct {
  Record *R;
  int Id;
  orc_rt_TaskGroupRef G; /* if set, registers Id+10 from inside the callback */
} OrderCtx;

static void recordOrder(void *Ctx) {
  OrderCtx *O = Ctx;
  O->R->Order[O->R->NumOrder++] = O->Id;
  if (O->G) {
    static OrderCtx Late;
    Late = (OrderCtx){O->R, O->Id + 10, NULL};
    assert_null(orc_rt_TaskGroup_addOnComplete(O->G, recordOrder, &Late));
  }
}

static void callbacksRunInRegistrationOrder(void **State) {
  (void)State;
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  Record R = {0};
  OrderCtx C1 = {&R, 1, G}, C2 = {&R, 2, NULL}, C3 = {&R, 3, NULL};
  assert_null(orc_rt_TaskGroup_addOnComplete(G, recordOrder, &C1));
  assert_null(orc_rt_TaskGroup_addOnComplete(G, recordOrder, &C2));
  assert_null(orc_rt_TaskGroup_addOnComplete(G, recordOrder, &C3));
  orc_rt_TaskGroup_close(G);
  /* 11 was registered by callback 1 while completion ran: it runs
   * after the others. */
  assert_int_equal(R.NumOrder, 4);
  assert_int_equal(R.Order[0], 1);
  assert_int_equal(R.Order[1], 2);
  assert_int_equal(R.Order[2], 3);
  assert_int_equal(R.Order[3], 11);
  orc_rt_TaskGroup_destroy(G);
}

static void *releaseOnOtherThread(void *Arg) {
  orc_rt_TaskGroupRef G = Arg;
  orc_rt_TaskGroup_releaseToken(G);
  return NULL;
}

static void tokenReleasedOnAnotherThreadCompletesThere(void **State) {
  (void)State;
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  Record R = {0};
  assert_null(orc_rt_TaskGroup_addOnComplete(G, recordCall, &R));
  assert_true(orc_rt_TaskGroup_acquireToken(G));
  orc_rt_TaskGroup_close(G);
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, releaseOnOtherThread, G), 0);
  pthread_join(T, NULL);
  assert_int_equal(R.Calls, 1);
  assert_true(pthread_equal(R.Thread, T));
  orc_rt_TaskGroup_destroy(G);
}

static void tokenSourceCannotCloseButCanAcquire(void **State) {
  (void)State;
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  orc_rt_TokenSourceRef TS = orc_rt_TaskGroup_getTokenSource(G);
  assert_non_null(TS);
  Record R = {0};
  assert_null(orc_rt_TaskGroup_addOnComplete(G, recordCall, &R));
  assert_true(orc_rt_TokenSource_acquireToken(TS));
  orc_rt_TaskGroup_close(G);
  assert_false(orc_rt_TokenSource_acquireToken(TS));
  assert_int_equal(R.Calls, 0);
  orc_rt_TokenSource_releaseToken(TS);
  assert_int_equal(R.Calls, 1);
  orc_rt_TokenSource_dispose(TS);
  orc_rt_TaskGroup_destroy(G);
}

static void tokenSourceOutlivesTheGroupOwner(void **State) {
  (void)State;
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  orc_rt_TokenSourceRef TS = orc_rt_TaskGroup_getTokenSource(G);
  orc_rt_TaskGroup_close(G);
  orc_rt_TaskGroup_destroy(
      G); /* the owner is gone; the source keeps the group */
  assert_false(orc_rt_TokenSource_acquireToken(TS));
  orc_rt_TokenSource_dispose(TS);
}

/* Many threads acquire and release while the main thread closes: completion
 * runs exactly once, only after every granted token is back, and nothing is
 * granted after close returned. */
typedef struct {
  orc_rt_TaskGroupRef G;
  atomic_int Live;
  atomic_bool Closed;
  atomic_int GrantedAfterClose;
  atomic_int Completions;
  atomic_int LiveAtCompletion;
} RaceCtx;

static void *raceWorker(void *Arg) {
  RaceCtx *C = Arg;
  for (int I = 0; I != 100000; ++I) {
    bool ClosedBefore = atomic_load(&C->Closed);
    if (!orc_rt_TaskGroup_acquireToken(C->G))
      break;
    if (ClosedBefore)
      atomic_fetch_add(&C->GrantedAfterClose, 1);
    atomic_fetch_add(&C->Live, 1);
    atomic_fetch_sub(&C->Live, 1);
    orc_rt_TaskGroup_releaseToken(C->G);
  }
  return NULL;
}

static void onRaceComplete(void *Arg) {
  RaceCtx *C = Arg;
  atomic_fetch_add(&C->Completions, 1);
  atomic_store(&C->LiveAtCompletion, atomic_load(&C->Live));
}

static void concurrentAcquireReleaseAndClose(void **State) {
  (void)State;
  for (int Round = 0; Round != 20; ++Round) {
    RaceCtx C = {.G = orc_rt_TaskGroup_create()};
    assert_null(orc_rt_TaskGroup_addOnComplete(C.G, onRaceComplete, &C));
    pthread_t T[4];
    for (int I = 0; I != 4; ++I)
      pthread_create(&T[I], NULL, raceWorker, &C);
    for (volatile int Spin = 0; Spin < Round * 1000; ++Spin)
      ;
    orc_rt_TaskGroup_close(C.G);
    atomic_store(&C.Closed, true);
    for (int I = 0; I != 4; ++I)
      pthread_join(T[I], NULL);
    assert_int_equal(atomic_load(&C.Completions), 1);
    assert_int_equal(atomic_load(&C.LiveAtCompletion), 0);
    assert_int_equal(atomic_load(&C.GrantedAfterClose), 0);
    orc_rt_TaskGroup_destroy(C.G);
  }
}

/* A fork while another thread makes and frees groups and threads that take
 * tokens (the runtime's token bookkeeping takes a process-wide lock for
 * each): the child, whose only
 * thread is the forking one, makes a group of its own and ends. Before the
 * runtime released that lock around fork, a child forked while the other
 * thread held it waited for it for ever (most of 50 children). A child
 * that does not end within 20 s is killed, and the case fails. */
static atomic_bool StopChurn;

/* A short thread's first token registers it with the runtime, its end
 * unregisters it: both under the lock. */
static void *takeAToken(void *Arg) {
  if (orc_rt_TaskGroup_acquireToken(Arg))
    orc_rt_TaskGroup_releaseToken(Arg);
  return NULL;
}

static void *churnGroups(void *Arg) {
  (void)Arg;
  while (!atomic_load(&StopChurn)) {
    orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
    pthread_t T;
    if (!pthread_create(&T, NULL, takeAToken, G))
      pthread_join(T, NULL);
    orc_rt_TaskGroup_close(G);
    orc_rt_TaskGroup_destroy(G);
  }
  return NULL;
}

static void aChildForkedWhileAnotherThreadMakesGroupsCanMakeOne(void **State) {
  (void)State;
  atomic_store(&StopChurn, false);
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, churnGroups, NULL), 0);
  int Ended = 0;
  for (int K = 0; K < 50; ++K) {
    pid_t P = fork();
    assert_true(P >= 0);
    if (P == 0) {
      orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
      orc_rt_TaskGroup_close(G);
      orc_rt_TaskGroup_destroy(G);
      _exit(G ? 3 : 4);
    }
    int Status = -1;
    for (int Tick = 0; Tick < 2000; ++Tick) {
      if (waitpid(P, &Status, WNOHANG) == P)
        break;
      Status = -1;
      usleep(10000);
    }
    if (Status == -1) { /* hung: the rule is broken, no need for more */
      kill(P, SIGKILL);
      waitpid(P, NULL, 0);
      break;
    }
    Ended += WIFEXITED(Status) && WEXITSTATUS(Status) == 3;
  }
  atomic_store(&StopChurn, true);
  pthread_join(T, NULL);
  assert_int_equal(Ended, 50);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(closeWithNoTokensCompletesAtOnce),
      cmocka_unit_test(completionWaitsForTheLastRelease),
      cmocka_unit_test(acquireAfterCloseIsDeniedEvenWhenNested),
      cmocka_unit_test(closeIsIdempotentAndCallbacksRunOnce),
      cmocka_unit_test(callbackAddedAfterCompletionRunsAtOnce),
      cmocka_unit_test(callbacksRunInRegistrationOrder),
      cmocka_unit_test(tokenReleasedOnAnotherThreadCompletesThere),
      cmocka_unit_test(tokenSourceCannotCloseButCanAcquire),
      cmocka_unit_test(tokenSourceOutlivesTheGroupOwner),
      cmocka_unit_test(concurrentAcquireReleaseAndClose),
      cmocka_unit_test(aChildForkedWhileAnotherThreadMakesGroupsCanMakeOne),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
