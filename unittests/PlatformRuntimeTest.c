/*===- unittests/PlatformRuntimeTest.c - lib/platform against a mock ------===*/
/*
 * The platform runtime archive linked directly into a test, with this file as
 * the controller: __orc_rt_jit_dispatch answers push_initializers from a
 * scripted dependency map and symbol_lookup from a table. Checks the rules in
 * docs/Platform.md that the lit tests reach only through LLVM: dependencies
 * initialized first and once, reference counts, handlers at the last close,
 * cycles, errors for bad arguments, bootstrap after shutdown.
 * Only the archive is linked (it carries its own copy of lib/support).
 */

#include "TestUtil.h"

#include "orc-rt-c/SPS.h"
#include "orc-rt-c/WrapperFunction.h"

#include <stdlib.h>
#include <string.h>

/*---- The archive's entry points ----*/
typedef orc_rt_CWrapperFunctionBuffer (*WrapperFn)(const char *, size_t);
orc_rt_CWrapperFunctionBuffer __orc_rt_elfnix_platform_bootstrap(const char *,
                                                                 size_t);
orc_rt_CWrapperFunctionBuffer __orc_rt_elfnix_platform_shutdown(const char *,
                                                                size_t);
orc_rt_CWrapperFunctionBuffer __orc_rt_elfnix_register_jitdylib(const char *,
                                                                size_t);
orc_rt_CWrapperFunctionBuffer __orc_rt_elfnix_deregister_jitdylib(const char *,
                                                                  size_t);
orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_register_init_sections(const char *, size_t);
orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_register_object_sections(const char *, size_t);
orc_rt_CWrapperFunctionBuffer __orc_rt_jit_dlopen_wrapper(const char *, size_t);
orc_rt_CWrapperFunctionBuffer __orc_rt_run_program_wrapper(const char *,
                                                           size_t);
void *__orc_rt_elfnix_jit_dlopen(const char *, int);
int __orc_rt_elfnix_jit_dlclose(void *);
void *__orc_rt_elfnix_jit_dlsym(void *, const char *);
const char *__orc_rt_elfnix_jit_dlerror(void);
int __orc_rt_elfnix_cxa_atexit(void (*)(void *), void *, void *);
int __orc_rt_elfnix_atexit(void (*)(void));
extern char __orc_rt_elfnix_push_initializers_tag;
extern char __orc_rt_elfnix_symbol_lookup_tag;

/*---- The mock controller ----*/
/* Headers stand for JITDylibs; Deps[i] lists Headers[i]'s link order. */
enum { MaxJDs = 4 };
static char Headers[MaxJDs];
static int Deps[MaxJDs][MaxJDs], NumDeps[MaxJDs];
static int NumJDs;
static int PushCalls;

char __orc_rt_jit_dispatch_ctx;

orc_rt_CWrapperFunctionBuffer __orc_rt_jit_dispatch(void *Ctx, const void *Tag,
                                                    const char *Data,
                                                    size_t Size) {
  assert_ptr_equal(Ctx, &__orc_rt_jit_dispatch_ctx);
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  uint64_t H;
  assert_true(orc_rt_SPSReader_readAddr(&R, &H));
  if (Tag == &__orc_rt_elfnix_push_initializers_tag) {
    ++PushCalls;
    /* Every managed JITDylib with its deps, as the controller answers. */
    orc_rt_SPSWriter_appendExpectedValueHead(&W);
    orc_rt_SPSWriter_appendU64(&W, (uint64_t)NumJDs);
    for (int I = 0; I < NumJDs; ++I) {
      orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)&Headers[I]);
      orc_rt_SPSWriter_appendU64(&W, (uint64_t)NumDeps[I]);
      for (int J = 0; J < NumDeps[I]; ++J)
        orc_rt_SPSWriter_appendAddr(&W,
                                    (uint64_t)(uintptr_t)&Headers[Deps[I][J]]);
    }
    return orc_rt_SPSWriter_finish(&W);
  }
  assert_ptr_equal(Tag, &__orc_rt_elfnix_symbol_lookup_tag);
  const char *Name;
  size_t Len;
  assert_true(orc_rt_SPSReader_readBytes(&R, &Name, &Len));
  if (Len == 4 && memcmp(Name, "main", 4) == 0) {
    extern int mockMain(int, char **);
    orc_rt_SPSWriter_appendExpectedValueHead(&W);
    orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)mockMain);
    return orc_rt_SPSWriter_finish(&W);
  }
  orc_rt_SPSWriter_dispose(&W);
  return orc_rt_SPS_expectedErrorResult(
      orc_rt_Error_createf("Symbols not found: [ %.*s ]", (int)Len, Name));
}

/*---- Helpers ----*/
static char Log[256];
static void logStr(const char *S) { strcat(Log, S); }

/* Calls a wrapper built from W; returns the decoded SPSError (NULL = ok). */
static orc_rt_ErrorRef callErr(WrapperFn F, orc_rt_SPSWriter *W) {
  orc_rt_CWrapperFunctionBuffer B = F(W ? W->Data : NULL, W ? W->Size : 0);
  if (W)
    orc_rt_SPSWriter_dispose(W);
  return orc_rt_SPS_takeErrorResult(&B);
}

static void bootstrap(void) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)&Headers[0]);
  assert_null(callErr(__orc_rt_elfnix_platform_bootstrap, &W));
}

static void registerJD(int I, const char *Name) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendString(&W, Name);
  orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)&Headers[I]);
  assert_null(callErr(__orc_rt_elfnix_register_jitdylib, &W));
  if (I + 1 > NumJDs)
    NumJDs = I + 1;
}

typedef void (*InitFn)(void);
static void registerInits(int I, InitFn *Fns, size_t N) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)&Headers[I]);
  orc_rt_SPSWriter_appendU64(&W, 1);
  orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)Fns);
  orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)(Fns + N));
  assert_null(callErr(__orc_rt_elfnix_register_init_sections, &W));
}

static int setup(void **State) {
  (void)State;
  memset(Deps, 0, sizeof(Deps));
  memset(NumDeps, 0, sizeof(NumDeps));
  NumJDs = 0;
  PushCalls = 0;
  Log[0] = '\0';
  bootstrap();
  registerJD(0, "<Platform>");
  return 0;
}

static int teardown(void **State) {
  (void)State;
  assert_null(callErr(__orc_rt_elfnix_platform_shutdown, NULL));
  return 0;
}

static void initA(void) { logStr("A"); }
static void initB(void) { logStr("B"); }
static void handlerA(void *P) {
  (void)P;
  logStr("a");
}
static void handlerB(void *P) {
  (void)P;
  logStr("b");
}
static void atexitInB(void) { logStr("x"); }
static void initBRegistersHandlers(void) {
  logStr("B");
  __orc_rt_elfnix_cxa_atexit(handlerB, NULL, &Headers[2]);
  __orc_rt_elfnix_atexit(atexitInB); /* B's: registered by B's initializer */
}

/*---- Tests ----*/

static void depsInitializeFirstAndOnce(void **State) {
  (void)State;
  static InitFn A[] = {initA}, B[] = {initB};
  registerJD(1, "A");
  registerJD(2, "B");
  Deps[1][0] = 2, NumDeps[1] = 1; /* A links against B */
  registerInits(1, A, 1);
  registerInits(2, B, 1);
  void *H = __orc_rt_elfnix_jit_dlopen("A", 0);
  assert_ptr_equal(H, &Headers[1]);
  assert_string_equal(Log, "BA");
  assert_ptr_equal(__orc_rt_elfnix_jit_dlopen("A", 0), H);
  assert_string_equal(Log, "BA"); /* nothing new ran */
  assert_int_equal(PushCalls, 2);
  assert_int_equal(__orc_rt_elfnix_jit_dlclose(H), 0);
  assert_int_equal(__orc_rt_elfnix_jit_dlclose(H), 0);
}

static void handlersRunAtTheLastCloseNewestFirst(void **State) {
  (void)State;
  static InitFn B[] = {initBRegistersHandlers};
  registerJD(1, "A");
  registerJD(2, "B");
  Deps[1][0] = 2, NumDeps[1] = 1;
  registerInits(2, B, 1);
  void *HA = __orc_rt_elfnix_jit_dlopen("A", 0);
  void *HB = __orc_rt_elfnix_jit_dlopen("B", 0);
  __orc_rt_elfnix_cxa_atexit(handlerA, NULL, &Headers[1]);
  assert_string_equal(Log, "B");
  assert_int_equal(__orc_rt_elfnix_jit_dlclose(HA), 0);
  /* A's handler ran; B is still open (and no longer linked against). */
  assert_string_equal(Log, "Ba");
  assert_int_equal(__orc_rt_elfnix_jit_dlclose(HB), 0);
  assert_string_equal(Log, "Baxb");
  /* Reopening after the last close runs the initializers again. */
  HB = __orc_rt_elfnix_jit_dlopen("B", 0);
  assert_string_equal(Log, "BaxbB");
  assert_int_equal(__orc_rt_elfnix_jit_dlclose(HB), 0);
  assert_string_equal(Log, "BaxbBxb");
}

static void cyclicLinkOrderTerminates(void **State) {
  (void)State;
  static InitFn A[] = {initA}, B[] = {initB};
  registerJD(1, "A");
  registerJD(2, "B");
  Deps[1][0] = 2, NumDeps[1] = 1;
  Deps[2][0] = 1, NumDeps[2] = 1;
  registerInits(1, A, 1);
  registerInits(2, B, 1);
  void *H = __orc_rt_elfnix_jit_dlopen("A", 0);
  assert_non_null(H);
  assert_string_equal(Log, "BA");
  assert_int_equal(__orc_rt_elfnix_jit_dlclose(H), 0);
}

static void errorsComeBackThroughDlerror(void **State) {
  (void)State;
  assert_null(__orc_rt_elfnix_jit_dlopen("nope", 0));
  assert_string_equal(__orc_rt_elfnix_jit_dlerror(),
                      "no registered JITDylib for path nope");
  assert_int_equal(__orc_rt_elfnix_jit_dlclose(&Headers[3]), -1);
  assert_non_null(strstr(__orc_rt_elfnix_jit_dlerror(), "invalid JITDylib"));
  registerJD(1, "A");
  void *H = __orc_rt_elfnix_jit_dlopen("A", 0);
  assert_null(__orc_rt_elfnix_jit_dlsym(H, "missing"));
  assert_string_equal(__orc_rt_elfnix_jit_dlerror(),
                      "Symbols not found: [ missing ]");
  assert_int_equal(__orc_rt_elfnix_jit_dlclose(H), 0);
  assert_int_equal(__orc_rt_elfnix_jit_dlclose(H), -1); /* not open */
}

static int MainArgc;
int mockMain(int Argc, char **Argv) {
  MainArgc = Argc;
  assert_string_equal(Argv[1], "two");
  assert_null(Argv[Argc]);
  __orc_rt_elfnix_atexit(atexitInB); /* the program's: runs at its close */
  return 42;
}

static void runProgramCallsMainAndClosesTheJITDylib(void **State) {
  (void)State;
  registerJD(1, "main");
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendString(&W, "main");
  orc_rt_SPSWriter_appendString(&W, "main");
  orc_rt_SPSWriter_appendU64(&W, 2);
  orc_rt_SPSWriter_appendString(&W, "one");
  orc_rt_SPSWriter_appendString(&W, "two");
  orc_rt_CWrapperFunctionBuffer B =
      __orc_rt_run_program_wrapper(W.Data, W.Size);
  orc_rt_SPSWriter_dispose(&W);
  assert_int_equal(B.Size, 8);
  int64_t Result;
  memcpy(&Result, orc_rt_CWrapperFunctionBuffer_data(&B), 8);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
  assert_int_equal(Result, 42);
  assert_int_equal(MainArgc, 2);
  assert_string_equal(Log, "x");
}

static void badArgumentsAreErrorsNotCrashes(void **State) {
  (void)State;
  WrapperFn Fns[] = {__orc_rt_elfnix_register_jitdylib,
                     __orc_rt_elfnix_deregister_jitdylib,
                     __orc_rt_elfnix_register_init_sections,
                     __orc_rt_elfnix_register_object_sections,
                     __orc_rt_elfnix_platform_bootstrap};
  const char Junk[3] = {1, 2, 3};
  for (size_t I = 0; I < sizeof(Fns) / sizeof(*Fns); ++I) {
    orc_rt_CWrapperFunctionBuffer B = Fns[I](Junk, sizeof(Junk));
    orc_rt_ErrorRef Err = orc_rt_SPS_takeErrorResult(&B);
    assert_non_null(Err);
    assert_non_null(strstr(orc_rt_Error_getMessage(Err), "could not decode"));
    orc_rt_Error_consume(Err);
  }
  orc_rt_CWrapperFunctionBuffer B = __orc_rt_jit_dlopen_wrapper(Junk, 3);
  assert_non_null(orc_rt_CWrapperFunctionBuffer_getOutOfBandError(&B));
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
  /* A duplicate registration is refused with both names in the message. */
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendString(&W, "<Platform>");
  orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)&Headers[1]);
  orc_rt_ErrorRef Err = callErr(__orc_rt_elfnix_register_jitdylib, &W);
  assert_non_null(Err);
  assert_non_null(strstr(orc_rt_Error_getMessage(Err), "duplicate"));
  orc_rt_Error_consume(Err);
  /* A second bootstrap without shutdown is refused. */
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)&Headers[0]);
  Err = callErr(__orc_rt_elfnix_platform_bootstrap, &W);
  assert_non_null(Err);
  orc_rt_Error_consume(Err);
}

static void shutdownRunsWhatIsLeft(void **State) {
  (void)State;
  registerJD(1, "A");
  __orc_rt_elfnix_cxa_atexit(handlerA, NULL, &Headers[1]); /* never closed */
  assert_null(callErr(__orc_rt_elfnix_platform_shutdown, NULL));
  assert_string_equal(Log, "a");
  setup(NULL); /* bootstrap again for teardown */
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test_setup_teardown(depsInitializeFirstAndOnce, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(handlersRunAtTheLastCloseNewestFirst,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(cyclicLinkOrderTerminates, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(errorsComeBackThroughDlerror, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(runProgramCallsMainAndClosesTheJITDylib,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(badArgumentsAreErrorsNotCrashes, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(shutdownRunsWhatIsLeft, setup, teardown),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
