/*===- unittests/MembarrierUnavailableTest.c - No membarrier: fallback ----===*/
/* The kernel refusing membarrier (ENOSYS on old kernels and valgrind,
 * EPERM under seccomp) is simulated before the runtime first looks: tokens
 * must then use the fallback mode, refuse to be switched to membarrier,
 * and keep every rule. */

#include "TestUtil.h"

#include "core/TokenCounter.h"
#include "orc-rt-c/Session.h"
#include "support/FaultInjection.h"

#include <stdatomic.h>

static int refuseMembarrier(void **State) {
  (void)State;
  /* Sticky, and before any group exists: registration happens once,
   * at first use. */
  orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Membarrier, 0, true);
  return 0;
}

static void fallbackModeIsChosen(void **State) {
  (void)State;
  assert_false(orc_rt_internal_membarrierAvailable());
  assert_int_equal(orc_rt_internal_getTokenMode(),
                   orc_rt_internal_TokenMode_Fallback);
  assert_int_equal(
      orc_rt_internal_setTokenMode(orc_rt_internal_TokenMode_Membarrier),
      orc_rt_internal_TokenMode_Fallback);
}

typedef struct {
  orc_rt_SessionRef S;
  atomic_bool Drained;
  atomic_int Violations, Live, LiveAtShutdown;
} Ctx;

static void body(void *P) {
  Ctx *C = P;
  if (atomic_load(&C->Drained))
    atomic_fetch_add(&C->Violations, 1);
  atomic_fetch_add(&C->Live, 1);
  atomic_fetch_sub(&C->Live, 1);
}

static void *caller(void *P) {
  Ctx *C = P;
  for (int I = 0; I != 50000; ++I)
    if (!orc_rt_Session_callManagedCode(C->S, body, C))
      break;
  return NULL;
}

static void onShutdown(void *P) {
  Ctx *C = P;
  atomic_store(&C->LiveAtShutdown, atomic_load(&C->Live));
  atomic_store(&C->Drained, true);
}

static const orc_rt_ServiceVTable Svc = {NULL, onShutdown};

static void sessionRulesHoldInFallbackMode(void **State) {
  (void)State;
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  Ctx C = {0};
  assert_null(
      orc_rt_Session_create(&C.S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL));
  assert_null(orc_rt_Session_addService(C.S, &Svc, &C));
  pthread_t T[4];
  for (int I = 0; I != 4; ++I)
    pthread_create(&T[I], NULL, caller, &C);
  assert_null(orc_rt_Session_shutdown(C.S, NULL, NULL));
  assert_false(orc_rt_Session_callManagedCode(C.S, body, &C));
  for (int I = 0; I != 4; ++I)
    pthread_join(T[I], NULL);
  assert_null(orc_rt_Session_waitForShutdown(C.S));
  assert_true(atomic_load(&C.Drained));
  assert_int_equal(atomic_load(&C.Violations), 0);
  assert_int_equal(atomic_load(&C.LiveAtShutdown), 0);
  orc_rt_Session_destroy(C.S);
  orc_rt_TaskQueue_destroy(Q);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(fallbackModeIsChosen),
      cmocka_unit_test(sessionRulesHoldInFallbackMode),
  };
  return cmocka_run_group_tests(Tests, refuseMembarrier, NULL);
}
