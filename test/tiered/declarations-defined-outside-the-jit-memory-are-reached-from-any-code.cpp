// Question: does code orc-tiered compiles (position-independent, in the small
// code model) reach what it declares wherever that is defined? Under
// -fno-pic every declaration is dso_local, and a hidden one (__dso_handle)
// is under any model: code generation then reaches it PC-relative, within
// 2 GiB. __dso_handle and the functions mini-lli interposes (exit) are
// defined in mini-lli's own binary, further than that from the JIT's memory:
// linking a module kept whole (-per-module-lazy here; one with module-level
// assembly, an ifunc or a blockaddress always is) failed ("out of range of
// Delta32 fixup") until every declaration went through the GOT or a stub
// (lib/jit/ir/PreemptibleDeclarations.h). Split per function, the dynamic
// initializers, main (at tier 1: it has a loop) and twice() (which gets hot)
// each take the addresses in a module of their own, and they agree. A tier
// 1 that failed to link would leave the output the same (the function stays
// at tier 0; the whole module's tier 1 failed so until its declarations were
// made preemptible too): -tiered-stats says none failed.
//
// RUN: %clangxx -S -emit-llvm -O0 -fno-pic %s -o %t.ll
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=100 -tiered-stats %t.ll 2> %t.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.stats
// RUN: mini-lli -jit-kind=orc-tiered -per-module-lazy -tier-up-threshold=100 -tiered-stats %t.ll 2> %t.whole.stats | FileCheck %s
// RUN: FileCheck %s --check-prefix=STATS < %t.whole.stats
//
// CHECK: main: registered 0, exit same, __dso_handle same, stdout same
// CHECK-NEXT: twice: 20000
// CHECK-NEXT: at exit: bye
// STATS: tier 1: {{[1-9][0-9]*}} functions compiled in {{.*}}, 0 failed

#include <stdio.h>
#include <stdlib.h>

extern "C" void *__dso_handle __attribute__((visibility("hidden")));
extern "C" int __cxa_atexit(void (*)(void *), void *, void *);

template <typename T> __attribute__((noinline)) T keep(T Address) {
  return Address;
}

static void bye(void *Arg) { printf("at exit: %s\n", (const char *)Arg); }

// Dynamic initializers: code that takes each address.
static void (*ExitInInit)(int) = keep(exit);
static void *DsoInInit = keep(&__dso_handle);
static FILE **StdoutInInit = keep(&stdout);
static int Registered = __cxa_atexit(bye, (void *)"bye", &__dso_handle);

__attribute__((noinline)) int twice(int X) {
  void (*volatile E)(int) = exit;
  return E == ExitInInit && &__dso_handle == DsoInInit ? 2 * X : -1;
}

int main() {
  printf("main: registered %d, exit %s, __dso_handle %s, stdout %s\n",
         Registered, exit == ExitInInit ? "same" : "differs",
         &__dso_handle == DsoInInit ? "same" : "differs",
         &stdout == StdoutInInit ? "same" : "differs");
  int Sum = 0;
  for (int I = 0; I < 10000; ++I)
    Sum += twice(1);
  printf("twice: %d\n", Sum);
  fflush(stdout);
  return 0;
}
