/*===- unittests/JitTest.c - orc-rt-c/Jit.h -------------------------------===*/
/* The host JIT's rules, each case failing if its rule breaks: load, look up
 * and call; host symbols; errors that name the module and the cause; the
 * constructor / destructor / atexit order of a load and an unload; unload
 * with a frame live on another thread (the code is freed only after it
 * returns); a stale call goes to the handler; a module another one uses stays
 * until that one goes; shutdown finalizes what is loaded; two JITs know
 * nothing of each other. */

#include "JitFixture.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/*---- Load, look up, call ----*/

static const char *Answer = "@counter = global i32 41\n"
                            "define i32 @answer() {\n"
                            "  %v = load i32, ptr @counter\n"
                            "  %n = add i32 %v, 1\n"
                            "  store i32 %n, ptr @counter\n"
                            "  ret i32 %n\n"
                            "}\n";

static void loadedFunctionIsCalledThroughItsEntry(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "answer.ll", Answer);
  void *Fn, *Var;
  assert_null(orc_rt_JitModule_lookup(M, "answer", &Fn));
  assert_null(orc_rt_JitModule_lookup(M, "counter", &Var));
  assert_int_equal(((int (*)(void))(uintptr_t)Fn)(), 42);
  assert_int_equal(*(int *)Var, 42);
  assert_int_equal(((int (*)(void))(uintptr_t)Fn)(), 43);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

static int hostTimesTwo(int X) { return 2 * X; }

static void moduleCallsHostSymbolsAndTheProcesss(void **State) {
  Fixture *F = *State;
  assert_null(orc_rt_Jit_addSymbol(F->J, "host_twice",
                                   (void *)(uintptr_t)hostTimesTwo));
  orc_rt_ErrorRef Err =
      orc_rt_Jit_addSymbol(F->J, "host_twice", (void *)(uintptr_t)hostTimesTwo);
  assert_non_null(Err); /* defined once */
  assert_non_null(strstr(orc_rt_Error_getMessage(Err), "host_twice"));
  assert_non_null(strstr(orc_rt_Error_getMessage(Err), "already defined"));
  orc_rt_Error_consume(Err);
  orc_rt_JitModuleRef M = load(F, "host.ll",
                               "declare i32 @host_twice(i32)\n"
                               "declare i64 @strlen(ptr)\n"
                               "@s = private constant [6 x i8] c\"hello\\00\"\n"
                               "define i32 @f(i32 %x) {\n"
                               "  %a = call i32 @host_twice(i32 %x)\n"
                               "  %l = call i64 @strlen(ptr @s)\n"
                               "  %t = trunc i64 %l to i32\n"
                               "  %r = add i32 %a, %t\n"
                               "  ret i32 %r\n"
                               "}\n");
  void *Fn;
  assert_null(orc_rt_JitModule_lookup(M, "f", &Fn));
  assert_int_equal(((int (*)(int))(uintptr_t)Fn)(10), 25);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/*---- Errors ----*/

/* The host's symbols come before the exports of modules loaded earlier, as
 * Jit.h says, whether given before or after those modules' load: Later
 * sees the host's mv and mf (40 + 400), not Earlier's (7 + 700). */
static int HostMv = 40;
static int hostMf(void) { return 400; }
static const char *Earlier = "@mv = global i32 7\n"
                             "define i32 @mf() {\n  ret i32 700\n}\n";
static const char *Later = "@mv = external global i32\n"
                           "declare i32 @mf()\n"
                           "define i32 @sum() {\n"
                           "  %v = load i32, ptr @mv\n"
                           "  %f = call i32 @mf()\n"
                           "  %r = add i32 %v, %f\n"
                           "  ret i32 %r\n"
                           "}\n";

/* A name a loaded module already bound from the process (libc's getpid)
 * can still be added: modules loaded later get the host's. It was refused
 * ("already defined": the process's definition had been put where the
 * host's went). */
static int hostGetpid(void) { return -42; }
static const char *CallsGetpid = "declare i32 @getpid()\n"
                                 "define i32 @f() {\n"
                                 "  %r = call i32 @getpid()\n"
                                 "  ret i32 %r\n"
                                 "}\n";

static void aNameAModuleBoundFromTheProcessCanStillBeAdded(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef A = load(F, "a.ll", CallsGetpid);
  int (*FromA)(void) = (int (*)(void))(uintptr_t)entry(A, "f");
  assert_int_equal(FromA(), getpid());
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "getpid", (void *)(uintptr_t)hostGetpid));
  orc_rt_ErrorRef Err =
      orc_rt_Jit_addSymbol(F->J, "getpid", (void *)(uintptr_t)hostGetpid);
  assert_non_null(Err); /* (the host's twice is) */
  assert_non_null(strstr(orc_rt_Error_getMessage(Err), "already defined"));
  orc_rt_Error_consume(Err);
  orc_rt_JitModuleRef B = load(F, "b.ll", CallsGetpid);
  assert_int_equal(((int (*)(void))(uintptr_t)entry(B, "f"))(), -42);
  assert_int_equal(FromA(), getpid()); /* (bound already) */
  orc_rt_JitModule_unload(B, NULL, NULL);
  orc_rt_JitModule_unload(A, NULL, NULL);
}

static void hostSymbolsComeBeforeOtherModulesExports(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef E = load(F, "earlier.ll", Earlier);
  assert_null(orc_rt_Jit_addSymbol(F->J, "mv", &HostMv));
  assert_null(orc_rt_Jit_addSymbol(F->J, "mf", (void *)(uintptr_t)hostMf));
  orc_rt_JitModuleRef L = load(F, "later.ll", Later);
  assert_int_equal(((int (*)(void))(uintptr_t)entry(L, "sum"))(), 440);
  orc_rt_JitModule_unload(L, NULL, NULL);
  orc_rt_JitModule_unload(E, NULL, NULL);
}

static void expectError(Fixture *F, const char *Name, const char *IR,
                        const char *Want1, const char *Want2) {
  orc_rt_JitModuleRef M = NULL;
  orc_rt_ErrorRef Err = orc_rt_Jit_loadMemory(F->J, Name, IR, strlen(IR), &M);
  assert_non_null(Err);
  const char *Msg = orc_rt_Error_getMessage(Err);
  if (!strstr(Msg, Want1) || !strstr(Msg, Want2))
    fail_msg("error '%s' lacks '%s' or '%s'", Msg, Want1, Want2);
  orc_rt_Error_consume(Err);
  assert_null(M);
}

static void badModulesAreErrorsNamingTheModuleAndTheCause(void **State) {
  Fixture *F = *State;
  expectError(F, "syntax.ll", "define i32 @f( {\n", "syntax.ll", "expected");
  expectError(F, "binary.bc", "BC\xc0\xde garbage", "binary.bc", "");
  expectError(F, "verify.ll", "define i32 @f() {\n  ret void\n}\n", "verify.ll",
              "");
  expectError(F, "missing.ll",
              "declare i32 @no_such_function_anywhere()\n"
              "define i32 @f() {\n"
              "  %r = call i32 @no_such_function_anywhere()\n"
              "  ret i32 %r\n"
              "}\n",
              "missing.ll", "no_such_function_anywhere");
  /* Code for another target: refused, not run with the Jit's layout (what it
   * computed depended on the OptLevel). */
  expectError(F, "arm.ll",
              "target triple = \"aarch64-unknown-linux-gnu\"\n"
              "define i32 @f() {\n  ret i32 1\n}\n",
              "arm.ll", "aarch64-unknown-linux-gnu");
  expectError(F, "windows.ll",
              "target triple = \"x86_64-pc-windows-msvc\"\n"
              "define i32 @f() {\n  ret i32 1\n}\n",
              "windows.ll", "cannot run");
  const char *ShortTriple = "target triple = \"x86_64-linux-gnu\"\n"
                            "define i32 @f() {\n  ret i32 1\n}\n";
  orc_rt_JitModule_unload(load(F, "short-triple.ll", ShortTriple), NULL, NULL);
  expectError(F, "be.ll",
              "target datalayout = \"E-m:e-p:32:32-i64:64-n32:64\"\n"
              "define i32 @f() {\n  ret i32 1\n}\n",
              "be.ll", "big-endian, 4-byte pointers");
  /* The cause alone: not what failed in consequence, under the library's
   * own names (a variable's companion symbol, the JITDylib's). */
  const char *Missing = "@counter = global i32 0\n"
                        "declare i32 @gone()\n"
                        "define i32 @f() {\n"
                        "  %r = call i32 @gone()\n"
                        "  ret i32 %r\n"
                        "}\n";
  orc_rt_JitModuleRef M = NULL;
  orc_rt_ErrorRef Err =
      orc_rt_Jit_loadMemory(F->J, "gone.ll", Missing, strlen(Missing), &M);
  assert_non_null(Err);
  assert_string_equal(orc_rt_Error_getMessage(Err),
                      "gone.ll: Symbols not found: [ gone ]");
  orc_rt_Error_consume(Err);
  M = load(F, "answer.ll", Answer);
  void *P;
  Err = orc_rt_JitModule_lookup(M, "nope", &P);
  assert_non_null(Err);
  assert_non_null(strstr(orc_rt_Error_getMessage(Err), "nope"));
  assert_non_null(strstr(orc_rt_Error_getMessage(Err), "answer.ll"));
  orc_rt_Error_consume(Err);
  orc_rt_JitModule_unload(M, NULL, NULL);
  Err = orc_rt_Jit_loadFile(F->J, "/nonexistent/dir/m.ll", &M);
  assert_non_null(Err);
  assert_non_null(
      strstr(orc_rt_Error_getMessage(Err), "/nonexistent/dir/m.ll"));
  orc_rt_Error_consume(Err);
}

/* What is no module is refused, as glibc's dlopen refuses it: no bytes
 * (LLVM would read an empty module), a directory, a device that never ends;
 * and arguments that are not there. */
static void whatIsNoModuleIsAnError(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = NULL;
  static const struct {
    const char *Path, *Want;
  } Files[] = {{"/tmp", "/tmp: Could not open input file: Is a directory"},
               {"/dev/zero", "/dev/zero: Could not open input file: not a "
                             "regular file"},
               {NULL, "orc_rt_Jit_loadFile: the path is NULL"}};
  for (size_t I = 0; I < sizeof(Files) / sizeof(Files[0]); ++I) {
    orc_rt_ErrorRef Err = orc_rt_Jit_loadFile(F->J, Files[I].Path, &M);
    assert_non_null(Err);
    assert_string_equal(orc_rt_Error_getMessage(Err), Files[I].Want);
    orc_rt_Error_consume(Err);
  }
  orc_rt_ErrorRef Err = orc_rt_Jit_loadMemory(F->J, "empty.ll", "", 0, &M);
  assert_non_null(Err);
  assert_non_null(strstr(orc_rt_Error_getMessage(Err),
                         "empty.ll: file too short: empty (0 bytes)"));
  orc_rt_Error_consume(Err);
  Err = orc_rt_Jit_loadMemory(F->J, NULL, Answer, strlen(Answer), &M);
  assert_non_null(Err);
  assert_string_equal(orc_rt_Error_getMessage(Err),
                      "orc_rt_Jit_loadMemory: the name is NULL");
  orc_rt_Error_consume(Err);
  Err = orc_rt_Jit_loadMemory(F->J, "null.ll", NULL, 4, &M);
  assert_non_null(Err);
  assert_string_equal(orc_rt_Error_getMessage(Err),
                      "orc_rt_Jit_loadMemory: null.ll: the data is NULL");
  orc_rt_Error_consume(Err);
  assert_null(M);
}

static void badOptionsAreRefused(void **State) {
  Fixture *F = *State;
  orc_rt_JitOptions O;
  orc_rt_JitOptions_init(&O);
  assert_int_equal(O.OptLevel, 2);
  assert_false(O.Lazy);
  assert_null(O.ObjectCacheDir);
  O.OptLevel = 4;
  orc_rt_JitRef J2 = NULL;
  orc_rt_ErrorRef Err = orc_rt_Jit_create(&J2, F->S, &O);
  assert_non_null(Err);
  assert_non_null(strstr(orc_rt_Error_getMessage(Err), "OptLevel"));
  orc_rt_Error_consume(Err);
  assert_null(J2);
}

/* A Jit is refused by a Session whose shutdown has begun (it would be freed
 * at once), while the call inside it still runs and after it has ended. */
static orc_rt_SessionRef CreatingOn;
static orc_rt_ErrorRef CreateErr;
static void createInside(void *Ctx) {
  (void)Ctx;
  orc_rt_Session_shutdown(CreatingOn, NULL, NULL);
  orc_rt_JitRef J = NULL;
  CreateErr = orc_rt_Jit_create(&J, CreatingOn, NULL);
  assert_null(J);
}

static void aSessionShuttingDownRefusesANewJit(void **State) {
  Fixture *F = *State;
  CreatingOn = F->S;
  assert_true(orc_rt_Session_callManagedCode(F->S, createInside, NULL));
  assert_non_null(CreateErr);
  assert_string_equal(orc_rt_Error_getMessage(CreateErr),
                      "orc_rt_Jit_create: the Session is shutting down");
  orc_rt_Error_consume(CreateErr);
  assert_null(orc_rt_Session_waitForShutdown(F->S));
  orc_rt_JitRef J = NULL;
  orc_rt_ErrorRef Err = orc_rt_Jit_create(&J, F->S, NULL);
  assert_non_null(Err);
  assert_string_equal(orc_rt_Error_getMessage(Err),
                      "orc_rt_Jit_create: the Session is shutting down");
  orc_rt_Error_consume(Err);
  assert_null(J);
}

/*---- Constructors, destructors, atexit ----*/

static const char *Lifecycle =
    "declare void @record(ptr)\n"
    "declare i32 @atexit(ptr)\n"
    "@c = private constant [5 x i8] c\"ctor\\00\"\n"
    "@d = private constant [5 x i8] c\"dtor\\00\"\n"
    "@h = private constant [7 x i8] c\"atexit\\00\"\n"
    "@w = private constant [5 x i8] c\"work\\00\"\n"
    "define internal void @handler() {\n"
    "  call void @record(ptr @h)\n"
    "  ret void\n"
    "}\n"
    "define internal void @ctor() {\n"
    "  call void @record(ptr @c)\n"
    "  %r = call i32 @atexit(ptr @handler)\n"
    "  ret void\n"
    "}\n"
    "define internal void @dtor() {\n"
    "  call void @record(ptr @d)\n"
    "  ret void\n"
    "}\n"
    "define void @work() {\n"
    "  call void @record(ptr @w)\n"
    "  ret void\n"
    "}\n"
    "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] "
    "[{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]\n"
    "@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] "
    "[{ i32, ptr, ptr } { i32 65535, ptr @dtor, ptr null }]\n";

static void freed(void *Ctx) { atomic_fetch_add((atomic_int *)Ctx, 1); }

static void unloadRunsDestructorsAndHandlersAsDlclose(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  orc_rt_JitModuleRef M = load(F, "lifecycle.ll", Lifecycle);
  assert_string_equal(Log, "ctor ");
  void *Work;
  assert_null(orc_rt_JitModule_lookup(M, "work", &Work));
  ((void (*)(void))(uintptr_t)Work)();
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed);
  assert_string_equal(Log, "ctor work dtor atexit ");
  assert_int_equal(atomic_load(&Freed), 1); /* no call was inside it */
}

/* A C++ static object's way: a function called after the load registers
 * a handler with the module's __dso_handle (its only use of it; under Lazy
 * its body is compiled on that call). Unloading runs it, as dlclose does. */
static const char *RegistersLater =
    "declare void @record(ptr)\n"
    "declare i32 @__cxa_atexit(ptr, ptr, ptr)\n"
    "@__dso_handle = external hidden global i8\n"
    "@s = private constant [7 x i8] c\"static\\00\"\n"
    "define internal void @destroy(ptr %p) {\n"
    "  call void @record(ptr %p)\n"
    "  ret void\n"
    "}\n"
    "define void @construct() {\n"
    "  %r = call i32 @__cxa_atexit(ptr @destroy, ptr @s, ptr @__dso_handle)\n"
    "  ret void\n"
    "}\n";

/* Priorities order constructors and destructors as a shared object's:
 * constructors from the lowest priority (65535, no priority, last),
 * destructors in the opposite order, each priority's in module order. */
static const char *Prioritized =
    "declare void @record(ptr)\n"
    "@a = private constant [5 x i8] c\"c200\\00\"\n"
    "@b = private constant [5 x i8] c\"c101\\00\"\n"
    "@c = private constant [3 x i8] c\"c-\\00\"\n"
    "@d = private constant [5 x i8] c\"d200\\00\"\n"
    "@e = private constant [5 x i8] c\"d101\\00\"\n"
    "@f = private constant [3 x i8] c\"d-\\00\"\n"
    "define internal void @ca() {\n  call void @record(ptr @a)\n  ret void\n}\n"
    "define internal void @cb() {\n  call void @record(ptr @b)\n  ret void\n}\n"
    "define internal void @cc() {\n  call void @record(ptr @c)\n  ret void\n}\n"
    "define internal void @da() {\n  call void @record(ptr @d)\n  ret void\n}\n"
    "define internal void @db() {\n  call void @record(ptr @e)\n  ret void\n}\n"
    "define internal void @dc() {\n  call void @record(ptr @f)\n  ret void\n}\n"
    "@llvm.global_ctors = appending global [3 x { i32, ptr, ptr }] "
    "[{ i32, ptr, ptr } { i32 65535, ptr @cc, ptr null }, "
    "{ i32, ptr, ptr } { i32 200, ptr @ca, ptr null }, "
    "{ i32, ptr, ptr } { i32 101, ptr @cb, ptr null }]\n"
    "@llvm.global_dtors = appending global [3 x { i32, ptr, ptr }] "
    "[{ i32, ptr, ptr } { i32 65535, ptr @dc, ptr null }, "
    "{ i32, ptr, ptr } { i32 101, ptr @db, ptr null }, "
    "{ i32, ptr, ptr } { i32 200, ptr @da, ptr null }]\n";

static void constructorsAndDestructorsRunByPriority(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  orc_rt_JitModuleRef M = load(F, "prioritized.ll", Prioritized);
  assert_string_equal(Log, "c101 c200 c- ");
  orc_rt_JitModule_unload(M, NULL, NULL);
  assert_string_equal(Log, "c101 c200 c- d- d200 d101 ");
}

static void aHandlerRegisteredAfterTheLoadRunsAtUnload(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  orc_rt_JitModuleRef M = load(F, "later.ll", RegistersLater);
  ((void (*)(void))(uintptr_t)entry(M, "construct"))();
  assert_string_equal(Log, "");
  orc_rt_JitModule_unload(M, NULL, NULL);
  assert_string_equal(Log, "static ");
}

static void shutdownFinalizesModulesStillLoaded(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  load(F, "lifecycle.ll", Lifecycle);
  assert_string_equal(Log, "ctor ");
  orc_rt_Session_shutdown(F->S, NULL, NULL);
  assert_string_equal(Log, "ctor dtor atexit ");
}

/* A module whose destructor records "loader" and loads Lifecycle: at the
 * Session's shutdown the module loaded meanwhile is finalized too (its
 * constructor, destructor and handler all run), after the one that loaded
 * it. */
static Fixture *LoadingFixture;
static void hostLoadLifecycle(void) {
  orc_rt_JitModuleRef M;
  orc_rt_ErrorRef Err = orc_rt_Jit_loadMemory(LoadingFixture->J, "lifecycle.ll",
                                              Lifecycle, strlen(Lifecycle), &M);
  record(Err ? "refused" : "loaded");
  orc_rt_Error_consume(Err);
}

static const char *LoadsInItsDestructor =
    "declare void @record(ptr)\n"
    "declare void @host_load_lifecycle()\n"
    "@n = private constant [7 x i8] c\"loader\\00\"\n"
    "define internal void @dtor() {\n"
    "  call void @record(ptr @n)\n"
    "  call void @host_load_lifecycle()\n"
    "  ret void\n"
    "}\n"
    "@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] "
    "[{ i32, ptr, ptr } { i32 65535, ptr @dtor, ptr null }]\n";

static void shutdownFinalizesModulesDestructorsLoad(void **State) {
  Fixture *F = *State;
  LoadingFixture = F;
  Log[0] = 0;
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  assert_null(orc_rt_Jit_addSymbol(F->J, "host_load_lifecycle",
                                   (void *)(uintptr_t)hostLoadLifecycle));
  load(F, "loader.ll", LoadsInItsDestructor);
  orc_rt_Session_shutdown(F->S, NULL, NULL);
  assert_string_equal(Log, "loader ctor loaded dtor atexit ");
}

/* A module whose destructor records "unloader" and unloads another one
 * (Victim), as a library's destructor may dlclose another: the unloading
 * module's destructor runs once, and both go. */
static orc_rt_JitModuleRef Victim;
static atomic_int VictimFreed;
static void hostUnloadVictim(void) {
  orc_rt_JitModule_unload(Victim, freed, &VictimFreed);
}

static const char *UnloadsInItsDestructor =
    "declare void @record(ptr)\n"
    "declare void @host_unload_victim()\n"
    "@n = private constant [9 x i8] c\"unloader\\00\"\n"
    "define internal void @dtor() {\n"
    "  call void @record(ptr @n)\n"
    "  call void @host_unload_victim()\n"
    "  ret void\n"
    "}\n"
    "@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] "
    "[{ i32, ptr, ptr } { i32 65535, ptr @dtor, ptr null }]\n";

static void aDestructorUnloadingAnotherModuleRunsOnce(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  atomic_store(&VictimFreed, 0);
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  assert_null(orc_rt_Jit_addSymbol(F->J, "host_unload_victim",
                                   (void *)(uintptr_t)hostUnloadVictim));
  Victim = load(F, "lifecycle.ll", Lifecycle);
  orc_rt_JitModuleRef M = load(F, "unloader.ll", UnloadsInItsDestructor);
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed);
  assert_string_equal(Log, "ctor unloader dtor atexit ");
  assert_int_equal(atomic_load(&Freed), 1);
  assert_int_equal(atomic_load(&VictimFreed), 1);
}

/* The same destructor unloading its own module: a second unload of a
 * module does nothing (Jit.h): the destructor runs once and the module goes
 * once, with the first unload's OnFreed. */
static void aSecondUnloadByTheModulesOwnDestructorDoesNothing(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  atomic_store(&VictimFreed, 0);
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  assert_null(orc_rt_Jit_addSymbol(F->J, "host_unload_victim",
                                   (void *)(uintptr_t)hostUnloadVictim));
  orc_rt_JitModuleRef M = load(F, "unloader.ll", UnloadsInItsDestructor);
  Victim = M;
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed);
  assert_string_equal(Log, "unloader ");
  assert_int_equal(atomic_load(&Freed), 1);
  assert_int_equal(atomic_load(&VictimFreed), 0);
}

/* A module unloaded after the Session's shutdown finalized it: its OnFreed
 * runs once its code is freed, with the whole Jit after the drain. */
static void
onFreedOfAModuleUnloadedAfterShutdownRunsWhenTheJitGoes(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  orc_rt_JitModuleRef M = load(F, "lifecycle.ll", Lifecycle);
  atomic_int Freed = 0;
  assert_null(orc_rt_Session_detach(F->S, NULL, NULL));
  assert_string_equal(Log, "ctor dtor atexit "); /* finalized by the detach */
  orc_rt_JitModule_unload(M, freed, &Freed);
  assert_string_equal(Log, "ctor dtor atexit "); /* not again */
  assert_int_equal(atomic_load(&Freed), 0);
  orc_rt_Session_shutdown(F->S, NULL, NULL);
  orc_rt_TaskQueue_runAll(F->Q);
  assert_int_equal(atomic_load(&Freed), 1);
}

/*---- Unloading under a live frame; stale calls ----*/

static Latch Inside, Release;
static void hostBlock(void) {
  latch_set(&Inside);
  latch_wait(&Release);
}

static const char *Blocking = "declare void @host_block()\n"
                              "define i32 @blocks() {\n"
                              "  call void @host_block()\n"
                              "  ret i32 7\n"
                              "}\n";

static void *callBlocks(void *Fn) {
  return (void *)(intptr_t)((int (*)(void))(uintptr_t)Fn)();
}

static void codeIsFreedOnlyAfterTheLastFrameReturns(void **State) {
  Fixture *F = *State;
  latch_init(&Inside);
  latch_init(&Release);
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "host_block", (void *)(uintptr_t)hostBlock));
  orc_rt_JitModuleRef M = load(F, "blocking.ll", Blocking);
  void *Fn;
  assert_null(orc_rt_JitModule_lookup(M, "blocks", &Fn));
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, callBlocks, Fn), 0);
  latch_wait(&Inside);
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed); /* returns at once */
  assert_int_equal(atomic_load(&Freed), 0);  /* a frame is inside */
  latch_set(&Release);
  void *Ret;
  pthread_join(T, &Ret);
  assert_int_equal((int)(intptr_t)Ret, 7); /* it finished in its code */
  assert_int_equal(atomic_load(&Freed), 1);
  latch_destroy(&Inside);
  latch_destroy(&Release);
}

/* A version's last call may return while another thread is loading a
 * module: the returning thread frees the version's code and gives its cache
 * entry back, and must not wait for the load. Here the loading thread's
 * constructor even waits for it (joins it): when freeing took the load's
 * lock, this deadlocked. */
static pthread_t Blocked;
static void hostJoinBlocked(void) {
  latch_set(&Release);
  struct timespec Deadline;
  clock_gettime(CLOCK_REALTIME, &Deadline);
  Deadline.tv_sec += 30;
  record(pthread_timedjoin_np(Blocked, NULL, &Deadline) ? "stuck" : "joined");
}

static const char *Joiner = "declare void @host_join_blocked()\n"
                            "define internal void @ctor() {\n"
                            "  call void @host_join_blocked()\n"
                            "  ret void\n"
                            "}\n"
                            "@llvm.global_ctors = appending global [1 x { i32, "
                            "ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr "
                            "@ctor, ptr null }]\n";

static void aLastCallReturningDuringALoadDoesNotWaitForIt(void **State) {
  Fixture *F = *State;
  latch_init(&Inside);
  latch_init(&Release);
  Log[0] = 0;
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "host_block", (void *)(uintptr_t)hostBlock));
  assert_null(orc_rt_Jit_addSymbol(F->J, "host_join_blocked",
                                   (void *)(uintptr_t)hostJoinBlocked));
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  orc_rt_JitModuleRef M = load(F, "blocking.ll", Blocking);
  void *Fn;
  assert_null(orc_rt_JitModule_lookup(M, "blocks", &Fn));
  assert_int_equal(pthread_create(&Blocked, NULL, callBlocks, Fn), 0);
  latch_wait(&Inside);
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed); /* the call inside holds it */
  load(F, "joiner.ll", Joiner); /* its constructor lets the call return */
  assert_string_equal(Log, "joined ");
  assert_int_equal(atomic_load(&Freed), 1);
  latch_destroy(&Inside);
  latch_destroy(&Release);
}

/* The Session's shutdown with a call still inside a module: the module is
 * finalized at once, the Jit (and the code) goes only after the drain, once
 * that call has returned. Were the code freed earlier, the call would return
 * into unmapped memory. */
static void jitIsFreedAfterTheDrainWithACallStillInside(void **State) {
  Fixture *F = *State;
  latch_init(&Inside);
  latch_init(&Release);
  Log[0] = 0;
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "host_block", (void *)(uintptr_t)hostBlock));
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  load(F, "lifecycle.ll", Lifecycle);
  orc_rt_JitModuleRef M = load(F, "blocking.ll", Blocking);
  void *Fn;
  assert_null(orc_rt_JitModule_lookup(M, "blocks", &Fn));
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, callBlocks, Fn), 0);
  latch_wait(&Inside);
  atomic_int Done = 0;
  assert_null(orc_rt_Session_shutdown(F->S, freed, &Done));
  orc_rt_TaskQueue_runAll(F->Q);
  assert_string_equal(Log, "ctor dtor atexit "); /* finalized at once */
  assert_int_equal(atomic_load(&Done), 0);       /* the drain waits */
  latch_set(&Release);
  void *Ret;
  pthread_join(T, &Ret);
  assert_int_equal((int)(intptr_t)Ret, 7);
  orc_rt_TaskQueue_runAll(F->Q);
  assert_int_equal(atomic_load(&Done), 1);
  latch_destroy(&Inside);
  latch_destroy(&Release);
}

/* A compiled module the cache directory cannot take still loads; the host
 * hears of it through the Session's error reporter. */
static void aCacheThatCannotStoreIsReportedNotFatal(void **State) {
  (void)State;
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  assert_null(
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, reportTo, NULL));
  char Dir[] = "/tmp/orc-rt-c-jittest-XXXXXX";
  assert_non_null(mkdtemp(Dir));
  orc_rt_JitOptions O;
  orc_rt_JitOptions_init(&O);
  O.ObjectCacheDir = Dir;
  orc_rt_JitRef J;
  assert_null(orc_rt_Jit_create(&J, S, &O));
  blockDir(Dir);
  Reported[0] = 0;
  orc_rt_JitModuleRef M;
  assert_null(
      orc_rt_Jit_loadMemory(J, "answer.ll", Answer, strlen(Answer), &M));
  void *Fn;
  assert_null(orc_rt_JitModule_lookup(M, "answer", &Fn));
  assert_int_equal(((int (*)(void))(uintptr_t)Fn)(), 42);
  if (!strstr(Reported, "object cache") || !strstr(Reported, Dir))
    fail_msg("reported: '%s'", Reported);
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
  assert_int_equal(unlink(Dir), 0);
}

static void staleCallGoesToTheHandler(void **State) {
  Fixture *F = *State;
  orc_rt_Jit_setStaleCallHandler(F->J, onStale, NULL);
  orc_rt_JitModuleRef M = load(F, "answer.ll", Answer);
  void *Fn;
  assert_null(orc_rt_JitModule_lookup(M, "answer", &Fn));
  assert_int_equal(((int (*)(void))(uintptr_t)Fn)(), 42);
  orc_rt_JitModule_unload(M, NULL, NULL);
  StaleWhat[0] = 0;
  if (!setjmp(StaleJump)) {
    ((int (*)(void))(uintptr_t)Fn)();
    fail_msg("a call into an unloaded module returned");
  }
  assert_string_equal(StaleWhat, "answer in answer.ll");
}

/* A stale call made from inside another module (a callback it kept of a
 * module since unloaded), whose handler longjmps out: the caller's frame is
 * left without returning, and its token comes back when the thread, having
 * reused the stack there, unloads that module (or shuts the Session down),
 * so the module is freed and the drain does not wait for it. Whatever kind of stub the call went through
 * (the first call of a thread takes the entries' C path). */
static const char *Provider = "define i32 @provided() {\n  ret i32 5\n}\n";
static const char *Caller = "@callback = global ptr null\n"
                            "define void @keep(ptr %f) {\n"
                            "  store ptr %f, ptr @callback\n"
                            "  ret void\n"
                            "}\n"
                            "define i32 @callBack() {\n"
                            "  %f = load ptr, ptr @callback\n"
                            "  %r = call i32 %f()\n"
                            "  ret i32 %r\n"
                            "}\n";

/* Unloads M from a frame that has used the stack below this one, where the
 * frame the longjmp left was (as any call made from there does). */
static __attribute__((noinline)) void
unloadAfterUsingTheStack(orc_rt_JitModuleRef M, atomic_int *Freed) {
  volatile char Used[512];
  for (size_t I = 0; I < sizeof(Used); ++I)
    Used[I] = (char)I;
  orc_rt_JitModule_unload(M, freed, Freed);
}

static void aFrameTheStaleHandlerLeftGivesItsTokenBack(void **State) {
  Fixture *F = *State;
  orc_rt_Jit_setStaleCallHandler(F->J, onStale, NULL);
  for (int Round = 0; Round < 2; ++Round) { /* the C path, then the fast one */
    orc_rt_JitModuleRef B = load(F, "provider.ll", Provider);
    orc_rt_JitModuleRef A = load(F, "caller.ll", Caller);
    ((void (*)(void *))(uintptr_t)entry(A, "keep"))(entry(B, "provided"));
    int (*CallBack)(void) = (int (*)(void))(uintptr_t)entry(A, "callBack");
    assert_int_equal(CallBack(), 5);
    orc_rt_JitModule_unload(B, NULL, NULL);
    StaleWhat[0] = 0;
    if (!setjmp(StaleJump)) {
      CallBack();
      fail_msg("a call into an unloaded module returned");
    }
    assert_string_equal(StaleWhat, "provided in provider.ll");
    atomic_int Freed = 0;
    unloadAfterUsingTheStack(A, &Freed);
    assert_int_equal(atomic_load(&Freed), 1);
  }
}

/* A timer's signal handler calls the module's entries while the thread it
 * interrupts is calling them too, so that signals land inside the entries'
 * own instructions: both calls return their answers. Before the entries
 * wrote a call's shadow entry again once it was live, a handler that came
 * between its write and the stack's bump left its own values there, and the
 * interrupted call's return ended the process ("internal error ... counted
 * as gone"). Both kinds of entry: the register-only one (one argument) and
 * the general one (seven: one on the stack). Runs until 2,000 ticks have
 * come, whatever the machine's speed (or 100 million rounds, should no timer
 * fire). */
static const char *TwoEntries = "define i64 @one(i64 %x) {\n"
                                "  %m = mul i64 %x, 3\n"
                                "  %r = add i64 %m, 1\n"
                                "  ret i64 %r\n"
                                "}\n"
                                "define i64 @seven(i64 %a, i64 %b, i64 %c, "
                                "i64 %d, i64 %e, i64 %f, i64 %g) {\n"
                                "  %s = add i64 %a, %g\n"
                                "  ret i64 %s\n"
                                "}\n";
static long (*TickOne)(long);
static long (*TickSeven)(long, long, long, long, long, long, long);
static volatile sig_atomic_t Ticks;
static volatile sig_atomic_t TickWrong;

static void onTick(int Sig) {
  (void)Sig;
  long X = Ticks;
  TickWrong += TickOne(X) != 3 * X + 1;
  TickWrong += TickSeven(X, 0, 0, 0, 0, 0, 5) != X + 5;
  Ticks = (sig_atomic_t)(X + 1);
}

/* Loads TwoEntries and calls each entry once (a thread's first call takes
 * the C path), then makes onTick Sig's handler (Old: the one before);
 * returns the number of wrong answers. */
static long startTicking(Fixture *F, orc_rt_JitModuleRef *M, int Sig,
                         struct sigaction *Old) {
  *M = load(F, "two.ll", TwoEntries);
  TickOne = (long (*)(long))(uintptr_t)entry(*M, "one");
  TickSeven = (long (*)(long, long, long, long, long, long, long))(
      uintptr_t)entry(*M, "seven");
  long Wrong = (TickOne(1) != 4) + (TickSeven(1, 0, 0, 0, 0, 0, 2) != 3);
  Ticks = 0;
  TickWrong = 0;
  struct sigaction SA;
  memset(&SA, 0, sizeof(SA));
  SA.sa_handler = onTick;
  SA.sa_flags = SA_RESTART;
  assert_int_equal(sigaction(Sig, &SA, Old), 0);
  return Wrong;
}

/* Gives Sig its handler back, checks the handler's answers, unloads M. */
static void stopTicking(orc_rt_JitModuleRef M, int Sig,
                        const struct sigaction *Old) {
  sigaction(Sig, Old, NULL);
  assert_int_equal(TickWrong, 0);
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed);
  assert_int_equal(atomic_load(&Freed), 1);
}

static void
aSignalHandlerCallingEntriesLeavesTheCallItInterruptsIntact(void **State) {
  orc_rt_JitModuleRef M;
  struct sigaction Old;
  long Wrong = startTicking(*State, &M, SIGALRM, &Old);
  struct itimerval T = {{0, 50}, {0, 50}}, Off = {{0, 0}, {0, 0}};
  assert_int_equal(setitimer(ITIMER_REAL, &T, NULL), 0);
  for (long I = 0; Ticks < 2000 && I < 100000000; ++I) {
    Wrong += TickOne(I) != 3 * I + 1;
    Wrong += TickSeven(I, 1, 2, 3, 4, 5, 6) != I + 6;
  }
  setitimer(ITIMER_REAL, &Off, NULL);
  assert_int_equal(Wrong, 0);
  stopTicking(M, SIGALRM, &Old);
}

/* The same, with a signal at every instruction boundary of a call through
 * each kind of entry (the trap flag: the kernel sends SIGTRAP after each
 * instruction, clears the flag for the handler and puts it back at its
 * return), so that whatever the timer above hits by chance is hit every
 * time. Two handlers in a row find what the one before left: before an
 * entry's slot was left vacant at each return, the handler after the
 * entry's bump of the stack took the previous handler's values in it for a
 * frame left by longjmp and gave back the interrupted call's token, and that
 * call's return ended the process ("internal error ... counted as gone"). */
static void stepping(bool On) {
  if (On)
    __asm__ volatile("pushfq\n\torq $0x100, (%%rsp)\n\tpopfq" ::
                         : "memory", "cc");
  else
    __asm__ volatile("pushfq\n\tandq $~0x100, (%%rsp)\n\tpopfq" ::
                         : "memory", "cc");
}

static void
aSignalAtEveryInstructionOfACallThroughAnEntryLeavesItIntact(void **State) {
#if defined(__SANITIZE_THREAD__)
  /* TSan's own atomics take locks: a trap inside one, whose handler's call
   * makes another on the same address, waits for ever (and TSan holds back
   * the timeout's SIGTERM). A TSan build runs only the entries' C path (its
   * tokens are in fallback mode), which JitTest-fallback steps through in the
   * other builds. (cmocka's skip() reads as a failure to the suite's TAP
   * count: said, as TokenModeTest says it.) */
  printf("# not under TSan (its atomics take locks); skipped\n");
  return;
#endif
  orc_rt_JitModuleRef M;
  struct sigaction Old;
  long Wrong = startTicking(*State, &M, SIGTRAP, &Old);
  stepping(true);
  long One = TickOne(7);
  long Seven = TickSeven(7, 1, 2, 3, 4, 5, 6);
  stepping(false);
  long Steps = Ticks;
  assert_int_equal(One, 22);
  assert_int_equal(Seven, 13);
  assert_int_equal(Wrong, 0);
  /* Each entry's own instructions, and the functions', were stepped. */
  assert_true(Steps > 40);
  stopTicking(M, SIGTRAP, &Old);
}

/* A host's handler on an alternate signal stack of its own (heap memory)
 * calls an entry whose function leaves by siglongjmp (through a host
 * function): that frame is gone, not suspended as a coroutine's would be,
 * and its token comes back at the thread's next call through an entry, so
 * the unload frees the module at once. Before, it was kept for good: the
 * module was never freed and Session_destroy waited for it forever. Run on
 * a thread of its own, whose end gives back whatever it still holds, so that
 * a broken rule fails the case instead of hanging it. */
static const char *Leaper = "declare void @host_leap()\n"
                            "define i32 @leap() {\n"
                            "  call void @host_leap()\n"
                            "  ret i32 1\n"
                            "}\n"
                            "define i32 @one() {\n"
                            "  ret i32 1\n"
                            "}\n";
static _Thread_local sigjmp_buf LeapBack;
static void hostLeap(void) { siglongjmp(LeapBack, 1); }
static int (*LeapEntry)(void);
static void onLeapSignal(int Sig) {
  (void)Sig;
  LeapEntry();
}

typedef struct {
  orc_rt_JitModuleRef M;
  int (*One)(void);
  atomic_int Freed;
  int FreedAtUnload;
  long Ones;
} AltStackCase;

static void *leaveFromTheAlternateStack(void *Arg) {
  AltStackCase *C = Arg;
  C->Ones += C->One();         /* the thread's first call through an entry */
  if (!sigsetjmp(LeapBack, 1)) /* leap's first call, not in a handler */
    LeapEntry();
  size_t Size = 256 * 1024;
  stack_t Alt = {.ss_sp = malloc(Size), .ss_size = Size};
  sigaltstack(&Alt, NULL);
  for (volatile int I = 0; I < 3; ++I) /* (volatile: across siglongjmp) */
    if (!sigsetjmp(LeapBack, 1))
      raise(SIGUSR1); /* to this thread */
  for (int I = 0; I < 100; ++I)
    C->Ones += C->One();
  orc_rt_JitModule_unload(C->M, freed, &C->Freed);
  C->FreedAtUnload = atomic_load(&C->Freed);
  stack_t Off = {.ss_flags = SS_DISABLE};
  sigaltstack(&Off, NULL);
  free(Alt.ss_sp);
  return NULL;
}

static void aFrameLeftOnAnAlternateSignalStackGivesItsTokenBack(void **State) {
  Fixture *F = *State;
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "host_leap", (void *)(uintptr_t)hostLeap));
  AltStackCase C = {.M = load(F, "leaper.ll", Leaper)};
  LeapEntry = (int (*)(void))(uintptr_t)entry(C.M, "leap");
  C.One = (int (*)(void))(uintptr_t)entry(C.M, "one");
  struct sigaction SA, Old;
  memset(&SA, 0, sizeof(SA));
  SA.sa_handler = onLeapSignal;
  SA.sa_flags = SA_ONSTACK;
  assert_int_equal(sigaction(SIGUSR1, &SA, &Old), 0);
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, leaveFromTheAlternateStack, &C), 0);
  pthread_join(T, NULL);
  sigaction(SIGUSR1, &Old, NULL);
  assert_int_equal(C.Ones, 101);
  assert_int_equal(C.FreedAtUnload, 1);
}

/* A module's C++ thread_local destructor (registered with
 * __cxa_thread_atexit, as clang's code does) runs when its thread ends, also
 * after the module was unloaded, and the module's code stays until it has
 * run, as glibc keeps a library with one pending loaded past dlclose: the
 * unload's OnFreed comes after the thread's end. Before, the destructor's
 * pointer was a stale call by then, and the thread's end aborted the
 * process. A thread whose destructor is still pending when the Jit goes
 * (its Session's shutdown) runs none at its end: the code is gone. */
static const char *ThreadLocalWithDtor =
    "@tl = thread_local global i32 0\n"
    "@registered = thread_local global i1 false\n"
    "@__dso_handle = external hidden global i8\n"
    "declare i32 @__cxa_thread_atexit(ptr, ptr, ptr)\n"
    "declare void @host_dtor_ran(i32)\n"
    "declare ptr @llvm.threadlocal.address.p0(ptr)\n"
    "define internal void @dtor(ptr %p) {\n"
    "  %v = load i32, ptr %p\n"
    "  call void @host_dtor_ran(i32 %v)\n"
    "  ret void\n"
    "}\n"
    "define i32 @touch(i32 %x) {\n"
    "  %r = call ptr @llvm.threadlocal.address.p0(ptr @registered)\n"
    "  %t = call ptr @llvm.threadlocal.address.p0(ptr @tl)\n"
    "  %done = load i1, ptr %r\n"
    "  br i1 %done, label %set, label %reg\n"
    "reg:\n"
    "  store i1 true, ptr %r\n"
    "  %c = call i32 @__cxa_thread_atexit(ptr @dtor, ptr %t, "
    "ptr @__dso_handle)\n"
    "  br label %set\n"
    "set:\n"
    "  store i32 %x, ptr %t\n"
    "  ret i32 %x\n"
    "}\n";

static atomic_int DtorRanWith;
static void hostDtorRan(int V) { atomic_store(&DtorRanWith, V); }

typedef struct {
  int (*Touch)(int);
  int Value;
  pthread_mutex_t Lock;
  pthread_cond_t Go; /* signalled with Touched or MayEnd set */
  bool Touched, MayEnd;
} TouchingThread;

static void *touchThenWait(void *Arg) {
  TouchingThread *T = Arg;
  T->Touch(T->Value);
  pthread_mutex_lock(&T->Lock);
  T->Touched = true;
  pthread_cond_broadcast(&T->Go);
  while (!T->MayEnd)
    pthread_cond_wait(&T->Go, &T->Lock);
  pthread_mutex_unlock(&T->Lock);
  return NULL;
}

static void waitForTouch(TouchingThread *T) {
  pthread_mutex_lock(&T->Lock);
  while (!T->Touched)
    pthread_cond_wait(&T->Go, &T->Lock);
  pthread_mutex_unlock(&T->Lock);
}

static void letEnd(TouchingThread *T, pthread_t Thread) {
  pthread_mutex_lock(&T->Lock);
  T->MayEnd = true;
  pthread_cond_broadcast(&T->Go);
  pthread_mutex_unlock(&T->Lock);
  pthread_join(Thread, NULL);
}

/* Loads the module and starts a thread that touches its thread_local with
 * Value (registering the destructor) and waits for letEnd. */
static orc_rt_JitModuleRef startTouching(Fixture *F, TouchingThread *T,
                                         pthread_t *Thread) {
  assert_null(orc_rt_Jit_addSymbol(F->J, "host_dtor_ran",
                                   (void *)(uintptr_t)hostDtorRan));
  orc_rt_JitModuleRef M = load(F, "tls.ll", ThreadLocalWithDtor);
  T->Touch = (int (*)(int))(uintptr_t)entry(M, "touch");
  pthread_mutex_init(&T->Lock, NULL);
  pthread_cond_init(&T->Go, NULL);
  atomic_store(&DtorRanWith, 0);
  assert_int_equal(pthread_create(Thread, NULL, touchThenWait, T), 0);
  waitForTouch(T);
  return M;
}

static void
aThreadLocalDestructorRunsAtItsThreadsEndAfterTheUnload(void **State) {
  TouchingThread T = {.Value = 42};
  pthread_t Thread;
  orc_rt_JitModuleRef M = startTouching(*State, &T, &Thread);
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed);
  assert_int_equal(atomic_load(&Freed), 0); /* the destructor is pending */
  letEnd(&T, Thread);
  assert_int_equal(atomic_load(&DtorRanWith), 42);
  assert_int_equal(atomic_load(&Freed), 1);
}

static void
aThreadLocalDestructorPendingWhenTheJitGoesDoesNotRun(void **State) {
  Fixture *F = *State;
  TouchingThread T = {.Value = 7};
  pthread_t Thread;
  startTouching(F, &T, &Thread);
  orc_rt_Session_destroy(F->S); /* the Jit goes, its code with it */
  F->S = NULL;
  letEnd(&T, Thread);
  assert_int_equal(atomic_load(&DtorRanWith), 0);
}

/* Four threads call all along while the module is unloaded: each call
 * returns the module's answer or, once it is gone, goes to the stale-call
 * handler; none crashes, and the code is freed once all are out. */
static _Thread_local jmp_buf ThreadStale;
static void onStaleThread(const char *Function, const char *Module, void *Ctx) {
  (void)Function, (void)Module;
  atomic_fetch_add((atomic_long *)Ctx, 1);
  longjmp(ThreadStale, 1);
}

typedef struct {
  void *Fn;
  atomic_bool *Started;
  long Answers, Wrong;
} UnloadCaller;

static void *callUntilStale(void *Arg) {
  UnloadCaller *C = Arg;
  if (setjmp(ThreadStale))
    return NULL; /* the stale-call handler: the module is gone */
  for (;;) {
    int R = ((int (*)(void))(uintptr_t)C->Fn)();
    C->Wrong += R != 7;
    if (++C->Answers == 1000)
      atomic_store(C->Started, true);
  }
}

static void
unloadWhileThreadsCallEndsEachCallInTheAnswerOrTheHandler(void **State) {
  Fixture *F = *State;
  atomic_long Stale = 0;
  orc_rt_Jit_setStaleCallHandler(F->J, onStaleThread, &Stale);
  orc_rt_JitModuleRef M = load(F, "seven.ll",
                               "define i32 @seven() {\n"
                               "  ret i32 7\n"
                               "}\n");
  void *Fn;
  assert_null(orc_rt_JitModule_lookup(M, "seven", &Fn));
  atomic_bool Started[4];
  UnloadCaller C[4];
  pthread_t T[4];
  for (int I = 0; I < 4; ++I) {
    atomic_init(&Started[I], false);
    C[I] = (UnloadCaller){.Fn = Fn, .Started = &Started[I]};
    assert_int_equal(pthread_create(&T[I], NULL, callUntilStale, &C[I]), 0);
  }
  for (int I = 0; I < 4; ++I)
    while (!atomic_load(&Started[I]))
      sched_yield();
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed);
  for (int I = 0; I < 4; ++I) {
    pthread_join(T[I], NULL);
    assert_int_equal(C[I].Wrong, 0);
  }
  assert_int_equal(atomic_load(&Stale), 4); /* each thread's last call */
  assert_int_equal(atomic_load(&Freed), 1);
}

/*---- The process's thread_locals ----*/

/* A module may use a thread_local the process defines (libstdc++'s
 * call_once state, glibc's errno): it reaches this thread's copy. Without
 * the Jit's thread_local helper the load failed ("Symbols not found"). */
static const char *UsesErrno = "@errno = external thread_local global i32\n"
                               "define void @set_errno(i32 %v) {\n"
                               "  store i32 %v, ptr @errno\n"
                               "  ret void\n"
                               "}\n";

static void *setErrnoOnAnotherThread(void *Fn) {
  errno = 0;
  ((void (*)(int))(uintptr_t)Fn)(77);
  return (void *)(intptr_t)errno;
}

static void aModuleReachesTheProcesssThreadLocals(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "errno.ll", UsesErrno);
  void *Fn = entry(M, "set_errno");
  errno = 0;
  ((void (*)(int))(uintptr_t)Fn)(1234);
  assert_int_equal(errno, 1234);
  pthread_t T;
  void *Other;
  assert_int_equal(pthread_create(&T, NULL, setErrnoOnAnotherThread, Fn), 0);
  pthread_join(T, &Other);
  assert_int_equal((int)(intptr_t)Other, 77);
  assert_int_equal(errno, 1234); /* this thread's copy is its own */
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/* A module's own exported thread_local loads (it failed: "Symbols not
 * found: [ x ]"), is per thread, and is the one another module that declares
 * it uses; the module's lookup of it gives the calling thread's copy, as
 * glibc's dlsym does. */
static const char *DefinesTLS = "@x = thread_local global i32 5\n"
                                "define i32 @get_x() {\n"
                                "  %v = load i32, ptr @x\n"
                                "  ret i32 %v\n"
                                "}\n"
                                "define void @set_x(i32 %v) {\n"
                                "  store i32 %v, ptr @x\n"
                                "  ret void\n"
                                "}\n";
static const char *DeclaresTLS = "@x = external thread_local global i32\n"
                                 "define i32 @other_get_x() {\n"
                                 "  %v = load i32, ptr @x\n"
                                 "  ret i32 %v\n"
                                 "}\n";

typedef struct {
  void *Get, *OtherGet;
  orc_rt_JitModuleRef M;
  int Seen, OtherSeen, Looked;
  void *Addr;
} TLSProbe;

static void *probeTLS(void *Arg) {
  TLSProbe *P = Arg;
  P->Seen = ((int (*)(void))(uintptr_t)P->Get)();
  P->OtherSeen = ((int (*)(void))(uintptr_t)P->OtherGet)();
  orc_rt_ErrorRef Err = orc_rt_JitModule_lookup(P->M, "x", &P->Addr);
  P->Looked = Err ? -1 : *(int *)P->Addr;
  orc_rt_Error_consume(Err);
  return NULL;
}

static void
aModulesThreadLocalIsPerThreadAndSharedWithModulesUsingIt(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "tls.ll", DefinesTLS);
  orc_rt_JitModuleRef U = load(F, "tls-user.ll", DeclaresTLS);
  TLSProbe Here = {
      entry(M, "get_x"), entry(U, "other_get_x"), M, 0, 0, 0, NULL};
  ((void (*)(int))(uintptr_t)entry(M, "set_x"))(7);
  probeTLS(&Here);
  assert_int_equal(Here.Seen, 7);
  assert_int_equal(Here.OtherSeen, 7);
  assert_int_equal(Here.Looked, 7);
  TLSProbe There = Here;
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, probeTLS, &There), 0);
  pthread_join(T, NULL);
  assert_int_equal(There.Seen, 5); /* its own copy, from the initializer */
  assert_int_equal(There.OtherSeen, 5);
  assert_int_equal(There.Looked, 5);
  assert_ptr_not_equal(There.Addr, Here.Addr);
  orc_rt_JitModule_unload(U, NULL, NULL);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/*---- Modules using each other ----*/

static const char *User = "declare i32 @answer()\n"
                          "define i32 @twice_answer() {\n"
                          "  %a = call i32 @answer()\n"
                          "  %r = mul i32 %a, 2\n"
                          "  ret i32 %r\n"
                          "}\n";

static void moduleUsedByAnotherStaysUntilThatOneGoes(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef A = load(F, "answer.ll", Answer);
  orc_rt_JitModuleRef B = load(F, "user.ll", User);
  void *Fn;
  assert_null(orc_rt_JitModule_lookup(B, "twice_answer", &Fn));
  assert_int_equal(((int (*)(void))(uintptr_t)Fn)(), 84);
  atomic_int FreedA = 0, FreedB = 0;
  orc_rt_JitModule_unload(A, freed, &FreedA);
  assert_int_equal(atomic_load(&FreedA), 0); /* B bound its symbols */
  assert_int_equal(((int (*)(void))(uintptr_t)Fn)(), 86);
  orc_rt_JitModule_unload(B, freed, &FreedB);
  assert_int_equal(atomic_load(&FreedB), 1);
  assert_int_equal(atomic_load(&FreedA), 1); /* then A goes with it */
}

/*---- The object cache ----*/

static size_t countEntries(const char *Dir) {
  size_t N = 0;
  DIR *D = opendir(Dir);
  assert_non_null(D);
  for (struct dirent *E; (E = readdir(D));)
    N += strstr(E->d_name, ".orcobj") != NULL;
  closedir(D);
  return N;
}

/* A module compiled by one Jit is stored by content and linked from the store
 * by another (a later process would be the same); different bytes are another
 * entry. That a hit compiles nothing is shown for the same cache under
 * mini-lli's dlopen (test/dlopen/module-loaded-in-a-later-run-...). */
static void objectCacheKeepsModulesByContent(void **State) {
  Fixture *F = *State;
  char Dir[] = "/tmp/orc-rt-c-jittest-XXXXXX";
  assert_non_null(mkdtemp(Dir));
  orc_rt_JitOptions O;
  orc_rt_JitOptions_init(&O);
  O.ObjectCacheDir = Dir;
  for (int Round = 0; Round < 2; ++Round) {
    orc_rt_JitRef J;
    assert_null(orc_rt_Jit_create(&J, F->S, &O));
    orc_rt_JitModuleRef M;
    assert_null(
        orc_rt_Jit_loadMemory(J, "answer.ll", Answer, strlen(Answer), &M));
    void *Fn;
    assert_null(orc_rt_JitModule_lookup(M, "answer", &Fn));
    assert_int_equal(((int (*)(void))(uintptr_t)Fn)(), 42);
    assert_int_equal(countEntries(Dir), 1);
    orc_rt_JitModule_unload(M, NULL, NULL);
  }
  char Edited[512];
  snprintf(Edited, sizeof(Edited), "; edited\n%s", Answer);
  orc_rt_JitModuleRef M;
  orc_rt_JitRef J;
  assert_null(orc_rt_Jit_create(&J, F->S, &O));
  assert_null(
      orc_rt_Jit_loadMemory(J, "edited.ll", Edited, strlen(Edited), &M));
  assert_int_equal(countEntries(Dir), 2);
  removeDir(Dir);
}

/*---- Two JITs ----*/

static void twoJitsKnowNothingOfEachOther(void **State) {
  Fixture *F = *State;
  orc_rt_JitRef J2;
  assert_null(orc_rt_Jit_create(&J2, F->S, NULL));
  orc_rt_JitModuleRef A = load(F, "answer.ll", Answer);
  orc_rt_JitModuleRef B;
  const char *Other = "@counter = global i32 99\n"
                      "define i32 @answer() {\n"
                      "  %v = load i32, ptr @counter\n"
                      "  ret i32 %v\n"
                      "}\n";
  assert_null(orc_rt_Jit_loadMemory(J2, "other.ll", Other, strlen(Other), &B));
  void *FA, *FB;
  assert_null(orc_rt_JitModule_lookup(A, "answer", &FA));
  assert_null(orc_rt_JitModule_lookup(B, "answer", &FB));
  assert_int_equal(((int (*)(void))(uintptr_t)FA)(), 42);
  assert_int_equal(((int (*)(void))(uintptr_t)FB)(), 99);
  /* A module of one JIT does not see the other's exports. */
  orc_rt_JitModuleRef U;
  orc_rt_ErrorRef Err =
      orc_rt_Jit_loadMemory(J2, "user.ll", User, strlen(User), &U);
  assert_null(Err); /* it binds J2's own answer */
  void *Twice;
  assert_null(orc_rt_JitModule_lookup(U, "twice_answer", &Twice));
  assert_int_equal(((int (*)(void))(uintptr_t)Twice)(), 198);
  orc_rt_JitModule_unload(A, NULL, NULL);
  assert_int_equal(((int (*)(void))(uintptr_t)FB)(), 99);
}

/*---- The default stale-call handler, in a process of its own ----*/

/* Run as this program with ORC_RT_C_STALE_CHILD set: a call through an
 * entry of an unloaded module, with no handler set. Does not return. */
static int staleChild(void) {
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  orc_rt_JitRef J;
  orc_rt_JitModuleRef M;
  void *Fn;
  if (orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL) ||
      orc_rt_Jit_create(&J, S, NULL) ||
      orc_rt_Jit_loadMemory(J, "answer.ll", Answer, strlen(Answer), &M) ||
      orc_rt_JitModule_lookup(M, "answer", &Fn))
    return 3;
  orc_rt_JitModule_unload(M, NULL, NULL);
  ((int (*)(void))(uintptr_t)Fn)();
  return 4; /* not reached: the handler aborts */
}

extern char **environ;

/* By default a stale call is one line on stderr naming the function and the
 * module, then abort (orc-rt-c/Jit.h). */
static void theDefaultStaleCallHandlerNamesTheCallAndAborts(void **State) {
  (void)State;
  int Err[2];
  assert_int_equal(pipe(Err), 0);
  posix_spawn_file_actions_t A;
  posix_spawn_file_actions_init(&A);
  posix_spawn_file_actions_adddup2(&A, Err[1], 2);
  posix_spawn_file_actions_addclose(&A, Err[0]);
  char *Argv[] = {"JitTest", NULL};
  size_t N = 0;
  while (environ[N])
    ++N;
  char **Env = calloc(N + 2, sizeof(char *));
  memcpy(Env, environ, N * sizeof(char *));
  Env[N] = "ORC_RT_C_STALE_CHILD=1";
  pid_t Pid;
  assert_int_equal(posix_spawn(&Pid, "/proc/self/exe", &A, NULL, Argv, Env), 0);
  posix_spawn_file_actions_destroy(&A);
  free(Env);
  close(Err[1]);
  char Out[4096];
  size_t Len = 0;
  ssize_t R;
  while (Len < sizeof(Out) - 1 &&
         (R = read(Err[0], Out + Len, sizeof(Out) - 1 - Len)) > 0)
    Len += (size_t)R;
  Out[Len] = 0;
  close(Err[0]);
  int Status;
  assert_int_equal(waitpid(Pid, &Status, 0), Pid);
  if (!WIFSIGNALED(Status) || WTERMSIG(Status) != SIGABRT)
    fail_msg("the child did not abort (status %#x); stderr: %s", Status, Out);
  assert_string_equal(Out, "orc-rt-c: error: call to 'answer' in module "
                           "'answer.ll', which has been unloaded or whose "
                           "current version does not define it\n");
}

int main(void) {
  if (getenv("ORC_RT_C_STALE_CHILD"))
    return staleChild();
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(theDefaultStaleCallHandlerNamesTheCallAndAborts),
      cmocka_unit_test_setup_teardown(loadedFunctionIsCalledThroughItsEntry,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aNameAModuleBoundFromTheProcessCanStillBeAdded, setUp, tearDown),
      cmocka_unit_test_setup_teardown(hostSymbolsComeBeforeOtherModulesExports,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(moduleCallsHostSymbolsAndTheProcesss,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          badModulesAreErrorsNamingTheModuleAndTheCause, setUp, tearDown),
      cmocka_unit_test_setup_teardown(badOptionsAreRefused, setUp, tearDown),
      cmocka_unit_test_setup_teardown(whatIsNoModuleIsAnError, setUp, tearDown),
      cmocka_unit_test_setup_teardown(aSessionShuttingDownRefusesANewJit, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(constructorsAndDestructorsRunByPriority,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(unloadRunsDestructorsAndHandlersAsDlclose,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aHandlerRegisteredAfterTheLoadRunsAtUnload, setUp, tearDown),
      cmocka_unit_test_setup_teardown(shutdownFinalizesModulesStillLoaded,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(aDestructorUnloadingAnotherModuleRunsOnce,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aSecondUnloadByTheModulesOwnDestructorDoesNothing, setUp, tearDown),
      cmocka_unit_test_setup_teardown(shutdownFinalizesModulesDestructorsLoad,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          onFreedOfAModuleUnloadedAfterShutdownRunsWhenTheJitGoes, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(codeIsFreedOnlyAfterTheLastFrameReturns,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          jitIsFreedAfterTheDrainWithACallStillInside, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aLastCallReturningDuringALoadDoesNotWaitForIt, setUp, tearDown),
      cmocka_unit_test(aCacheThatCannotStoreIsReportedNotFatal),
      cmocka_unit_test_setup_teardown(
          unloadWhileThreadsCallEndsEachCallInTheAnswerOrTheHandler, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(
          aFrameTheStaleHandlerLeftGivesItsTokenBack, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aSignalHandlerCallingEntriesLeavesTheCallItInterruptsIntact, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(
          aSignalAtEveryInstructionOfACallThroughAnEntryLeavesItIntact, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(
          aFrameLeftOnAnAlternateSignalStackGivesItsTokenBack, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aThreadLocalDestructorRunsAtItsThreadsEndAfterTheUnload, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(
          aThreadLocalDestructorPendingWhenTheJitGoesDoesNotRun, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(staleCallGoesToTheHandler, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(
          aModulesThreadLocalIsPerThreadAndSharedWithModulesUsingIt, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(aModuleReachesTheProcesssThreadLocals,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(moduleUsedByAnotherStaysUntilThatOneGoes,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(objectCacheKeepsModulesByContent, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(twoJitsKnowNothingOfEachOther, setUp,
                                      tearDown),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
