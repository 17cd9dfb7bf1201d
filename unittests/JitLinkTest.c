/*===- unittests/JitLinkTest.c - What linking a module gives ---------------===*/
/* Weak references, resolved when the module is loaded as ld.so resolves
 * them; and the memory its code and data live in (lib/jit/host/CodeMemory.h):
 * never writable and executable at once, and given back past a bound once
 * the module is gone. */

#include "JitFixture.h"

#include "jit/host/CodeMemory.h"

#include <stdio.h>
#include <sys/mman.h>

static const char *WeakUser = "declare extern_weak i32 @maybe_fn()\n"
                              "define i32 @call_maybe() {\n"
                              "  %p = icmp ne ptr @maybe_fn, null\n"
                              "  br i1 %p, label %yes, label %no\n"
                              "yes:\n"
                              "  %r = call i32 @maybe_fn()\n"
                              "  ret i32 %r\n"
                              "no:\n"
                              "  ret i32 -1\n"
                              "}\n";

static int callMaybe(orc_rt_JitModuleRef M) {
  return ((int (*)(void))(uintptr_t)entry(M, "call_maybe"))();
}

static void aWeakReferenceNothingDefinesIsNull(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M = load(F, "weak.ll", WeakUser);
  assert_int_equal(callMaybe(M), -1);
  orc_rt_JitModule_unload(M, NULL, NULL);
}

/* Decided at the load, as ld.so decides it: a module loaded after does not
 * rebind it (nor does a reload of that module). */
static void aModuleLoadedLaterDoesNotRebindAWeakReference(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef W = load(F, "weak.ll", WeakUser);
  assert_int_equal(callMaybe(W), -1);
  orc_rt_JitModuleRef D = load(F, "defines.ll",
                               "define i32 @maybe_fn() {\n"
                               "  ret i32 7\n"
                               "}\n");
  assert_int_equal(callMaybe(W), -1);
  orc_rt_JitModule_unload(D, NULL, NULL);
  orc_rt_JitModule_unload(W, NULL, NULL);
}

/* Bound to the module loaded before it; once that one is gone, the same
 * bytes loaded again get null (the first load's code is not reused: it
 * failed with "Symbols not found", or called freed code). */
static void
aWeakReferenceALoadedModuleDefinesIsBoundWhileItIsLoaded(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef D = load(F, "defines.ll",
                               "define i32 @maybe_fn() {\n"
                               "  ret i32 7\n"
                               "}\n");
  orc_rt_JitModuleRef W = load(F, "weak.ll", WeakUser);
  assert_int_equal(callMaybe(W), 7);
  orc_rt_JitModule_unload(W, NULL, NULL);
  orc_rt_JitModule_unload(D, NULL, NULL);
  W = load(F, "weak.ll", WeakUser);
  assert_int_equal(callMaybe(W), -1);
  orc_rt_JitModule_unload(W, NULL, NULL);
}

static int hostMaybe(void) { return 9; }

static void aWeakReferenceTheHostDefinesIsBound(void **State) {
  Fixture *F = *State;
  assert_null(
      orc_rt_Jit_addSymbol(F->J, "maybe_fn", (void *)(uintptr_t)hostMaybe));
  orc_rt_JitModuleRef W = load(F, "weak.ll", WeakUser);
  assert_int_equal(callMaybe(W), 9);
  orc_rt_JitModule_unload(W, NULL, NULL);
}

/* The linker takes no null address (RuntimeDyld ends the process on one):
 * a host symbol is an address. */
static void aHostSymbolAtNullIsRefused(void **State) {
  Fixture *F = *State;
  orc_rt_ErrorRef Err = orc_rt_Jit_addSymbol(F->J, "maybe_fn", NULL);
  assert_non_null(Err);
  assert_non_null(strstr(orc_rt_Error_getMessage(Err), "'maybe_fn'"));
  assert_non_null(strstr(orc_rt_Error_getMessage(Err), "NULL"));
  orc_rt_Error_consume(Err);
  orc_rt_JitModuleRef W = load(F, "weak.ll", WeakUser);
  assert_int_equal(callMaybe(W), -1);
  orc_rt_JitModule_unload(W, NULL, NULL);
}

/* Every mapping of the process, as /proc/self/maps gives it: none may be
 * writable and executable (its code is written, then made executable). */
static void linkedCodeIsNeverWritableAndExecutable(void **State) {
  Fixture *F = *State;
  orc_rt_JitModuleRef M[4];
  for (int I = 0; I < 4; ++I) {
    char Name[16];
    snprintf(Name, sizeof(Name), "m%d.ll", I);
    M[I] = load(F, Name, WeakUser);
    assert_int_equal(callMaybe(M[I]), -1);
  }
  FILE *Maps = fopen("/proc/self/maps", "r");
  assert_non_null(Maps);
  char Line[512];
  int Mappings = 0;
  while (fgets(Line, sizeof(Line), Maps)) {
    char Perms[8] = "";
    assert_int_equal(sscanf(Line, "%*s %7s", Perms), 1);
    if (Perms[1] == 'w' && Perms[2] == 'x')
      fail_msg("writable and executable: %s", Line);
    ++Mappings;
  }
  fclose(Maps);
  assert_true(Mappings > 0);
  for (int I = 0; I < 4; ++I)
    orc_rt_JitModule_unload(M[I], NULL, NULL);
}

/* How many of the pages of [P, P+Size) are resident (0 for a range no
 * longer mapped). */
static size_t residentPages(const void *P, size_t Size) {
  size_t Page = (size_t)sysconf(_SC_PAGESIZE);
  uintptr_t Start = (uintptr_t)P & ~(Page - 1);
  size_t N = ((uintptr_t)P + Size - Start + Page - 1) / Page;
  unsigned char *Vec = malloc(N);
  assert_non_null(Vec);
  size_t Resident = 0;
  if (!mincore((void *)Start, N * Page, Vec))
    for (size_t I = 0; I < N; ++I)
      Resident += Vec[I] & 1;
  free(Vec);
  return Resident;
}

static void countFreed(void *Ctx) { ++*(int *)Ctx; }

/* Eight modules each touch 8 MiB of their own data; once all are unloaded,
 * at most ORC_RT_JIT_CODEMEMORY_KEEP (4 MiB) of their pages stay resident
 * for the next loads (without the bound: all 64 MiB). Counted in their own
 * pages (mincore), not the process's, which allocators and sanitizers
 * move. */
static void pagesOfUnloadedModulesGoBackToTheSystemPastABound(void **State) {
  Fixture *F = *State;
  enum { Size = 8 << 20 };
  static const char *Touches =
      "@buf = global [8388608 x i8] zeroinitializer\n"
      "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)\n"
      "define void @touch() {\n"
      "  call void @llvm.memset.p0.i64(ptr @buf, i8 1, i64 8388608, i1 false)\n"
      "  ret void\n"
      "}\n";
  orc_rt_JitModuleRef M[8];
  void *Buf[8];
  int Freed = 0;
  size_t Page = (size_t)sysconf(_SC_PAGESIZE), Loaded = 0, Kept = 0;
  for (int I = 0; I < 8; ++I) {
    M[I] = load(F, "t.ll", Touches);
    assert_null(orc_rt_JitModule_lookup(M[I], "buf", &Buf[I]));
    ((void (*)(void))(uintptr_t)entry(M[I], "touch"))();
    Loaded += residentPages(Buf[I], Size);
  }
  assert_true(Loaded * Page >= 60u << 20); /* (the pages were touched) */
  for (int I = 0; I < 8; ++I)
    orc_rt_JitModule_unload(M[I], countFreed, &Freed);
  assert_int_equal(Freed, 8);
  for (int I = 0; I < 8; ++I)
    Kept += residentPages(Buf[I], Size);
  if (Kept * Page > ORC_RT_JIT_CODEMEMORY_KEEP)
    fail_msg("%zu KiB of the modules' data still resident after the unloads "
             "(%zu KiB loaded)",
             Kept * Page / 1024, Loaded * Page / 1024);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test_setup_teardown(aWeakReferenceNothingDefinesIsNull, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(
          aModuleLoadedLaterDoesNotRebindAWeakReference, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          aWeakReferenceALoadedModuleDefinesIsBoundWhileItIsLoaded, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(aWeakReferenceTheHostDefinesIsBound,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(aHostSymbolAtNullIsRefused, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(linkedCodeIsNeverWritableAndExecutable,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          pagesOfUnloadedModulesGoBackToTheSystemPastABound, setUp, tearDown),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
