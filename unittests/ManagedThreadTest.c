/*===- unittests/ManagedThreadTest.c - orc-rt-c/ManagedThread.h -----------===*/
/* A managed thread's body runs under a token of its Session (so it delays
 * shutdown), is denied once shutdown has been requested, and the libc-shaped
 * entry points fall back to plain threads outside managed code. */

#include "TestUtil.h"

#include "orc-rt-c/ManagedThread.h"

#include <threads.h>

/* Joined through the runtime's thrd_join, which ThreadSanitizer can see
 * (glibc's thrd_join bypasses its interceptors). */
static void joinC11(thrd_t T, int *Result) {
  assert_int_equal(orc_rt_thrd_join(T, Result), thrd_success);
}

typedef struct {
  orc_rt_SessionRef S;
  Latch Entered, Leave;
  bool InManagedCode;
  int Shutdowns;
} Body;

static void *body(void *Arg) {
  Body *B = Arg;
  B->InManagedCode = orc_rt_Session_isInManagedCode(B->S);
  latch_set(&B->Entered);
  latch_wait(&B->Leave);
  return B;
}

static void countShutdown(void *Ctx) { ++((Body *)Ctx)->Shutdowns; }

static orc_rt_SessionRef newSession(orc_rt_TaskQueueRef *Q) {
  *Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  assert_null(
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, *Q, NULL, NULL));
  return S;
}

static void managedThreadBodyDelaysShutdown(void **State) {
  (void)State;
  orc_rt_TaskQueueRef Q;
  Body B = {.S = newSession(&Q)};
  latch_init(&B.Entered);
  latch_init(&B.Leave);
  pthread_t T;
  assert_int_equal(orc_rt_Session_createManagedThread(B.S, &T, NULL, body, &B),
                   0);
  latch_wait(&B.Entered);
  assert_null(orc_rt_Session_shutdown(B.S, countShutdown, &B));
  assert_int_equal(B.Shutdowns, 0); /* the thread's body is live */
  latch_set(&B.Leave);
  void *R;
  pthread_join(T, &R);
  assert_ptr_equal(R, &B);
  assert_true(B.InManagedCode);
  assert_int_equal(B.Shutdowns, 1);
  orc_rt_Session_destroy(B.S);
  orc_rt_TaskQueue_destroy(Q);
}

static void managedThreadStartedAfterShutdownIsDenied(void **State) {
  (void)State;
  orc_rt_TaskQueueRef Q;
  Body B = {.S = newSession(&Q)};
  latch_init(&B.Entered);
  latch_init(&B.Leave);
  assert_null(orc_rt_Session_waitForShutdown(B.S));
  pthread_t T;
  assert_int_equal(orc_rt_Session_createManagedThread(B.S, &T, NULL, body, &B),
                   0);
  void *R;
  pthread_join(T, &R);
  assert_ptr_equal(R, ORC_RT_MANAGED_THREAD_DENIED);
  assert_false(B.Entered.Set);
  orc_rt_Session_destroy(B.S);
  orc_rt_TaskQueue_destroy(Q);
}

/* Inside managed code, orc_rt_pthread_create makes a managed thread
 * of that Session. */
typedef struct {
  Body *B;
  pthread_t T;
  int EC;
} Spawn;

static void spawnFromManagedCode(void *Ctx) {
  Spawn *Sp = Ctx;
  Sp->EC = orc_rt_pthread_create(&Sp->T, NULL, body, Sp->B);
}

static void pthreadCreateFromManagedCodeMakesAManagedThread(void **State) {
  (void)State;
  orc_rt_TaskQueueRef Q;
  Body B = {.S = newSession(&Q)};
  latch_init(&B.Entered);
  latch_init(&B.Leave);
  Spawn Sp = {&B, 0, -1};
  assert_true(orc_rt_Session_callManagedCode(B.S, spawnFromManagedCode, &Sp));
  assert_int_equal(Sp.EC, 0);
  latch_wait(&B.Entered);
  assert_true(B.InManagedCode);
  latch_set(&B.Leave);
  pthread_join(Sp.T, NULL);
  orc_rt_Session_destroy(B.S);
  orc_rt_TaskQueue_destroy(Q);
}

static void pthreadCreateOutsideManagedCodeIsPlain(void **State) {
  (void)State;
  Body B = {.S = NULL};
  latch_init(&B.Entered);
  latch_init(&B.Leave);
  latch_set(&B.Leave);
  pthread_t T;
  assert_int_equal(orc_rt_pthread_create(&T, NULL, body, &B), 0);
  void *R;
  pthread_join(T, &R);
  assert_ptr_equal(R, &B);
  assert_false(B.InManagedCode);
}

static int c11Body(void *Arg) {
  Body *B = Arg;
  B->InManagedCode = orc_rt_Session_isInManagedCode(B->S);
  return 7;
}

typedef struct {
  Body *B;
  thrd_t T;
  int R;
} C11Spawn;

static void spawnC11FromManagedCode(void *Ctx) {
  C11Spawn *Sp = Ctx;
  Sp->R = orc_rt_thrd_create(&Sp->T, c11Body, Sp->B);
}

static void thrdCreateFromManagedCodeMakesAManagedThread(void **State) {
  (void)State;
  orc_rt_TaskQueueRef Q;
  Body B = {.S = newSession(&Q)};
  C11Spawn Sp = {&B, 0, -1};
  assert_true(
      orc_rt_Session_callManagedCode(B.S, spawnC11FromManagedCode, &Sp));
  assert_int_equal(Sp.R, thrd_success);
  int Res = 0;
  joinC11(Sp.T, &Res);
  assert_int_equal(Res, 7);
  assert_true(B.InManagedCode);

  orc_rt_Session_destroy(B.S);
  orc_rt_TaskQueue_destroy(Q);
}

/* Managed code that requests shutdown and then starts threads:
 * they are denied. */
typedef struct {
  orc_rt_SessionRef S;
  pthread_t P;
  thrd_t C;
} LateSpawn;

static void *neverRuns(void *Arg) {
  (void)Arg;
  fail_msg("a thread started after shutdown was requested ran its body");
  return NULL;
}

static int neverRunsC11(void *Arg) {
  neverRuns(Arg);
  return 0;
}

static void shutdownThenSpawn(void *Ctx) {
  LateSpawn *L = Ctx;
  assert_null(orc_rt_Session_shutdown(L->S, NULL, NULL));
  assert_int_equal(orc_rt_pthread_create(&L->P, NULL, neverRuns, NULL), 0);
  assert_int_equal(orc_rt_thrd_create(&L->C, neverRunsC11, NULL), thrd_success);
}

static void threadsStartedAfterShutdownRequestAreDenied(void **State) {
  (void)State;
  orc_rt_TaskQueueRef Q;
  LateSpawn L = {.S = newSession(&Q)};
  assert_true(orc_rt_Session_callManagedCode(L.S, shutdownThenSpawn, &L));
  void *PR;
  pthread_join(L.P, &PR);
  assert_ptr_equal(PR, ORC_RT_MANAGED_THREAD_DENIED);
  int CR = 0;
  joinC11(L.C, &CR);
  assert_int_equal(CR, ORC_RT_MANAGED_THRD_DENIED);
  orc_rt_Session_destroy(L.S);
  orc_rt_TaskQueue_destroy(Q);
}

static void thrdCreateOutsideManagedCodeIsPlain(void **State) {
  (void)State;
  Body B = {.S = NULL};
  thrd_t T;
  assert_int_equal(orc_rt_thrd_create(&T, c11Body, &B), thrd_success);
  int R = 0;
  joinC11(T, &R);
  assert_int_equal(R, 7);
  assert_false(B.InManagedCode);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(managedThreadBodyDelaysShutdown),
      cmocka_unit_test(managedThreadStartedAfterShutdownIsDenied),
      cmocka_unit_test(pthreadCreateFromManagedCodeMakesAManagedThread),
      cmocka_unit_test(pthreadCreateOutsideManagedCodeIsPlain),
      cmocka_unit_test(thrdCreateFromManagedCodeMakesAManagedThread),
      cmocka_unit_test(thrdCreateOutsideManagedCodeIsPlain),
      cmocka_unit_test(threadsStartedAfterShutdownRequestAreDenied),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
