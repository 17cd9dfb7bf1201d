/*===- unittests/JitFirstCallTest.c - Compiling on a function's first call ===*/
/* The rules of a Jit that compiles each function on its first call (Lazy,
 * and Tiered's tier 0; orc-rt-c/Jit.h): a function is compiled on its first
 * call, not at load; the symbols a module uses are still resolved at load; a
 * function that cannot be compiled goes to the stale-call handler with the
 * cause reported; first calls on several threads at once. Built twice:
 * JitLazyFirstCallTest and, with JIT_TEST_TIERED, JitTieredFirstCallTest.
 * The rules every Jit has run on both too (JitLazyTest, JitTieredTest, ...). */

#ifndef JIT_TEST_TIERED
#define JIT_TEST_LAZY 1
#endif
#include "JitFixture.h"

#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>

static int call(void *Fn) { return ((int (*)(void))(uintptr_t)Fn)(); }

/* Calls Fn, which must go to the stale-call handler (onStale, which
 * notes what it was told in StaleWhat and jumps back here); Reported gets
 * what the Session was told meanwhile. */
static void callExpectingStale(void *Fn) {
  Reported[0] = StaleWhat[0] = 0;
  if (!setjmp(StaleJump)) {
    call(Fn);
    fail_msg("a call to a function that cannot run returned");
  }
}

/* bad's inline assembly does not assemble: only compiling it can tell. */
static const char *HalfBroken =
    "define i32 @good() {\n"
    "  ret i32 7\n"
    "}\n"
    "define i32 @bad() {\n"
    "  %r = call i32 asm sideeffect \"not_an_instruction %eax\", "
    "\"={ax}\"()\n"
    "  ret i32 %r\n"
    "}\n";

/* The eager Jit compiles bad at load and refuses the module; the lazy one
 * loads it and good runs: bad was never compiled. */
static void aFunctionIsCompiledOnItsFirstCallNotAtLoad(void **State) {
  Fixture *F = *State;
  orc_rt_JitRef Eager;
  assert_null(orc_rt_Jit_create(&Eager, F->S, NULL));
  orc_rt_JitModuleRef M = NULL;
  orc_rt_ErrorRef Err = orc_rt_Jit_loadMemory(Eager, "half.ll", HalfBroken,
                                              strlen(HalfBroken), &M);
  assert_non_null(Err);
  if (!strstr(orc_rt_Error_getMessage(Err), "not_an_instruction"))
    fail_msg("eager: %s", orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  M = load(F, "half.ll", HalfBroken);
  assert_int_equal(call(entry(M, "good")), 7);
}

/* Variables, and aliases of them, do not stop the cut: the module with
 * them loads without compiling bad, as the one without does. Before, every
 * keepable variable's companion (an alias, ir/KeptVariables.h) made the
 * module one the cut refused, so any module with a writable variable was
 * compiled whole at load: bad's error failed the load, and Tiered counted
 * nothing. */
/* A function with a personality (C++ try/catch), compiled on its own on its
 * first call: its object's DW.ref.__gxx_personality_v0 is defined in the
 * JITDylib first (compile/PersonalityRef.h); under Lazy, RuntimeDyld looked
 * the object's weak copy up instead, found nothing, and the first call was
 * a stale one ("Symbols not found: [ DW.ref.__gxx_personality_v0 ]"). The
 * first function called has its address escape (Tiered compiles such a
 * body on a path of its own), the second not. */
static const char *CatchesItsThrow =
    "@_ZTIl = external constant ptr\n"
    "@escapes = global ptr @work\n"
    "define i64 @work(i64 %x) personality ptr @__gxx_personality_v0 {\n"
    "entry:\n"
    "  %odd = and i64 %x, 1\n"
    "  %even = icmp eq i64 %odd, 0\n"
    "  br i1 %even, label %done, label %throw\n"
    "throw:\n"
    "  %e = call ptr @__cxa_allocate_exception(i64 8)\n"
    "  store i64 %x, ptr %e, align 16\n"
    "  invoke void @__cxa_throw(ptr %e, ptr @_ZTIl, ptr null)\n"
    "          to label %never unwind label %lpad\n"
    "lpad:\n"
    "  %lp = landingpad { ptr, i32 } catch ptr @_ZTIl\n"
    "  %obj = extractvalue { ptr, i32 } %lp, 0\n"
    "  %p = call ptr @__cxa_begin_catch(ptr %obj)\n"
    "  %v = load i64, ptr %p, align 8\n"
    "  %neg = sub i64 0, %v\n"
    "  call void @__cxa_end_catch()\n"
    "  br label %done\n"
    "done:\n"
    "  %r = phi i64 [ %neg, %lpad ], [ %x, %entry ]\n"
    "  ret i64 %r\n"
    "never:\n"
    "  unreachable\n"
    "}\n"
    "define i64 @work2(i64 %x) personality ptr @__gxx_personality_v0 {\n"
    "  %r = call i64 @work(i64 %x)\n"
    "  ret i64 %r\n"
    "}\n"
    "declare ptr @__cxa_allocate_exception(i64)\n"
    "declare void @__cxa_throw(ptr, ptr, ptr)\n"
    "declare i32 @__gxx_personality_v0(...)\n"
    "declare ptr @__cxa_begin_catch(ptr)\n"
    "declare void @__cxa_end_catch()\n";

static void aFunctionThatCatchesCompilesOnItsFirstCall(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "catches.ll", CatchesItsThrow);
  int64_t (*Work)(int64_t) = (int64_t(*)(int64_t))(uintptr_t)entry(M, "work");
  int64_t (*Work2)(int64_t) = (int64_t(*)(int64_t))(uintptr_t)entry(M, "work2");
  assert_int_equal(Work(4), 4);
  assert_int_equal(Work(5), -5);
  assert_int_equal(Work2(7), -7); /* (a second body with the personality) */
}

static const char *HalfBrokenWithVariables =
    "@g = global i32 7\n"
    "@ga = alias i32, ptr @g\n"
    "define i32 @good() {\n"
    "  %v = load i32, ptr @ga\n"
    "  ret i32 %v\n"
    "}\n"
    "define i32 @bad() {\n"
    "  %r = call i32 asm sideeffect \"not_an_instruction %eax\", "
    "\"={ax}\"()\n"
    "  ret i32 %r\n"
    "}\n";

static void
aModuleWithVariablesAndTheirAliasesIsCompiledOnFirstCalls(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "variables.ll", HalfBrokenWithVariables);
  assert_int_equal(call(entry(M, "good")), 7);
  assert_int_equal(*(int *)entry(M, "ga"), 7);
}

/* A module the cut refuses (an alias of a function) is compiled whole, with
 * the IR pipeline: a discardable function whose address escapes, used only
 * through its escape stub, is still there for the stub to reach. Before,
 * the optimizer dropped it and the load failed ("Symbols not found: [ cb,
 * cb ]": the lookup named it twice, as an export and as the stub's target,
 * which also crashed inside LLVM's lookup in most runs). */
static const char *WholeWithEscapingLinkOnce =
    "@g = global i32 0\n"
    "@run2 = alias i32 (), ptr @run\n"
    "define linkonce_odr i32 @cb(i32 %x) {\n"
    "  %r = add i32 %x, 1\n"
    "  ret i32 %r\n"
    "}\n"
    "define ptr @get_cb() {\n"
    "  ret ptr @cb\n"
    "}\n"
    "define i32 @run() {\n"
    "  ret i32 3\n"
    "}\n";

static void
anEscapingLinkOnceFunctionOfAModuleCompiledWholeIsKept(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "whole.ll", WholeWithEscapingLinkOnce);
  int (*Cb)(int) = (int (*)(int))(
      uintptr_t)((void *(*)(void))(uintptr_t)entry(M, "get_cb"))();
  assert_int_equal(Cb(1), 2);
  assert_int_equal(call(entry(M, "run2")), 3);
}

/* A session whose error reporter the test reads, with a Lazy Jit. */
typedef struct {
  orc_rt_TaskQueueRef Q;
  orc_rt_SessionRef S;
  orc_rt_JitRef J;
} Reporting;

static void startReporting(Reporting *R) {
  R->Q = orc_rt_TaskQueue_create();
  assert_null(orc_rt_Session_create(&R->S, orc_rt_TaskQueue_dispatch, R->Q,
                                    reportTo, NULL));
  orc_rt_JitOptions O;
  testOptions(&O);
  assert_null(orc_rt_Jit_create(&R->J, R->S, &O));
}

static void stopReporting(Reporting *R) {
  orc_rt_Session_destroy(R->S);
  orc_rt_TaskQueue_destroy(R->Q);
}

/* bad's first call cannot go anywhere: the Session hears why, the call goes
 * to the stale-call handler with the function and module; good and the
 * module go on. */
static void
aFunctionThatDoesNotCompileIsAStaleCallWithTheCauseReported(void **State) {
  (void)State;
  Reporting R;
  startReporting(&R);
  orc_rt_Jit_setStaleCallHandler(R.J, onStale, NULL);
  orc_rt_JitModuleRef M;
  assert_null(orc_rt_Jit_loadMemory(R.J, "half.ll", HalfBroken,
                                    strlen(HalfBroken), &M));
  void *Bad = entry(M, "bad");
  callExpectingStale(Bad);
  assert_string_equal(StaleWhat, "bad in half.ll");
  /* (the user's names only: not the split body's, bad$body) */
  if (!strstr(Reported, "cannot compile 'bad'") ||
      !strstr(Reported, "half.ll") || !strstr(Reported, "not_an_instruction") ||
      strchr(Reported, '$'))
    fail_msg("reported: '%s'", Reported);
  assert_int_equal(call(entry(M, "good")), 7);
  stopReporting(&R);
}

/* A body that compiles but does not link (the code generator made it call
 * __atomic_load, which the process lacks: an atomic load of an 8-byte value
 * aligned to 4) is a stale call naming it too: the link's failure reached
 * the handler as '?' in '?'. */
static const char *LinksNot = "@v = global i64 0, align 4\n"
                              "define i32 @good() {\n"
                              "  ret i32 7\n"
                              "}\n"
                              "define i64 @get() {\n"
                              "  %r = load atomic i64, ptr @v monotonic, "
                              "align 4\n"
                              "  ret i64 %r\n"
                              "}\n";

static void aFunctionWhoseLinkFailsIsAStaleCallNamingIt(void **State) {
  (void)State;
  Reporting R;
  startReporting(&R);
  orc_rt_Jit_setStaleCallHandler(R.J, onStale, NULL);
  orc_rt_JitModuleRef M;
  assert_null(orc_rt_Jit_loadMemory(R.J, "links-not.ll", LinksNot,
                                    strlen(LinksNot), &M));
  assert_int_equal(call(entry(M, "good")), 7);
  void *Get = entry(M, "get");
  callExpectingStale(Get);
  assert_string_equal(StaleWhat, "get in links-not.ll");
  if (!strstr(Reported, "cannot compile 'get'") ||
      !strstr(Reported, "__atomic_load"))
    fail_msg("reported: '%s'", Reported);
  stopReporting(&R);
}

/* A function whose address escapes is compiled on its first call too, not
 * at load (the module hands out its escape stub, which leads to its lazy
 * stub): the module whose escaping bad does not compile loads, good runs,
 * and the first call of bad, through the pointer the module handed out,
 * goes to the stale-call handler with the cause reported. */
static const char *HalfBrokenEscaping =
    "define i32 @good() {\n"
    "  ret i32 7\n"
    "}\n"
    "define internal i32 @bad() {\n"
    "  %r = call i32 asm sideeffect \"not_an_instruction %eax\", "
    "\"={ax}\"()\n"
    "  ret i32 %r\n"
    "}\n"
    "define ptr @get_bad() {\n"
    "  ret ptr @bad\n"
    "}\n";

static void anEscapingFunctionIsCompiledOnItsFirstCall(void **State) {
  (void)State;
  Reporting R;
  startReporting(&R);
  orc_rt_Jit_setStaleCallHandler(R.J, onStale, NULL);
  orc_rt_JitModuleRef M;
  orc_rt_ErrorRef Err = orc_rt_Jit_loadMemory(
      R.J, "escaping.ll", HalfBrokenEscaping, strlen(HalfBrokenEscaping), &M);
  if (Err)
    fail_msg("load: %s", orc_rt_Error_getMessage(Err));
  assert_int_equal(call(entry(M, "good")), 7);
  void *Bad = ((void *(*)(void))(uintptr_t)entry(M, "get_bad"))();
  callExpectingStale(Bad);
  if (!strstr(StaleWhat, "bad") || !strstr(StaleWhat, "escaping.ll"))
    fail_msg("stale call: '%s'", StaleWhat);
  if (!strstr(Reported, "escaping.ll") ||
      !strstr(Reported, "not_an_instruction"))
    fail_msg("reported: '%s'", Reported);
  assert_int_equal(call(entry(M, "good")), 7);
  stopReporting(&R);
}

/* lost is never called, and what it calls does not exist: a Lazy load
 * fails as an eager one does, naming the symbol. */
static void aMissingSymbolFailsTheLoadNotTheFirstCall(void **State) {
  Fixture *F = *State;
  const char *IR = "declare i32 @nowhere_to_be_found()\n"
                   "define i32 @lost() {\n"
                   "  %r = call i32 @nowhere_to_be_found()\n"
                   "  ret i32 %r\n"
                   "}\n";
  orc_rt_JitModuleRef M = NULL;
  orc_rt_ErrorRef Err =
      orc_rt_Jit_loadMemory(F->J, "lost.ll", IR, strlen(IR), &M);
  assert_non_null(Err);
  const char *Msg = orc_rt_Error_getMessage(Err);
  if (!strstr(Msg, "lost.ll") || !strstr(Msg, "nowhere_to_be_found"))
    fail_msg("%s", Msg);
  orc_rt_Error_consume(Err);
  assert_null(M);
}

/* The entries of the cache directory Dir: name and inode (a store writes a
 * new file and renames it over the old one), sorted by name; at most 64. */
typedef struct {
  char Name[256];
  ino_t Ino;
} CacheEntry;

static int byName(const void *A, const void *B) {
  return strcmp(((const CacheEntry *)A)->Name, ((const CacheEntry *)B)->Name);
}

static size_t listCache(const char *Dir, CacheEntry *Out) {
  DIR *D = opendir(Dir);
  assert_non_null(D);
  size_t N = 0;
  for (struct dirent *E; (E = readdir(D));) {
    if (E->d_name[0] == '.')
      continue;
    assert_true(N < 64);
    snprintf(Out[N].Name, sizeof(Out[N].Name), "%s", E->d_name);
    Out[N++].Ino = E->d_ino;
  }
  closedir(D);
  qsort(Out, N, sizeof(*Out), byName);
  return N;
}

static const char *TwoFunctions = "define i32 @good() {\n"
                                  "  ret i32 7\n"
                                  "}\n"
                                  "define i32 @other() {\n"
                                  "  ret i32 9\n"
                                  "}\n";

/* A Lazy Jit with an object cache keeps each function's code as it compiles
 * it (and the part that holds the variables, at load): a later Jit with the
 * same directory reads back what was kept, compiling and writing nothing
 * again (no entry is rewritten: a store renames a new file over the old),
 * and keeps what it compiles that was not there. */
static void aLazyJitTakesFunctionsFromTheObjectCache(void **State) {
  (void)State;
  char Dir[] = "/tmp/orc-rt-c-lazy-cache-XXXXXX";
  assert_non_null(mkdtemp(Dir));
  CacheEntry First[64], Second[64];
  size_t NumFirst = 0;
  for (int Run = 0; Run < 2; ++Run) {
    Fixture F;
    F.Q = orc_rt_TaskQueue_create();
    assert_null(orc_rt_Session_create(&F.S, orc_rt_TaskQueue_dispatch, F.Q,
                                      reportTo, NULL));
    orc_rt_JitOptions O;
    testOptions(&O);
    O.Lazy = true;
    O.Tiered = false;
    O.ObjectCacheDir = Dir;
    assert_null(orc_rt_Jit_create(&F.J, F.S, &O));
    Reported[0] = 0;
    orc_rt_JitModuleRef M = load(&F, "two.ll", TwoFunctions);
    assert_int_equal(call(entry(M, "good")), 7);
    if (Run == 0) {
      NumFirst = listCache(Dir, First);
      assert_true(NumFirst >= 2); /* the variables' part and good */
    } else {
      size_t N = listCache(Dir, Second);
      assert_int_equal(N, NumFirst);
      for (size_t I = 0; I < N; ++I) {
        assert_string_equal(Second[I].Name, First[I].Name);
        if (Second[I].Ino != First[I].Ino)
          fail_msg("%s was written again: not read from the cache",
                   Second[I].Name);
      }
      assert_int_equal(call(entry(M, "other")), 9);
      assert_int_equal(listCache(Dir, Second), NumFirst + 1);
    }
    assert_string_equal(Reported, "");
    orc_rt_Session_destroy(F.S);
    orc_rt_TaskQueue_destroy(F.Q);
  }
  removeDir(Dir);
}

/* A Lazy Jit's cache directory that cannot take its objects: the module
 * loads and its functions run all the same, and the host hears of it
 * through the Session's error reporter. */
static void aLazyObjectCacheThatCannotStoreIsReportedNotFatal(void **State) {
  (void)State;
  char Dir[] = "/tmp/orc-rt-c-lazy-cache-XXXXXX";
  assert_non_null(mkdtemp(Dir));
  blockDir(Dir);
  Fixture F;
  F.Q = orc_rt_TaskQueue_create();
  assert_null(orc_rt_Session_create(&F.S, orc_rt_TaskQueue_dispatch, F.Q,
                                    reportTo, NULL));
  orc_rt_JitOptions O;
  testOptions(&O);
  O.Lazy = true;
  O.Tiered = false;
  O.ObjectCacheDir = Dir;
  assert_null(orc_rt_Jit_create(&F.J, F.S, &O));
  Reported[0] = 0;
  orc_rt_JitModuleRef M = load(&F, "two.ll", TwoFunctions);
  assert_int_equal(call(entry(M, "good")), 7);
  if (!strstr(Reported, "object cache") || !strstr(Reported, Dir))
    fail_msg("reported: '%s'", Reported);
  orc_rt_Session_destroy(F.S);
  orc_rt_TaskQueue_destroy(F.Q);
  assert_int_equal(unlink(Dir), 0);
}

/* Four threads make the first calls of 32 functions at once, in different
 * orders, so that some bodies are asked for by two threads together: every
 * call gets its function's answer. (Whether the shared target machine is
 * used under its lock no test here can see: LLVM is not built with TSan.) */
enum { NumFns = 32, NumThreads = 4 };

typedef struct {
  void **Fns;
  int First;
  atomic_int *Ready;
  int Wrong;
} FirstCaller;

static void *callAll(void *Arg) {
  FirstCaller *C = Arg;
  atomic_fetch_add(C->Ready, 1);
  while (atomic_load(C->Ready) < NumThreads)
    ;
  for (int K = 0; K < NumFns; ++K) {
    int I = (C->First + K * (C->First % 2 ? 1 : NumFns - 1)) % NumFns;
    C->Wrong += call(C->Fns[I]) != I * 3 + 1;
  }
  return NULL;
}

static void firstCallsOnSeveralThreadsAtOnceAllGetTheirAnswers(void **State) {
  Fixture *F = *State;
  static char IR[NumFns * 160];
  size_t At = 0;
  for (int I = 0; I < NumFns; ++I)
    At += (size_t)snprintf(IR + At, sizeof(IR) - At,
                           "define i32 @f%d() {\n"
                           "  %%a = add i32 %d, 1\n"
                           "  ret i32 %%a\n"
                           "}\n",
                           I, I * 3);
  orc_rt_JitModuleRef M = load(F, "many.ll", IR);
  void *Fns[NumFns];
  for (int I = 0; I < NumFns; ++I) {
    char Name[16];
    snprintf(Name, sizeof(Name), "f%d", I);
    Fns[I] = entry(M, Name);
  }
  atomic_int Ready = 0;
  FirstCaller Callers[NumThreads];
  pthread_t T[NumThreads];
  for (int I = 0; I < NumThreads; ++I) {
    Callers[I] = (FirstCaller){Fns, I * 8, &Ready, 0};
    assert_int_equal(pthread_create(&T[I], NULL, callAll, &Callers[I]), 0);
  }
  for (int I = 0; I < NumThreads; ++I) {
    pthread_join(T[I], NULL);
    assert_int_equal(Callers[I].Wrong, 0);
  }
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test_setup_teardown(
          aFunctionIsCompiledOnItsFirstCallNotAtLoad, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aModuleWithVariablesAndTheirAliasesIsCompiledOnFirstCalls, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(
          anEscapingLinkOnceFunctionOfAModuleCompiledWholeIsKept, setUp,
          tearDown),
      cmocka_unit_test(
          aFunctionThatDoesNotCompileIsAStaleCallWithTheCauseReported),
      cmocka_unit_test(aFunctionWhoseLinkFailsIsAStaleCallNamingIt),
      cmocka_unit_test_setup_teardown(aMissingSymbolFailsTheLoadNotTheFirstCall,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aFunctionThatCatchesCompilesOnItsFirstCall, setUp, tearDown),
      cmocka_unit_test(aLazyJitTakesFunctionsFromTheObjectCache),
      cmocka_unit_test(aLazyObjectCacheThatCannotStoreIsReportedNotFatal),
      cmocka_unit_test(anEscapingFunctionIsCompiledOnItsFirstCall),
      cmocka_unit_test_setup_teardown(
          firstCallsOnSeveralThreadsAtOnceAllGetTheirAnswers, setUp, tearDown),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
