/*===- unittests/JitTieredCompileTest.c - What orc_rt_JitOptions.Tiered adds ===*/
/* The rules only a Tiered Jit has (orc-rt-c/Jit.h): a function that gets
 * hot is switched to its optimized code and its first code is freed after
 * its last frame; calls on four threads all along the switch all get their
 * answers; a reload retires the old version's tiers; with ObjectCacheDir a
 * later Jit starts from the kept tier-1 code; the options it cannot take are
 * refused. The rules every Jit has run on a Tiered one too
 * (JitTieredTest, JitTieredReloadTest). */

#define JIT_TEST_TIERED 1
#include "JitFixture.h"

#include "jit/modules/ModuleStubs.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

static int call2(void *Fn, int A, int B) {
  return ((int (*)(int, int))(uintptr_t)Fn)(A, B);
}

static const char *Mix = "define i32 @mix(i32 %a, i32 %b) {\n"
                         "  %x = mul i32 %a, 31\n"
                         "  %y = add i32 %x, %b\n"
                         "  ret i32 %y\n"
                         "}\n";

static orc_rt_JitTierStats stats(orc_rt_JitRef J) {
  orc_rt_JitTierStats S;
  orc_rt_Jit_getTierStats(J, &S);
  return S;
}

/* Waits (up to 60 s, polling: the compile thread runs when it runs) until
 * Done says the stats are there; false if they never were. */
static bool waitFor(orc_rt_JitRef J, bool (*Done)(orc_rt_JitTierStats),
                    void *Fn) {
  for (int I = 0; I < 6000; ++I) {
    if (Fn) /* a call: the tier-0 code's frames come and go */
      assert_int_equal(call2(Fn, 2, 3), 65);
    if (Done(stats(J)))
      return true;
    struct timespec T = {0, 10 * 1000 * 1000};
    nanosleep(&T, NULL);
  }
  return false;
}

static bool atTier1(orc_rt_JitTierStats S) { return S.Tier1Functions >= 1; }
static bool tier0Freed(orc_rt_JitTierStats S) { return S.Tier0Freed >= 1; }

static void aHotFunctionSwitchesToTier1AndItsFirstCodeIsFreed(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "mix.ll", Mix);
  void *Fn = entry(M, "mix");
  assert_int_equal(stats(F->J).Tier1Functions, 0);
  assert_int_equal(call2(Fn, 1, 2), 33); /* tier 0; past the threshold */
  assert_int_equal(stats(F->J).Tier0Functions, 1);
  if (!waitFor(F->J, atTier1, Fn))
    fail_msg("mix never reached tier 1");
  if (!waitFor(F->J, tier0Freed, Fn))
    fail_msg("mix's tier-0 code was never freed");
  orc_rt_JitTierStats S = stats(F->J);
  assert_int_equal(S.Tier0Functions, 1);
  assert_int_equal(S.Tier1Functions, 1);
  assert_int_equal(S.Tier0Freed, 1);
  assert_int_equal(S.FailedTierUps, 0);
  assert_int_equal(call2(Fn, 4, 5), 129);
}

/* Four threads call mix all along its switch: every call gets its answer,
 * in tier 0 or tier 1. */
typedef struct {
  void *Fn;
  atomic_bool *Stop;
  long Calls, Wrong;
} Caller;

static void *keepCalling(void *Arg) {
  Caller *C = Arg;
  while (!atomic_load(C->Stop) || C->Calls < 1000) {
    int A = (int)(C->Calls % 1000);
    C->Wrong += call2(C->Fn, A, 7) != A * 31 + 7;
    ++C->Calls;
  }
  return NULL;
}

static void callsOnFourThreadsAcrossTheSwitchAllGetTheirAnswers(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "mix.ll", Mix);
  void *Fn = entry(M, "mix");
  atomic_bool Stop = false;
  Caller C[4];
  pthread_t T[4];
  for (int I = 0; I < 4; ++I) {
    C[I] = (Caller){Fn, &Stop, 0, 0};
    assert_int_equal(pthread_create(&T[I], NULL, keepCalling, &C[I]), 0);
  }
  bool Switched = waitFor(F->J, atTier1, NULL);
  atomic_store(&Stop, true);
  for (int I = 0; I < 4; ++I) {
    pthread_join(T[I], NULL);
    assert_int_equal(C[I].Wrong, 0);
  }
  if (!Switched)
    fail_msg("mix never reached tier 1");
}

/* A reload replaces the version with its tiers: the new version starts at
 * tier 0 again and tiers up on its own; the old one's counts stay. */
static void aReloadStartsTheNewVersionAtTier0(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "mix.ll", Mix);
  void *Fn = entry(M, "mix");
  assert_int_equal(call2(Fn, 1, 2), 33);
  if (!waitFor(F->J, atTier1, Fn))
    fail_msg("mix never reached tier 1");
  const char *V2 = "define i32 @mix(i32 %a, i32 %b) {\n"
                   "  %x = mul i32 %a, 10\n"
                   "  %y = sub i32 %x, %b\n"
                   "  ret i32 %y\n"
                   "}\n";
  orc_rt_ErrorRef Err = orc_rt_JitModule_reloadMemory(M, V2, strlen(V2));
  if (Err)
    fail_msg("%s", orc_rt_Error_getMessage(Err));
  assert_int_equal(call2(Fn, 4, 5), 35);
  for (int I = 0; I < 6000 && stats(F->J).Tier1Functions < 2; ++I) {
    assert_int_equal(call2(Fn, 4, 5), 35);
    struct timespec T = {0, 10 * 1000 * 1000};
    nanosleep(&T, NULL);
  }
  orc_rt_JitTierStats S = stats(F->J);
  assert_int_equal(S.Tier0Functions, 2);
  assert_int_equal(S.Tier1Functions, 2);
}

/* F's Session (its errors to reportTo) and a Tiered Jit that keeps tier 1's
 * code in Dir (NULL: none). */
static void startJit(Fixture *F, const char *Dir, unsigned Threshold) {
  F->Q = orc_rt_TaskQueue_create();
  assert_null(orc_rt_Session_create(&F->S, orc_rt_TaskQueue_dispatch, F->Q,
                                    reportTo, NULL));
  orc_rt_JitOptions O;
  testOptions(&O);
  O.ObjectCacheDir = Dir;
  O.TierUpThreshold = Threshold;
  assert_null(orc_rt_Jit_create(&F->J, F->S, &O));
}

/* With ObjectCacheDir, tier 1's code is kept by content: a later Jit (its own
 * Session) that loads the same module links the kept code at the function's
 * first call, whatever its threshold -- one call, far below it, takes the
 * function to tier 1. */
static void tier1CodeInTheCacheDirStartsALaterJitHot(void **State) {
  (void)State;
  char Dir[] = "/tmp/orc-rt-c-tier1-cache-XXXXXX";
  assert_non_null(mkdtemp(Dir));
  for (int Run = 0; Run < 2; ++Run) {
    Fixture F;
    startJit(&F, Dir, Run == 0 ? 1 : 1000000); /* the second: never hot */
    void *Fn = entry(load(&F, "mix.ll", Mix), "mix");
    assert_int_equal(call2(Fn, 1, 2), 33);
    /* The first run calls on until it is hot; the second makes no call. */
    if (!waitFor(F.J, atTier1, Run == 0 ? Fn : NULL))
      fail_msg("run %d: mix never reached tier 1 (tier 0 %zu, failed %zu)",
               Run + 1, stats(F.J).Tier0Functions, stats(F.J).FailedTierUps);
    assert_int_equal(call2(Fn, 4, 5), 129);
    orc_rt_Session_destroy(F.S);
    orc_rt_TaskQueue_destroy(F.Q);
  }
  removeDir(Dir);
}

/* Tier-1 code the cache directory cannot take: the function is switched all
 * the same, and the host hears of it through the Session's error reporter
 * (the load itself writes nothing there: a Tiered Jit keeps only tier 1). */
static void aTier1CacheThatCannotStoreIsReportedNotFatal(void **State) {
  (void)State;
  char Dir[] = "/tmp/orc-rt-c-tier1-cache-XXXXXX";
  assert_non_null(mkdtemp(Dir));
  Fixture F;
  startJit(&F, Dir, 1);
  blockDir(Dir);
  Reported[0] = 0;
  void *Fn = entry(load(&F, "mix.ll", Mix), "mix");
  assert_int_equal(call2(Fn, 1, 2), 33);
  assert_string_equal(Reported, "");
  if (!waitFor(F.J, atTier1, Fn))
    fail_msg("mix never reached tier 1");
  /* (Reported was written before the switch was counted, under the lock
   * the stats are read under.) */
  if (!strstr(Reported, "object cache") || !strstr(Reported, Dir))
    fail_msg("reported: '%s'", Reported);
  assert_int_equal(call2(Fn, 4, 5), 129);
  orc_rt_Session_destroy(F.S);
  orc_rt_TaskQueue_destroy(F.Q);
  assert_int_equal(unlink(Dir), 0);
}

static void optionsTieredCannotTakeAreRefused(void **State) {
  Fixture *F = *State;
  orc_rt_JitOptions O;
  testOptions(&O);
  O.OptLevel = 0;
  orc_rt_JitRef J = NULL;
  orc_rt_ErrorRef Err = orc_rt_Jit_create(&J, F->S, &O);
  assert_non_null(Err);
  if (!strstr(orc_rt_Error_getMessage(Err), "OptLevel"))
    fail_msg("%s", orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  assert_null(J);
}

/*---- The switch frees the tier-0 code's stubs' bookkeeping too ----*/

typedef struct {
  void *Fn;
  int Answer;
  Latch Called, Go;
} Parked;

/* Calls mix twice (the second call surely through the stub of its tier-0
 * code, the first having compiled it), then makes no call through a stub
 * until told: its hazard names that stub. */
static void *callThenPark(void *Arg) {
  Parked *P = Arg;
  P->Answer = call2(P->Fn, 1, 2) + call2(P->Fn, 1, 2);
  latch_set(&P->Called);
  latch_wait(&P->Go);
  return NULL;
}

/* Once the switch has freed mix's tier-0 code, the stubs that led to it take
 * no token and their group, its token index and their module are freed as a
 * replaced version's are -- after a thread whose last entry was into one of
 * them has made another or ended (modules/ModuleStubs.h, retire; white-box:
 * how many retired modules wait). */
static void
aSwitchRetiresTheTier0CodesStubsAfterTheLastThreadLeftThem(void **State) {
  (void)State;
  Fixture F;
  startJit(&F, NULL, 1000); /* hot only from this thread's calls below */
  orc_rt_JitModuleRef M = load(&F, "mix.ll", Mix);
  Parked P = {.Fn = entry(M, "mix")};
  latch_init(&P.Called);
  latch_init(&P.Go);
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, callThenPark, &P), 0);
  latch_wait(&P.Called);
  assert_int_equal(P.Answer, 66);
  assert_int_equal(stats(F.J).Tier1Functions, 0);
  bool Freed = waitFor(F.J, tier0Freed, P.Fn);
  size_t Waiting = orc_rt_jit_ModuleStubs_numRetiring();
  latch_set(&P.Go);
  pthread_join(T, NULL);
  orc_rt_jit_ModuleStubs_reclaim();
  size_t After = orc_rt_jit_ModuleStubs_numRetiring();
  assert_int_equal(call2(P.Fn, 4, 5), 129);
  orc_rt_Session_destroy(F.S);
  orc_rt_TaskQueue_destroy(F.Q);
  latch_destroy(&P.Called);
  latch_destroy(&P.Go);
  if (!Freed)
    fail_msg("mix's tier-0 code was never freed");
  assert_int_equal(Waiting, 1);
  assert_int_equal(After, 0);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test_setup_teardown(
          aHotFunctionSwitchesToTier1AndItsFirstCodeIsFreed, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          callsOnFourThreadsAcrossTheSwitchAllGetTheirAnswers, setUp, tearDown),
      cmocka_unit_test_setup_teardown(aReloadStartsTheNewVersionAtTier0, setUp,
                                      tearDown),
      cmocka_unit_test(tier1CodeInTheCacheDirStartsALaterJitHot),
      cmocka_unit_test(aTier1CacheThatCannotStoreIsReportedNotFatal),
      cmocka_unit_test_setup_teardown(optionsTieredCannotTakeAreRefused, setUp,
                                      tearDown),
      cmocka_unit_test(
          aSwitchRetiresTheTier0CodesStubsAfterTheLastThreadLeftThem),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
