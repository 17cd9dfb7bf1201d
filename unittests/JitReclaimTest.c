/*===- unittests/JitReclaimTest.c - What a reload frees, and when ---------===*/
/* A version a reload replaced is freed (its code once its last call returns,
 * then its group, the group's token index and its stubs' module) -- but the
 * group only once no thread can still be about to take its token: a thread
 * that read a front just before the reload, or whose last call through a
 * stub entered the old version, keeps it (modules/ModuleStubs.h, retire).
 * White-box: reads how many retired versions wait (ModuleStubs.h). Built
 * for an eager, a Lazy and a Tiered Jit (JitFixture.h). */

#include "JitFixture.h"

#include "jit/modules/ModuleStubs.h"

#include <pthread.h>

static int call(void *Fn) { return ((int (*)(void))(uintptr_t)Fn)(); }

static void reload(orc_rt_JitModuleRef M, int N) {
  char IR[64];
  snprintf(IR, sizeof(IR), "define i32 @f() {\n  ret i32 %d\n}\n", N);
  orc_rt_ErrorRef Err = orc_rt_JitModule_reloadMemory(M, IR, strlen(IR));
  if (Err)
    fail_msg("%s", orc_rt_Error_getMessage(Err));
}

static orc_rt_JitModuleRef loadVersion1(Fixture *F) {
  return load(F, "v.ll", "define i32 @f() {\n  ret i32 1\n}\n");
}

/*---- A thread's last entry keeps its version's group ----*/

/* On a Tiered Jit a call goes on through the stub of its function's tier-0
 * code, which is then the thread's last entry: the version waiting is that
 * code's (retired with its version, Tiers.h), the version's own is freed. */

typedef struct {
  void *Fn;
  bool CallAgain; /* once told to go on (else it just ends) */
  int First, Second;
  Latch Called, Again;
} Parked;

/* Calls f once, then makes no call through a stub until told: its hazard
 * names the stub it entered, as a thread preempted between reading the
 * front and taking the token would. */
static void *callThenPark(void *Arg) {
  Parked *P = Arg;
  P->First = call(P->Fn);
  latch_set(&P->Called);
  latch_wait(&P->Again);
  if (P->CallAgain)
    P->Second = call(P->Fn);
  return NULL;
}

static void
aSupersededVersionWaitsForAThreadWhoseLastEntryWasIntoIt(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = loadVersion1(F);
  Parked P = {.Fn = entry(M, "f"), .CallAgain = true};
  latch_init(&P.Called);
  latch_init(&P.Again);
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, callThenPark, &P), 0);
  latch_wait(&P.Called);
  assert_int_equal(P.First, 1);
  /* Version 1 waits for the parked thread; version 2, entered by nobody
   * else (this thread's own entries do not count: it is not inside one),
   * is freed at once when version 3 replaces it. */
  reload(M, 2);
  assert_int_equal(call(entry(M, "f")), 2);
  reload(M, 3);
  assert_int_equal(orc_rt_jit_ModuleStubs_numRetiring(), 1);
  /* Its next call goes to version 3, and it ends: nothing waits. */
  latch_set(&P.Again);
  pthread_join(T, NULL);
  assert_int_equal(P.Second, 3);
  reload(M, 4);
  assert_int_equal(orc_rt_jit_ModuleStubs_numRetiring(), 0);
  assert_int_equal(call(entry(M, "f")), 4);
  orc_rt_JitModule_unload(M, NULL, NULL);
  latch_destroy(&P.Called);
  latch_destroy(&P.Again);
}

/* Retired versions wait process-wide, whichever Jit they came from: one of
 * a Jit whose Session is gone is freed by another Jit's reload, and nothing
 * of the gone Session is needed to free it. */
static void aWaitingVersionOfAGoneJitIsFreedByAnotherJitsReload(void **State) {
  Fixture *F = *State;
  Fixture Other = {.Q = orc_rt_TaskQueue_create()};
  assert_null(orc_rt_Session_create(&Other.S, orc_rt_TaskQueue_dispatch,
                                    Other.Q, NULL, NULL));
  orc_rt_JitOptions O;
  testOptions(&O);
  assert_null(orc_rt_Jit_create(&Other.J, Other.S, &O));
  orc_rt_JitModuleRef M2 = loadVersion1(&Other);
  Parked P = {.Fn = entry(M2, "f"), .CallAgain = false};
  latch_init(&P.Called);
  latch_init(&P.Again);
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, callThenPark, &P), 0);
  latch_wait(&P.Called);
  reload(M2, 2);
  assert_int_equal(orc_rt_jit_ModuleStubs_numRetiring(), 1);
  orc_rt_Session_destroy(Other.S); /* (the Jit goes with it) */
  orc_rt_TaskQueue_destroy(Other.Q);
  latch_set(&P.Again); /* it ends without another call */
  pthread_join(T, NULL);
  orc_rt_JitModuleRef M = loadVersion1(F);
  reload(M, 2);
  assert_int_equal(orc_rt_jit_ModuleStubs_numRetiring(), 0);
  assert_int_equal(call(entry(M, "f")), 2);
  orc_rt_JitModule_unload(M, NULL, NULL);
  latch_destroy(&P.Called);
  latch_destroy(&P.Again);
}

/*---- Under calling threads ----*/

enum { Reloads = 300, Threads = 4 };

typedef struct {
  void *Fn;
  long Calls, Wrong;
} Caller;

static void *keepCalling(void *Arg) {
  Caller *C = Arg;
  for (int Prev = 0; Prev != Reloads;) {
    int R = call(C->Fn);
    ++C->Calls;
    if (R < 1 || R > Reloads || R < Prev)
      ++C->Wrong;
    Prev = R;
  }
  return NULL;
}

/* Every old version is freed while four threads keep calling through the
 * front (under ASan a group or module freed too early is a use after free;
 * a token index reused too early sends a call into freed code), and once
 * they have ended none waits. */
static void reloadsUnderCallingThreadsFreeEveryOldVersion(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = loadVersion1(F);
  Caller C[Threads];
  pthread_t T[Threads];
  for (int I = 0; I < Threads; ++I) {
    C[I] = (Caller){.Fn = entry(M, "f")};
    assert_int_equal(pthread_create(&T[I], NULL, keepCalling, &C[I]), 0);
  }
  for (int N = 2; N <= Reloads; ++N)
    reload(M, N);
  for (int I = 0; I < Threads; ++I) {
    pthread_join(T[I], NULL);
    assert_int_equal(C[I].Wrong, 0);
    assert_true(C[I].Calls > 0);
  }
  reload(M, Reloads); /* (the threads are gone: their hazards with them) */
  assert_int_equal(orc_rt_jit_ModuleStubs_numRetiring(), 0);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test_setup_teardown(
          aSupersededVersionWaitsForAThreadWhoseLastEntryWasIntoIt, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(
          aWaitingVersionOfAGoneJitIsFreedByAnotherJitsReload, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          reloadsUnderCallingThreadsFreeEveryOldVersion, setUp, tearDown),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
