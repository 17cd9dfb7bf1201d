/*===- unittests/JitReloadTest.c - orc_rt_JitModule_reload* --------------===*/
/* Hot reload's rules (orc-rt-c/Jit.h), each case failing if its rule breaks:
 * every entry, looked up before or after, calls the new code once the reload
 * returns; a call running in the old version finishes there, and the old
 * code stays until it returns; threads calling all along lose no call;
 * variables of the same name and type keep their storage, others start
 * afresh; destructors of the old version run before the new version's
 * constructors; a failed reload changes nothing; a function the new version
 * lacks is a stale call; a function pointer the old version handed out calls
 * the new version's function; other modules' calls follow the reload. */

#include "JitFixture.h"

#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>

static int call(void *Fn) { return ((int (*)(void))(uintptr_t)Fn)(); }

static void reload(orc_rt_JitModuleRef M, const char *IR) {
  orc_rt_ErrorRef Err = orc_rt_JitModule_reloadMemory(M, IR, strlen(IR));
  if (Err)
    fail_msg("%s", orc_rt_Error_getMessage(Err));
}

/* A module whose f returns N (and g returns N + 100). */
static char *version(int N, bool WithG) {
  static char Buf[8][256];
  char *B = Buf[N % 8];
  snprintf(B, sizeof(Buf[0]), "define i32 @f() {\n  ret i32 %d\n}\n%s", N,
           WithG ? "define i32 @g() {\n  %r = call i32 @f()\n"
                   "  %s = add i32 %r, 100\n  ret i32 %s\n}\n"
                 : "");
  return B;
}

/*---- The switch ----*/

static void everyEntryCallsTheNewCodeOnceReloadReturns(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "v.ll", version(1, true));
  void *Before = entry(M, "f"), *G = entry(M, "g");
  assert_int_equal(call(Before), 1);
  assert_int_equal(call(G), 101);
  reload(M, version(2, true));
  assert_int_equal(call(Before), 2);
  assert_int_equal(call(G), 102);
  assert_ptr_equal(entry(M, "f"), Before); /* one entry for the module's life */
  reload(M, version(3, true));
  assert_int_equal(call(Before), 3);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

static void newFunctionsCanBeLookedUpAndRemovedOnesAreStale(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "v.ll", version(1, false));
  void *Fn;
  orc_rt_ErrorRef Err = orc_rt_JitModule_lookup(M, "g", &Fn);
  assert_non_null(Err); /* not there yet */
  orc_rt_Error_consume(Err);
  reload(M, version(2, true));
  void *G = entry(M, "g");
  assert_int_equal(call(G), 102);
  reload(M, version(3, false));
  assert_int_equal(call(entry(M, "f")), 3);
  Err = orc_rt_JitModule_lookup(M, "g", &Fn); /* gone again */
  assert_non_null(Err);
  orc_rt_Error_consume(Err);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

static void aFunctionTheReloadRemovedIsAStaleCall(void **State) {
  Fixture *F = *State;
  orc_rt_Jit_setStaleCallHandler(F->J, onStale, NULL);
  orc_rt_JitModuleRef M = load(F, "v.ll", version(1, true));
  void *G = entry(M, "g");
  reload(M, version(2, false));
  StaleWhat[0] = 0;
  if (!setjmp(StaleJump)) {
    call(G);
    fail_msg("a call to a function the reload removed returned");
  }
  assert_string_equal(StaleWhat, "g in v.ll");
  reload(M, version(3, true)); /* back again: the same entry works */
  assert_int_equal(call(G), 103);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/*---- Calls running across the switch ----*/

static Latch Inside, Release;
static void hostBlock(void) {
  latch_set(&Inside);
  latch_wait(&Release);
}

/* blocks() waits in the host, then computes its answer in its own code: if
 * that code were freed under it, the call would crash. */
static const char *BlockingV1 = "declare void @host_block()\n"
                                "define i32 @blocks() {\n"
                                "  call void @host_block()\n"
                                "  ret i32 7\n"
                                "}\n";
static const char *BlockingV2 = "define i32 @blocks() {\n"
                                "  ret i32 8\n"
                                "}\n";

static void freed(void *Ctx) { atomic_fetch_add((atomic_int *)Ctx, 1); }

static void *callOnThread(void *Fn) { return (void *)(intptr_t)call(Fn); }

static void aRunningCallFinishesInTheOldCode(void **State) {
  Fixture *F = *State;
  latch_init(&Inside);
  latch_init(&Release);
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "host_block", (void *)(uintptr_t)hostBlock));
  orc_rt_JitModuleRef M = load(F, "blocking.ll", BlockingV1);
  void *Fn = entry(M, "blocks");
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, callOnThread, Fn), 0);
  latch_wait(&Inside);
  reload(M, BlockingV2); /* returns while the call is inside version 1 */
  assert_int_equal(call(Fn), 8);
  latch_set(&Release);
  void *Ret;
  pthread_join(T, &Ret);
  assert_int_equal((int)(intptr_t)Ret, 7); /* it finished in its code */
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed);
  assert_int_equal(atomic_load(&Freed), 1);
  latch_destroy(&Inside);
  latch_destroy(&Release);
}

/* Four threads call f all along, until they see the last version; every
 * answer must be a version's, never an older one after a newer. */
enum { Reloads = 40 };
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

static void threadsCallingAllAlongLoseNoCall(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "v.ll", version(1, false));
  Caller C[4];
  pthread_t T[4];
  for (int I = 0; I < 4; ++I) {
    C[I] = (Caller){.Fn = entry(M, "f")};
    assert_int_equal(pthread_create(&T[I], NULL, keepCalling, &C[I]), 0);
  }
  for (int N = 2; N <= Reloads; ++N) {
    reload(M, version(N, false));
    assert_int_equal(call(entry(M, "f")), N);
  }
  for (int I = 0; I < 4; ++I) { /* each ends once it has seen the last */
    pthread_join(T[I], NULL);
    assert_int_equal(C[I].Wrong, 0);
    assert_true(C[I].Calls > 0);
  }
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, freed, &Freed);
  assert_int_equal(atomic_load(&Freed), 1);
}

/*---- Failures change nothing ----*/

static void aFailedReloadKeepsTheOldVersionServing(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "v.ll", version(1, true));
  void *Fn = entry(M, "f");
  static const struct {
    const char *IR, *Want;
  } Bad[] = {
      {"define i32 @f( {", "v.ll"},                    /* malformed */
      {"define i32 @f() {\n  ret i64 1\n}\n", "v.ll"}, /* fails to verify */
      {"declare i32 @nowhere()\ndefine i32 @f() {\n"
       "  %r = call i32 @nowhere()\n  ret i32 %r\n}\n",
       "nowhere"},                          /* a symbol missing */
      {"\x42\x43\xc0\xde garbage", "v.ll"}, /* bad bitcode */
      {"", "empty (0 bytes)"},              /* a file being rewritten */
  };
  for (size_t I = 0; I < sizeof(Bad) / sizeof(Bad[0]); ++I) {
    orc_rt_ErrorRef Err =
        orc_rt_JitModule_reloadMemory(M, Bad[I].IR, strlen(Bad[I].IR));
    assert_non_null(Err);
    if (!strstr(orc_rt_Error_getMessage(Err), Bad[I].Want))
      fail_msg("error '%s' lacks '%s'", orc_rt_Error_getMessage(Err),
               Bad[I].Want);
    orc_rt_Error_consume(Err);
    assert_int_equal(call(Fn), 1);
    assert_int_equal(call(entry(M, "g")), 101);
  }
  orc_rt_ErrorRef Err =
      orc_rt_JitModule_reloadFile(M, "/nonexistent/dir/v2.ll");
  assert_non_null(Err);
  assert_non_null(
      strstr(orc_rt_Error_getMessage(Err), "/nonexistent/dir/v2.ll"));
  orc_rt_Error_consume(Err);
  reload(M, version(2, true)); /* and a good one still works */
  assert_int_equal(call(Fn), 2);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/* Path with Text written to it (a file of the test's own). */
static void writeFile(char *Path, const char *Text) {
  int Fd = mkstemp(Path);
  assert_true(Fd >= 0);
  size_t N = strlen(Text);
  assert_int_equal(write(Fd, Text, N), (ssize_t)N);
  close(Fd);
}

/* A reload's error names the file the new bytes came from, not the one the
 * module was loaded from; a file that is empty or no file at all is an
 * error too, and the old version serves on. */
static void aFailedReloadNamesTheFileItRead(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "v.ll", version(1, true));
  void *Fn = entry(M, "f");
  char Invalid[] = "/tmp/orc-rt-c-reload-invalid-XXXXXX";
  char Missing[] = "/tmp/orc-rt-c-reload-missing-XXXXXX";
  char Empty[] = "/tmp/orc-rt-c-reload-empty-XXXXXX";
  writeFile(Invalid, "define i32 @f() {\n  %a = add i32 %b, 1\n"
                     "  %b = add i32 1, 1\n  ret i32 %a\n}\n");
  writeFile(Missing, "declare i32 @nowhere()\ndefine i32 @f() {\n"
                     "  %r = call i32 @nowhere()\n  ret i32 %r\n}\n");
  writeFile(Empty, "");
  static const char *Why[] = {"invalid module", "nowhere", "empty (0 bytes)",
                              "Is a directory"};
  const char *Paths[] = {Invalid, Missing, Empty, "/tmp"};
  for (size_t I = 0; I < 4; ++I) {
    orc_rt_ErrorRef Err = orc_rt_JitModule_reloadFile(M, Paths[I]);
    assert_non_null(Err);
    const char *Msg = orc_rt_Error_getMessage(Err);
    if (strncmp(Msg, Paths[I], strlen(Paths[I])) || !strstr(Msg, Why[I]))
      fail_msg("error '%s' does not start with '%s' or lacks '%s'", Msg,
               Paths[I], Why[I]);
    orc_rt_Error_consume(Err);
    assert_int_equal(call(Fn), 1);
  }
  unlink(Invalid);
  unlink(Missing);
  unlink(Empty);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/* A file an editor rewrites in place (truncated, then written in pieces)
 * while the host reloads from it: each reload reads a whole version, a
 * shorter prefix of one (which may fail to parse: an error, the old version
 * serving) or nothing (refused as empty) -- never a crash. The versions are
 * 20 KB (f first, then comments): LLVM maps files of 16 KiB and more, and a
 * mapping of a file that shrinks under it raised SIGBUS. */
typedef struct {
  const char *Path;
  atomic_bool Stop;
} Rewriter;

static char *paddedVersion(int N) {
  static char Buf[2][520 * 1024];
  char *B = Buf[N % 2];
  int Len =
      snprintf(B, sizeof(Buf[0]), "define i32 @f() {\n  ret i32 %d\n}\n", N);
  while (Len < 512 * 1024)
    Len +=
        snprintf(B + Len, sizeof(Buf[0]) - (size_t)Len,
                 "; padding that makes the file larger than a page %d\n", Len);
  return B;
}

static void *rewriteInPlace(void *Arg) {
  Rewriter *R = Arg;
  for (int N = 0; !atomic_load(&R->Stop); ++N) {
    const char *Text = paddedVersion(1 + N % 2);
    int Fd = open(R->Path, O_WRONLY | O_TRUNC);
    if (Fd < 0) /* (the reloads then see one file: the case fails nothing) */
      break;
    for (size_t Off = 0, Len = strlen(Text); Off < Len; Off += 65536) {
      size_t Piece = Len - Off < 65536 ? Len - Off : 65536;
      if (write(Fd, Text + Off, Piece) != (ssize_t)Piece)
        break;
    }
    close(Fd);
  }
  return NULL;
}

static void aFileRewrittenInPlaceWhileReloadedIsAnErrorNotACrash(void **State) {
  Fixture *F = *State;
  char Path[] = "/tmp/orc-rt-c-reload-rewritten-XXXXXX";
  writeFile(Path, paddedVersion(1));
  orc_rt_JitModuleRef M = NULL;
  orc_rt_ErrorRef Err = orc_rt_Jit_loadFile(F->J, Path, &M);
  if (Err)
    fail_msg("%s", orc_rt_Error_getMessage(Err));
  void *Fn = entry(M, "f");
  Rewriter R = {.Path = Path};
  pthread_t Writer;
  assert_int_equal(pthread_create(&Writer, NULL, rewriteInPlace, &R), 0);
  for (int I = 0; I < 300; ++I) {
    orc_rt_Error_consume(orc_rt_JitModule_reloadFile(M, Path));
    int V = call(Fn);
    assert_true(V == 1 || V == 2);
  }
  atomic_store(&R.Stop, true);
  pthread_join(Writer, NULL);
  unlink(Path);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/*---- Constructors and destructors ----*/

/* A module whose constructor and destructor record cN and dN. */
static char *lifecycle(int N) {
  static char Buf[2][1024];
  char *B = Buf[N % 2];
  snprintf(B, sizeof(Buf[0]),
           "declare void @record(ptr)\n"
           "@c = private constant [3 x i8] c\"c%d\\00\"\n"
           "@d = private constant [3 x i8] c\"d%d\\00\"\n"
           "define internal void @ctor() {\n  call void @record(ptr @c)\n"
           "  ret void\n}\n"
           "define internal void @dtor() {\n  call void @record(ptr @d)\n"
           "  ret void\n}\n"
           "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] "
           "[{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]\n"
           "@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] "
           "[{ i32, ptr, ptr } { i32 65535, ptr @dtor, ptr null }]\n",
           N, N);
  return B;
}

static void oldDestructorsRunBeforeNewConstructors(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  orc_rt_JitModuleRef M = load(F, "life.ll", lifecycle(1));
  reload(M, lifecycle(2));
  assert_string_equal(Log, "c1 d1 c2 ");
  orc_rt_JitModule_unload(M, NULL, NULL);
  assert_string_equal(Log, "c1 d1 c2 d2 ");
}

/* A module whose constructor calls host_hook, which reloads the module being
 * reloaded (refused: the reload under way finishes) or unloads it (it goes
 * when that reload returns). */
static const char *HookedConstructor =
    "declare void @host_hook()\n"
    "define i32 @f() {\n  ret i32 1\n}\n"
    "define internal void @ctor() {\n"
    "  call void @host_hook()\n"
    "  ret void\n"
    "}\n"
    "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] "
    "[{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]\n";

static orc_rt_JitModuleRef Hooked;
static bool HookUnloads;
static atomic_int HookFreed;
static void hookFreed(void *Ctx) { atomic_fetch_add((atomic_int *)Ctx, 1); }

static void hostHook(void) {
  if (!Hooked) /* (the load's constructor) */
    return;
  orc_rt_JitModuleRef M = Hooked;
  Hooked = NULL; /* (once: the reload below would run it again) */
  if (HookUnloads) {
    orc_rt_JitModule_unload(M, hookFreed, &HookFreed);
    record(atomic_load(&HookFreed) ? "freed" : "unload-waits");
    return;
  }
  orc_rt_ErrorRef Err = orc_rt_JitModule_reloadMemory(
      M, HookedConstructor, strlen(HookedConstructor));
  record(Err && strstr(orc_rt_Error_getMessage(Err), "a reload of it is under")
             ? "refused"
             : "not-refused");
  orc_rt_Error_consume(Err);
}

/* Loads the hooked module, then reloads it with the hook on: the hook
 * unloads it (Unloads) or reloads it. */
static orc_rt_JitModuleRef reloadWithTheHook(Fixture *F, bool Unloads) {
  Log[0] = 0;
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "host_hook", (void *)(uintptr_t)hostHook));
  Hooked = NULL;
  orc_rt_JitModuleRef M = load(F, "hooked.ll", HookedConstructor);
  Hooked = M;
  HookUnloads = Unloads;
  reload(M, HookedConstructor);
  return M;
}

static void aConstructorsReloadOfTheModuleBeingReloadedIsRefused(void **State) {
  orc_rt_JitModuleRef M = reloadWithTheHook(*State, false);
  assert_string_equal(Log, "refused ");
  assert_int_equal(call(entry(M, "f")), 1); /* the outer reload finished */
  orc_rt_JitModule_unload(M, NULL, NULL);
}

static void
aConstructorsUnloadOfTheModuleBeingReloadedWaitsForItsEnd(void **State) {
  atomic_store(&HookFreed, 0);
  reloadWithTheHook(*State, true);
  assert_string_equal(Log, "unload-waits ");
  assert_int_equal(atomic_load(&HookFreed), 1); /* unloaded as reload ended */
}

/* A call that a host callback leaves by longjmp leaves its frames in the
 * module (under Tiered, the version's and its tier-0 code's), and a reload
 * supersedes that version. The next call on the thread finds the frames gone
 * and gives their tokens back innermost first, as returns would: the tier-0
 * code's group completes before the version's, whose completion frees the
 * tier-0 bookkeeping (under AddressSanitizer, the other order is a
 * use-after-free). */
static jmp_buf LeapOut;
static void hostLeap(void) { longjmp(LeapOut, 1); }
static const char *Leaper = "declare void @host_leap()\n"
                            "define i32 @f(i32 %x) {\n"
                            "  %y = add i32 %x, 1\n"
                            "  ret i32 %y\n"
                            "}\n"
                            "define i32 @leap(i32 %x) {\n"
                            "  call void @host_leap()\n"
                            "  ret i32 %x\n"
                            "}\n";

static void
framesALongjmpLeftBeforeAReloadGiveTheirTokensBackInnermostFirst(void **State) {
  Fixture *F = *State;
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "host_leap", (void *)(uintptr_t)hostLeap));
  orc_rt_JitModuleRef M = load(F, "leaper.ll", Leaper);
  int (*Fn)(int) = (int (*)(int))(uintptr_t)entry(M, "f");
  int (*Leap)(int) = (int (*)(int))(uintptr_t)entry(M, "leap");
  assert_int_equal(Fn(1), 2);
  if (!setjmp(LeapOut)) {
    Leap(1);
    fail_msg("host_leap returned");
  }
  reload(M, Leaper);
  int Sum = 0;
  for (int I = 0; I < 5; ++I)
    Sum += Fn(I);
  assert_int_equal(Sum, 15);
  atomic_int Freed = 0;
  orc_rt_JitModule_unload(M, hookFreed, &Freed);
  assert_int_equal(atomic_load(&Freed), 1);
}

/*---- Variables ----*/

/* count (exported) and hits (static) are i32 and i64 in every version;
 * shape's type is {i32, i32} (Shape 0), {i32, i64} (1), or {i32, i64} aligned
 * to 64 bytes (2); limit is a constant.
 * bump() adds Step to count and 1 to hits; the getters read them. */
static char *withState(int Step, int Shape, int Limit) {
  static char Buf[2][1024];
  char *B = Buf[Step % 2];
  snprintf(B, sizeof(Buf[0]),
           "@count = global i32 0\n"
           "@hits = internal global i64 0\n"
           "@shape = global { i32, %s } { i32 7, %s 7 }%s\n"
           "@limit = constant i32 %d\n"
           "define i32 @bump() {\n"
           "  %%c = load i32, ptr @count\n"
           "  %%n = add i32 %%c, %d\n"
           "  store i32 %%n, ptr @count\n"
           "  %%h = load i64, ptr @hits\n"
           "  %%h1 = add i64 %%h, 1\n"
           "  store i64 %%h1, ptr @hits\n"
           "  ret i32 %%n\n"
           "}\n"
           "define i32 @getHits() {\n"
           "  %%h = load i64, ptr @hits\n"
           "  %%r = trunc i64 %%h to i32\n"
           "  ret i32 %%r\n"
           "}\n"
           "define i32 @getShape() {\n"
           "  %%s = load i32, ptr @shape\n"
           "  ret i32 %%s\n"
           "}\n"
           "define i32 @setShape(i32 %%v) {\n"
           "  store i32 %%v, ptr @shape\n"
           "  ret i32 %%v\n"
           "}\n"
           "define i32 @getLimit() {\n"
           "  %%l = load i32, ptr @limit\n"
           "  ret i32 %%l\n"
           "}\n",
           Shape ? "i64" : "i32", Shape ? "i64" : "i32",
           Shape == 2 ? ", align 64" : "", Limit, Step);
  return B;
}

static int call1(void *Fn, int A) { return ((int (*)(int))(uintptr_t)Fn)(A); }

static void variablesOfTheSameNameAndTypeKeepTheirStorage(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "state.ll", withState(1, 0, 5));
  void *Bump = entry(M, "bump"), *Hits = entry(M, "getHits");
  int *Count = entry(M, "count");
  assert_int_equal(call(Bump), 1);
  assert_int_equal(call(Bump), 2);
  reload(M, withState(10, 0, 6));
  /* One storage: the address looked up before is the variable now. */
  assert_ptr_equal(entry(M, "count"), Count);
  assert_int_equal(call(Bump), 12);
  assert_int_equal(*Count, 12);
  assert_int_equal(call(Hits), 3); /* a static is kept too */
  *Count = 100;
  reload(M, withState(1, 0, 7)); /* and across several reloads */
  assert_int_equal(call(Bump), 101);
  assert_int_equal(call(Hits), 4);
  assert_int_equal(call(entry(M, "getLimit")), 7); /* constants start afresh */
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/* A common (tentative) variable, as C compiled with -fcommon makes, is a
 * variable like another: it loads and a reload keeps it. An
 * available_externally one is a copy of one defined elsewhere (here, the
 * host's), to which the module binds. Both failed to load. */
static const char *CommonAndElsewhere =
    "@com = common global i32 0, align 4\n"
    "@aeg = available_externally global i32 16, align 4\n"
    "define i32 @bump() {\n"
    "  %c = load i32, ptr @com\n"
    "  %n = add i32 %c, 1\n"
    "  store i32 %n, ptr @com\n"
    "  %a = load i32, ptr @aeg\n"
    "  %r = add i32 %n, %a\n"
    "  ret i32 %r\n"
    "}\n";

static int Aeg = 100;

static void
commonAndAvailableExternallyVariablesLoadAndCommonOnesAreKept(void **State) {
  Fixture *F = *State;
  assert_null(orc_rt_Jit_addSymbol(F->J, "aeg", &Aeg));
  orc_rt_JitModuleRef M = load(F, "common.ll", CommonAndElsewhere);
  void *Bump = entry(M, "bump");
  assert_int_equal(call(Bump), 101);
  assert_int_equal(call(Bump), 102);
  reload(M, CommonAndElsewhere);
  assert_int_equal(call(Bump), 103);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

static void aVariableWhoseTypeChangedStartsFromItsInitializer(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "state.ll", withState(1, 0, 5));
  assert_int_equal(call1(entry(M, "setShape"), 42), 42);
  reload(M, withState(1, 0, 5));
  assert_int_equal(call(entry(M, "getShape")), 42);
  reload(M, withState(1, 1, 5)); /* {i32, i32} -> {i32, i64} */
  assert_int_equal(call(entry(M, "getShape")), 7);
  call1(entry(M, "setShape"), 43);
  reload(M, withState(1, 1, 5)); /* the new type is kept from here on */
  assert_int_equal(call(entry(M, "getShape")), 43);
  reload(M, withState(1, 2, 5)); /* aligned to 64: not the same storage */
  assert_int_equal(call(entry(M, "getShape")), 7);
  assert_int_equal((uintptr_t)entry(M, "shape") % 64, 0);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/* A variable the new version does not define is gone: a later version that
 * defines it again starts from its initializer. */
static void aVariableAVersionDroppedStartsAfresh(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "state.ll", withState(1, 0, 5));
  call(entry(M, "bump"));
  reload(M, version(1, false));
  orc_rt_ErrorRef Err = orc_rt_JitModule_lookup(M, "count", &(void *){NULL});
  assert_non_null(Err);
  orc_rt_Error_consume(Err);
  reload(M, withState(1, 0, 5));
  assert_int_equal(call(entry(M, "bump")), 1);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/* A variable an alias names is not kept -- a kept variable is a
 * declaration, which an alias cannot name -- and the reload still succeeds:
 * the alias and the variable start from the new version's initializer and
 * name one storage, while a variable no alias names is kept. Before, every
 * reload of such a module failed ("Symbols not found: [ va ]"), even with the
 * same bytes. */
static const char *Aliased = "@v = global i32 7\n"
                             "@va = alias i32, ptr @v\n"
                             "@kept = global i32 0\n"
                             "define i32 @bumpBoth() {\n"
                             "  %a = load i32, ptr @va\n"
                             "  %a1 = add i32 %a, 1\n"
                             "  store i32 %a1, ptr @va\n"
                             "  %k = load i32, ptr @kept\n"
                             "  %k1 = add i32 %k, 1\n"
                             "  store i32 %k1, ptr @kept\n"
                             "  %s = mul i32 %a1, 100\n"
                             "  %r = add i32 %s, %k1\n"
                             "  ret i32 %r\n"
                             "}\n";

static void
aVariableAnAliasNamesStartsAfreshAndTheReloadSucceeds(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "aliased.ll", Aliased);
  assert_int_equal(call(entry(M, "bumpBoth")), 801);
  assert_int_equal(call(entry(M, "bumpBoth")), 902);
  reload(M, Aliased); /* the same bytes */
  assert_int_equal(call(entry(M, "bumpBoth")), 803);
  assert_ptr_equal(entry(M, "va"), entry(M, "v"));
  assert_int_equal(*(int *)entry(M, "va"), 8);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/* Code still running in the old version and the new version's code write
 * one variable, not two copies. */
static char *countAfterWait(int Step) {
  static char Buf[2][512];
  char *B = Buf[Step % 2];
  snprintf(B, sizeof(Buf[0]),
           "@count = global i32 0\n"
           "declare void @host_block()\n"
           "define i32 @waitThenBump() {\n"
           "  call void @host_block()\n"
           "  %%c = load i32, ptr @count\n"
           "  %%n = add i32 %%c, %d\n"
           "  store i32 %%n, ptr @count\n"
           "  ret i32 %%n\n"
           "}\n"
           "define i32 @bump() {\n"
           "  %%c = load i32, ptr @count\n"
           "  %%n = add i32 %%c, %d\n"
           "  store i32 %%n, ptr @count\n"
           "  ret i32 %%n\n"
           "}\n",
           Step, Step);
  return B;
}

static void theOldCodeStillRunningWritesTheKeptVariable(void **State) {
  Fixture *F = *State;
  latch_init(&Inside);
  latch_init(&Release);
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "host_block", (void *)(uintptr_t)hostBlock));
  orc_rt_JitModuleRef M = load(F, "wait.ll", countAfterWait(1));
  pthread_t T;
  assert_int_equal(
      pthread_create(&T, NULL, callOnThread, entry(M, "waitThenBump")), 0);
  latch_wait(&Inside);
  reload(M, countAfterWait(10));
  assert_int_equal(call(entry(M, "bump")), 10);
  latch_set(&Release);
  void *Old;
  pthread_join(T, &Old);
  assert_int_equal((int)(intptr_t)Old, 11); /* the old code saw the new 10 */
  assert_int_equal(call(entry(M, "bump")), 21);
  orc_rt_JitModule_unload(M, NULL, NULL);
  latch_destroy(&Inside);
  latch_destroy(&Release);
}

/* The files in Dir, each as name, inode and modification time: a file
 * written again (in place or renamed over) shows. */
static void snapshot(const char *Dir, char *Out, size_t Size) {
  Out[0] = 0;
  DIR *D = opendir(Dir);
  char Path[512], Item[600];
  for (struct dirent *E; D && (E = readdir(D));) {
    struct stat St;
    snprintf(Path, sizeof(Path), "%s/%s", Dir, E->d_name);
    if (E->d_name[0] == '.' || stat(Path, &St))
      continue;
    snprintf(Item, sizeof(Item), "%s:%lu:%ld.%ld ", E->d_name,
             (unsigned long)St.st_ino, (long)St.st_mtim.tv_sec,
             St.st_mtim.tv_nsec);
    strncat(Out, Item, Size - strlen(Out) - 1);
  }
  if (D)
    closedir(D);
}

/* A version taken from the object cache keeps variables as a compiled one:
 * the second Jit compiles nothing (no file of the cache is written again),
 * yet its reload keeps count. */
static void aVersionFromTheObjectCacheKeepsVariablesToo(void **State) {
  Fixture *F = *State;
  char Dir[] = "/tmp/orc-rt-c-jitreload-XXXXXX";
  assert_non_null(mkdtemp(Dir));
  orc_rt_JitOptions O;
  orc_rt_JitOptions_init(&O);
  O.ObjectCacheDir = Dir;
  for (int Run = 0; Run < 2; ++Run) {
    orc_rt_JitRef J;
    assert_null(orc_rt_Jit_create(&J, F->S, &O));
    static char Before[4096], After[4096];
    snapshot(Dir, Before, sizeof(Before));
    const char *V1 = withState(1, 0, 5);
    orc_rt_JitModuleRef M;
    assert_null(orc_rt_Jit_loadMemory(J, "state.ll", V1, strlen(V1), &M));
    call(entry(M, "bump"));
    call(entry(M, "bump"));
    reload(M, withState(10, 0, 5));
    assert_int_equal(call(entry(M, "bump")), 12);
    assert_int_equal(call(entry(M, "getHits")), 3);
    snapshot(Dir, After, sizeof(After));
    if (Run == 1)
      assert_string_equal(After, Before);
    else
      assert_string_not_equal(After, Before);
    orc_rt_JitModule_unload(M, NULL, NULL);
  }
  removeDir(Dir);
}

/*---- Function pointers and other modules ----*/

/* callback() hands out a pointer to an internal function. */
static char *withCallback(int N) {
  static char Buf[2][256];
  char *B = Buf[N % 2];
  snprintf(B, sizeof(Buf[0]),
           "define internal i32 @cb() {\n  ret i32 %d\n}\n"
           "define ptr @callback() {\n  ret ptr @cb\n}\n",
           N);
  return B;
}

static void aHandedOutFunctionPointerCallsTheNewVersion(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "cb.ll", withCallback(1));
  void *Cb = ((void *(*)(void))(uintptr_t)entry(M, "callback"))();
  assert_int_equal(call(Cb), 1);
  reload(M, withCallback(2));
  assert_int_equal(call(Cb), 2);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

static void anotherModulesCallsFollowTheReload(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "v.ll", version(1, false));
  orc_rt_JitModuleRef U = load(F, "user.ll",
                               "declare i32 @f()\n"
                               "define i32 @twice() {\n"
                               "  %a = call i32 @f()\n"
                               "  %r = mul i32 %a, 2\n"
                               "  ret i32 %r\n"
                               "}\n");
  void *Twice = entry(U, "twice");
  assert_int_equal(call(Twice), 2);
  reload(M, version(5, false));
  assert_int_equal(call(Twice), 10);
  orc_rt_JitModule_unload(U, NULL, NULL);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/*---- Shutdown ----*/

/* A module whose destructor records Name; Body defines its functions. */
static char *recordingModule(const char *Name, const char *Body) {
  static char Buf[4][1024];
  static int Next;
  char *B = Buf[Next++ % 4];
  snprintf(B, sizeof(Buf[0]),
           "declare void @record(ptr)\n"
           "@n = private constant [%zu x i8] c\"%s\\00\"\n"
           "define internal void @dtor() {\n"
           "  call void @record(ptr @n)\n"
           "  ret void\n"
           "}\n"
           "@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] "
           "[{ i32, ptr, ptr } { i32 65535, ptr @dtor, ptr null }]\n%s",
           strlen(Name) + 1, Name, Body);
  return B;
}

/* The Session's shutdown finalizes the modules still loaded in glibc's exit
 * order: the order they were loaded (as glibc's _dl_fini finalizes
 * independent dlopen'ed libraries), but a module before those it bound
 * symbols from. */
static void shutdownFinalizesIndependentModulesInLoadOrder(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  const char *Names[] = {"a", "b", "c"};
  for (int I = 0; I < 3; ++I) {
    char File[8];
    snprintf(File, sizeof(File), "%s.ll", Names[I]);
    load(F, File, recordingModule(Names[I], ""));
  }
  orc_rt_Session_shutdown(F->S, NULL, NULL);
  assert_string_equal(Log, "a b c ");
}

/* C is loaded before X, and a reload makes X use C: X goes first all the
 * same (in load order alone C would be finalized first, under the X that
 * calls it). */
static void shutdownFinalizesAModuleBeforeTheOnesItUses(void **State) {
  Fixture *F = *State;
  Log[0] = 0;
  assert_null(orc_rt_Jit_addSymbol(F->J, "record", (void *)(uintptr_t)record));
  load(F, "c.ll",
       recordingModule("c", "define i32 @c() {\n"
                            "  ret i32 7\n"
                            "}\n"));
  orc_rt_JitModuleRef X = load(F, "x.ll",
                               recordingModule("x", "define i32 @x() {\n"
                                                    "  ret i32 1\n"
                                                    "}\n"));
  reload(X, recordingModule("x2", "declare i32 @c()\n"
                                  "define i32 @x() {\n"
                                  "  %r = call i32 @c()\n"
                                  "  ret i32 %r\n"
                                  "}\n"));
  assert_string_equal(Log, "x "); /* the first version's destructor */
  assert_int_equal(call(entry(X, "x")), 7);
  orc_rt_Session_shutdown(F->S, NULL, NULL);
  assert_string_equal(Log, "x x2 c ");
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test_setup_teardown(
          everyEntryCallsTheNewCodeOnceReloadReturns, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          newFunctionsCanBeLookedUpAndRemovedOnesAreStale, setUp, tearDown),
      cmocka_unit_test_setup_teardown(aFunctionTheReloadRemovedIsAStaleCall,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(aRunningCallFinishesInTheOldCode, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(threadsCallingAllAlongLoseNoCall, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(aFailedReloadNamesTheFileItRead, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(
          aFileRewrittenInPlaceWhileReloadedIsAnErrorNotACrash, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(aFailedReloadKeepsTheOldVersionServing,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aConstructorsReloadOfTheModuleBeingReloadedIsRefused, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(
          aConstructorsUnloadOfTheModuleBeingReloadedWaitsForItsEnd, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(
          framesALongjmpLeftBeforeAReloadGiveTheirTokensBackInnermostFirst,
          setUp, tearDown),
      cmocka_unit_test_setup_teardown(oldDestructorsRunBeforeNewConstructors,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          variablesOfTheSameNameAndTypeKeepTheirStorage, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aVariableWhoseTypeChangedStartsFromItsInitializer, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          commonAndAvailableExternallyVariablesLoadAndCommonOnesAreKept, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(aVariableAVersionDroppedStartsAfresh,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aVariableAnAliasNamesStartsAfreshAndTheReloadSucceeds, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(
          theOldCodeStillRunningWritesTheKeptVariable, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aVersionFromTheObjectCacheKeepsVariablesToo, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aHandedOutFunctionPointerCallsTheNewVersion, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          shutdownFinalizesIndependentModulesInLoadOrder, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          shutdownFinalizesAModuleBeforeTheOnesItUses, setUp, tearDown),
      cmocka_unit_test_setup_teardown(anotherModulesCallsFollowTheReload, setUp,
                                      tearDown),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
