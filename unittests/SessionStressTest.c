/*===- unittests/SessionStressTest.c - Shutdown racing many entries -------===*/
/* 8 threads x 100k managed calls while another thread requests shutdown at a
 * random moment. Checked: no call starts after the drain completed, onShutdown
 * runs exactly once and only after the last call returned, and every callback
 * registered meanwhile (from any thread) runs exactly once. The seed is
 * printed; set ORC_RT_C_STRESS_SEED to replay a run. */

#include "TestUtil.h"

#include "orc-rt-c/Session.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { NumThreads = 8, CallsPerThread = 100000, MaxCallbacks = NumThreads + 1 };

typedef struct {
  orc_rt_SessionRef S;
  atomic_int Live;             /* calls currently inside fn */
  atomic_bool Drained;         /* set by onShutdown */
  atomic_int StartsAfterDrain; /* violations */
  atomic_int ShutdownCalls;
  atomic_int LiveAtShutdown;
  atomic_long Entered, Denied;
  atomic_int CallbackRuns[MaxCallbacks];
  atomic_int CallbacksRegistered;
  unsigned ShutdownAfterUs;
} Stress;

typedef struct {
  Stress *St;
  int Slot;
} CbCtx;

static void managedFn(void *Ctx) {
  Stress *St = Ctx;
  if (atomic_load(&St->Drained))
    atomic_fetch_add(&St->StartsAfterDrain, 1);
  atomic_fetch_add(&St->Live, 1);
  atomic_fetch_sub(&St->Live, 1);
}

static void onShutdown(void *Ctx) {
  Stress *St = Ctx;
  atomic_store(&St->LiveAtShutdown, atomic_load(&St->Live));
  atomic_store(&St->Drained, true);
  atomic_fetch_add(&St->ShutdownCalls, 1);
}

static const orc_rt_ServiceVTable Svc = {NULL, onShutdown};

static void countCallback(void *Ctx) {
  CbCtx *C = Ctx;
  atomic_fetch_add(&C->St->CallbackRuns[C->Slot], 1);
}

typedef struct {
  Stress *St;
  int Id;
  unsigned Seed;
  CbCtx Cb;
} Worker;

static void *workerMain(void *Arg) {
  Worker *W = Arg;
  unsigned RegisterAt = rand_r(&W->Seed) % CallsPerThread;
  for (int I = 0; I != CallsPerThread; ++I) {
    if (I == (int)RegisterAt) {
      W->Cb = (CbCtx){W->St, W->Id};
      atomic_fetch_add(&W->St->CallbacksRegistered, 1);
      assert_null(
          orc_rt_Session_addOnShutdown(W->St->S, countCallback, &W->Cb));
    }
    if (orc_rt_Session_callManagedCode(W->St->S, managedFn, W->St))
      atomic_fetch_add(&W->St->Entered, 1);
    else
      atomic_fetch_add(&W->St->Denied, 1);
  }
  return NULL;
}

static void *shutdownMain(void *Arg) {
  Stress *St = Arg;
  struct timespec D = {0, (long)St->ShutdownAfterUs * 1000};
  nanosleep(&D, NULL);
  static CbCtx Cb;
  Cb = (CbCtx){St, NumThreads};
  atomic_fetch_add(&St->CallbacksRegistered, 1);
  assert_null(orc_rt_Session_shutdown(St->S, countCallback, &Cb));
  return NULL;
}

static void oneRound(unsigned Seed) {
  Stress *St = calloc(1, sizeof(*St));
  orc_rt_ThreadPoolRef Pool;
  assert_null(orc_rt_ThreadPool_create(&Pool, 1));
  assert_null(orc_rt_Session_create(&St->S, orc_rt_ThreadPool_dispatch, Pool,
                                    NULL, NULL));
  assert_null(orc_rt_Session_addService(St->S, &Svc, St));
  St->ShutdownAfterUs = Seed % 20000;

  Worker W[NumThreads];
  pthread_t T[NumThreads], ShutdownThread;
  for (int I = 0; I != NumThreads; ++I) {
    W[I] = (Worker){St, I, Seed * 31 + (unsigned)I, {0}};
    pthread_create(&T[I], NULL, workerMain, &W[I]);
  }
  pthread_create(&ShutdownThread, NULL, shutdownMain, St);
  for (int I = 0; I != NumThreads; ++I)
    pthread_join(T[I], NULL);
  pthread_join(ShutdownThread, NULL);
  assert_null(orc_rt_Session_waitForShutdown(St->S));

  assert_int_equal(atomic_load(&St->StartsAfterDrain), 0);
  assert_int_equal(atomic_load(&St->ShutdownCalls), 1);
  assert_int_equal(atomic_load(&St->LiveAtShutdown), 0);
  assert_int_equal(atomic_load(&St->Entered) + atomic_load(&St->Denied),
                   (long)NumThreads * CallsPerThread);
  assert_int_equal(atomic_load(&St->CallbacksRegistered), MaxCallbacks);
  for (int I = 0; I != MaxCallbacks; ++I)
    assert_int_equal(atomic_load(&St->CallbackRuns[I]), 1);

  orc_rt_Session_destroy(St->S);
  orc_rt_ThreadPool_destroy(Pool);
  free(St);
}

static void shutdownRacingEightThreadsOfCalls(void **State) {
  (void)State;
  const char *Env = getenv("ORC_RT_C_STRESS_SEED");
  unsigned Seed = Env ? (unsigned)strtoul(Env, NULL, 0) : (unsigned)time(NULL);
  for (int Round = 0; Round != 3; ++Round) {
    unsigned S = Seed + (unsigned)Round;
    printf("# stress round %d: ORC_RT_C_STRESS_SEED=%u\n", Round, S);
    fflush(stdout);
    oneRound(S);
  }
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(shutdownRacingEightThreadsOfCalls),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
