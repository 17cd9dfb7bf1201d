/*===- unittests/DispatchTest.c - orc-rt-c/Dispatch.h ---------------------===*/
/* Tasks are consumed exactly once (run or cancelled); the queue is FIFO and
 * drained by its owner; the pool runs everything queued before it stops and
 * cancels the rest. */

#include "TestUtil.h"

#include "orc-rt-c/Dispatch.h"

#include <stdatomic.h>

typedef struct {
  atomic_int Runs;
  atomic_int Cancels;
  int Order[16];
  atomic_int NumOrder;
} Counts;

typedef struct {
  Counts *C;
  int Id;
} Item;

static void runItem(void *Ctx) {
  Item *I = Ctx;
  atomic_fetch_add(&I->C->Runs, 1);
  int N = atomic_fetch_add(&I->C->NumOrder, 1);
  if (N < 16)
    I->C->Order[N] = I->Id;
}

static void cancelItem(void *Ctx) {
  Item *I = Ctx;
  atomic_fetch_add(&I->C->Cancels, 1);
}

static void taskRunsOrCancelsExactlyOnce(void **State) {
  (void)State;
  Counts C = {0};
  Item I = {&C, 0};
  orc_rt_Task_run(orc_rt_Task_create(runItem, cancelItem, &I));
  orc_rt_Task_destroy(orc_rt_Task_create(runItem, cancelItem, &I));
  orc_rt_Task_destroy(orc_rt_Task_create(runItem, NULL, &I)); /* no cancel fn */
  assert_int_equal(atomic_load(&C.Runs), 1);
  assert_int_equal(atomic_load(&C.Cancels), 1);
}

static void queueRunsInFifoOrder(void **State) {
  (void)State;
  Counts C = {0};
  Item Items[3] = {{&C, 1}, {&C, 2}, {&C, 3}};
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  for (int I = 0; I != 3; ++I)
    orc_rt_TaskQueue_dispatch(
        orc_rt_Task_create(runItem, cancelItem, &Items[I]), Q);
  assert_int_equal(orc_rt_TaskQueue_size(Q), 3);
  assert_int_equal(atomic_load(&C.Runs), 0); /* nothing runs until drained */
  assert_true(orc_rt_TaskQueue_runOne(Q));
  assert_int_equal(orc_rt_TaskQueue_runAll(Q), 2);
  assert_false(orc_rt_TaskQueue_runOne(Q));
  assert_int_equal(C.Order[0], 1);
  assert_int_equal(C.Order[1], 2);
  assert_int_equal(C.Order[2], 3);
  orc_rt_TaskQueue_destroy(Q);
  assert_int_equal(atomic_load(&C.Cancels), 0);
}

static void queueDestroyCancelsPendingTasks(void **State) {
  (void)State;
  Counts C = {0};
  Item I = {&C, 0};
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_TaskQueue_dispatch(orc_rt_Task_create(runItem, cancelItem, &I), Q);
  orc_rt_TaskQueue_dispatch(orc_rt_Task_create(runItem, cancelItem, &I), Q);
  orc_rt_TaskQueue_destroy(Q);
  assert_int_equal(atomic_load(&C.Runs), 0);
  assert_int_equal(atomic_load(&C.Cancels), 2);
}

typedef struct {
  orc_rt_TaskQueueRef Q;
  Item *Next;
} Chain;

static void dispatchAnother(void *Ctx) {
  Chain *Ch = Ctx;
  orc_rt_TaskQueue_dispatch(orc_rt_Task_create(runItem, cancelItem, Ch->Next),
                            Ch->Q);
}

static void runAllIncludesTasksQueuedMeanwhile(void **State) {
  (void)State;
  Counts C = {0};
  Item I = {&C, 7};
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  Chain Ch = {Q, &I};
  orc_rt_TaskQueue_dispatch(orc_rt_Task_create(dispatchAnother, NULL, &Ch), Q);
  assert_int_equal(orc_rt_TaskQueue_runAll(Q), 2);
  assert_int_equal(atomic_load(&C.Runs), 1);
  orc_rt_TaskQueue_destroy(Q);
}

static void poolRunsEveryTask(void **State) {
  (void)State;
  orc_rt_ThreadPoolRef P;
  assert_null(orc_rt_ThreadPool_create(&P, 3));
  Counts C = {0};
  Item I = {&C, 0};
  for (int N = 0; N != 1000; ++N)
    orc_rt_ThreadPool_dispatch(orc_rt_Task_create(runItem, cancelItem, &I), P);
  orc_rt_ThreadPool_destroy(P); /* runs what is queued, then joins */
  assert_int_equal(atomic_load(&C.Runs), 1000);
  assert_int_equal(atomic_load(&C.Cancels), 0);
}

typedef struct {
  Latch Started, Release;
} Blocker;

static void blockTask(void *Ctx) {
  Blocker *B = Ctx;
  latch_set(&B->Started);
  latch_wait(&B->Release);
}

typedef struct {
  orc_rt_ThreadPoolRef P;
  Blocker *B;
} StopCtx;

static void *destroyPool(void *Arg) {
  StopCtx *S = Arg;
  orc_rt_ThreadPool_destroy(S->P);
  return NULL;
}

static void poolStopRunsQueuedAndCancelsLaterTasks(void **State) {
  (void)State;
  orc_rt_ThreadPoolRef P;
  assert_null(orc_rt_ThreadPool_create(&P, 1));
  Blocker B;
  latch_init(&B.Started);
  latch_init(&B.Release);
  Counts C = {0};
  Item I = {&C, 0};
  /* The single worker is held inside the first task while two
   * more are queued. */
  orc_rt_ThreadPool_dispatch(orc_rt_Task_create(blockTask, NULL, &B), P);
  latch_wait(&B.Started);
  orc_rt_ThreadPool_dispatch(orc_rt_Task_create(runItem, cancelItem, &I), P);
  orc_rt_ThreadPool_dispatch(orc_rt_Task_create(runItem, cancelItem, &I), P);
  StopCtx S = {P, &B};
  pthread_t Stopper;
  pthread_create(&Stopper, NULL, destroyPool, &S);
  /* Dispatch until the stop is visible: that task must be
   * cancelled, not run. */
  for (;;) {
    int Before = atomic_load(&C.Cancels);
    orc_rt_ThreadPool_dispatch(orc_rt_Task_create(runItem, cancelItem, &I), P);
    if (atomic_load(&C.Cancels) > Before)
      break;
    /* Not stopping yet: that one was queued and will run; try again. */
  }
  latch_set(&B.Release);
  pthread_join(Stopper, NULL);
  assert_true(atomic_load(&C.Runs) >= 2); /* the queued ones ran */
  assert_int_equal(atomic_load(&C.Cancels), 1);
  latch_destroy(&B.Started);
  latch_destroy(&B.Release);
}

static void poolNeedsAThread(void **State) {
  (void)State;
  orc_rt_ThreadPoolRef P = NULL;
  orc_rt_ErrorRef E = orc_rt_ThreadPool_create(&P, 0);
  assert_non_null(E);
  assert_null(P);
  orc_rt_Error_consume(E);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(taskRunsOrCancelsExactlyOnce),
      cmocka_unit_test(queueRunsInFifoOrder),
      cmocka_unit_test(queueDestroyCancelsPendingTasks),
      cmocka_unit_test(runAllIncludesTasksQueuedMeanwhile),
      cmocka_unit_test(poolRunsEveryTask),
      cmocka_unit_test(poolStopRunsQueuedAndCancelsLaterTasks),
      cmocka_unit_test(poolNeedsAThread),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
