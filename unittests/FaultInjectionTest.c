/*===- unittests/FaultInjectionTest.c - Failures come back as errors ------===*/
/* Drives the counter-driven injector in lib/support/FaultInjection.h: every
 * allocation (and thread creation) the runtime makes is failed in turn. Each
 * failure must come back as an error (never a crash), every callback that was
 * registered must still run exactly once, the Session must still shut down, and
 * nothing may leak (the ASan build's leak checker fails the run otherwise). */

#include "TestUtil.h"

#include "orc-rt-c/orc-rt.h"
#include "support/FaultInjection.h"

#include <errno.h>
#include <string.h>

typedef struct {
  int Runs;
  bool Registered;
} Cb;

typedef struct {
  Cb Detach, Shutdown, ShutdownCb, Deferred;
  int DeferredDenied;
  int SvcDetach, SvcShutdown;
  bool ServiceAdded;
  int Managed;
  int Errors;
} Counters;

static void countCb(void *Ctx) { ++((Cb *)Ctx)->Runs; }
static void svcDetach(void *Ctx) { ++((Counters *)Ctx)->SvcDetach; }
static void svcShutdown(void *Ctx) { ++((Counters *)Ctx)->SvcShutdown; }
static const orc_rt_ServiceVTable Svc = {svcDetach, svcShutdown};
static void managed(void *Ctx) { ++((Counters *)Ctx)->Managed; }
static void deferred(void *Ctx) { ++((Counters *)Ctx)->Deferred.Runs; }
static void deferredDenied(void *Ctx) { ++((Counters *)Ctx)->DeferredDenied; }

static void reporter(orc_rt_ErrorRef E, void *Ctx) {
  ++((Counters *)Ctx)->Errors;
  orc_rt_Error_consume(E);
}

/* Registers Fn unless the registration fails; a failed one must never run. */
static void reg(orc_rt_ErrorRef E, Cb *C) {
  C->Registered = !E;
  orc_rt_Error_consume(E);
}

static void checkCb(const Cb *C) {
  assert_int_equal(C->Runs, C->Registered ? 1 : 0);
}

static void sessionScenario(Counters *C) {
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  if (!Q)
    return;
  orc_rt_SessionRef S;
  orc_rt_ErrorRef E =
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, reporter, C);
  if (E) {
    orc_rt_Error_consume(E);
    orc_rt_TaskQueue_destroy(Q);
    return;
  }
  E = orc_rt_Session_addService(S, &Svc, C);
  C->ServiceAdded = !E;
  orc_rt_Error_consume(E);
  reg(orc_rt_Session_addOnDetach(S, countCb, &C->Detach), &C->Detach);
  reg(orc_rt_Session_addOnShutdown(S, countCb, &C->Shutdown), &C->Shutdown);
  reg(orc_rt_Session_dispatchManagedCall(S, deferred, deferredDenied, C),
      &C->Deferred);
  assert_true(orc_rt_Session_callManagedCode(S, managed, C));
  orc_rt_TokenSourceRef TS = orc_rt_Session_managedCodeTokenSource(S);
  bool Held = TS && orc_rt_TokenSource_acquireToken(TS);
  reg(orc_rt_Session_shutdown(S, countCb, &C->ShutdownCb), &C->ShutdownCb);
  orc_rt_TaskQueue_runAll(Q);
  if (Held)
    orc_rt_TokenSource_releaseToken(TS);
  orc_rt_TokenSource_dispose(TS);
  assert_null(orc_rt_Session_waitForShutdown(S));
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);

  checkCb(&C->Detach);
  checkCb(&C->Shutdown);
  checkCb(&C->ShutdownCb);
  /* A dispatched call that was registered either ran or was denied, once. */
  assert_int_equal(C->Deferred.Runs + C->DeferredDenied,
                   C->Deferred.Registered ? 1 : 0);
  assert_int_equal(C->SvcDetach, C->ServiceAdded ? 1 : 0);
  assert_int_equal(C->SvcShutdown, C->ServiceAdded ? 1 : 0);
  assert_int_equal(C->Managed, 1);
}

/* Fails allocation N (alone, or N and every later one) for N = 0, 1, ... until
 * the scenario no longer reaches N allocations. */
static void failEachAllocationInTurn(bool Sticky) {
  for (long N = 0;; ++N) {
    Counters C;
    memset(&C, 0, sizeof(C));
    orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Alloc, N, Sticky);
    sessionScenario(&C);
    long Calls =
        orc_rt_internal_FaultInjector_calls(orc_rt_internal_Fault_Alloc);
    orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Alloc, -1, false);
    if (Calls <= N)
      break;
  }
}

static void sessionSurvivesEachSingleAllocationFailure(void **State) {
  (void)State;
  failEachAllocationInTurn(false);
}

static void sessionSurvivesRunningOutOfMemory(void **State) {
  (void)State;
  failEachAllocationInTurn(true);
}

static void errorsUnderAllocationFailureFallBackToOutOfMemory(void **State) {
  (void)State;
  orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Alloc, 0, true);
  orc_rt_ErrorRef E = orc_rt_Error_createf("lost %d", 1);
  orc_rt_ErrorRef F = orc_rt_Error_create("lost too");
  char *S = orc_rt_Error_toString(orc_rt_Error_create("x"));
  orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Alloc, -1, false);
  assert_string_equal(orc_rt_Error_getMessage(E), "out of memory");
  assert_string_equal(orc_rt_Error_getMessage(F), "out of memory");
  assert_null(S);
  orc_rt_Error_consume(E);
  orc_rt_Error_consume(F);
}

static void threadPoolCreationFailsCleanly(void **State) {
  (void)State;
  for (long N = 0; N != 4; ++N) {
    orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Thread, N, false);
    orc_rt_ThreadPoolRef P = NULL;
    orc_rt_ErrorRef E = orc_rt_ThreadPool_create(&P, 4);
    orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Thread, -1, false);
    assert_non_null(E);
    assert_null(P);
    assert_non_null(
        strstr(orc_rt_Error_getMessage(E), "cannot start thread pool worker"));
    orc_rt_Error_consume(E);
  }
  for (long N = 0; N != 2; ++N) {
    orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Alloc, N, false);
    orc_rt_ThreadPoolRef P = NULL;
    orc_rt_ErrorRef E = orc_rt_ThreadPool_create(&P, 2);
    orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Alloc, -1, false);
    assert_non_null(E);
    assert_null(P);
    orc_rt_Error_consume(E);
  }
}

static void *neverRuns(void *Arg) {
  (void)Arg;
  fail_msg("the thread body ran although its creation failed");
  return NULL;
}

static void managedThreadCreationFailureIsReported(void **State) {
  (void)State;
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  assert_null(
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL));
  pthread_t T;
  orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Thread, 0, false);
  assert_int_equal(
      orc_rt_Session_createManagedThread(S, &T, NULL, neverRuns, NULL), EAGAIN);
  orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Alloc, 0, false);
  assert_int_equal(
      orc_rt_Session_createManagedThread(S, &T, NULL, neverRuns, NULL), EAGAIN);
  orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Alloc, -1, false);
  orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Thread, -1, false);
  assert_null(orc_rt_Session_waitForShutdown(S));
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(sessionSurvivesEachSingleAllocationFailure),
      cmocka_unit_test(sessionSurvivesRunningOutOfMemory),
      cmocka_unit_test(errorsUnderAllocationFailureFallBackToOutOfMemory),
      cmocka_unit_test(threadPoolCreationFailsCleanly),
      cmocka_unit_test(managedThreadCreationFailureIsReported),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
