// __attribute__((constructor)) with and without priorities: constructors run by
// ascending priority (default 65535 last), two at the same priority in source
// order, all before main; one destructor runs after main and its atexit handler.
// (Several destructors, whose order stock lli gets wrong: dtor_order.c.)
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), the
// destructor never runs with either runtime: LLVM 22's ELFNixPlatform withholds
// .fini_array (docs/Platform.md, Destructors):
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.lazy --tool-arg=-jit-kind=orc-lazy %s | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

static int state = 1;

__attribute__((constructor)) static void ctor_default_a(void) {
  state = state * 10 + 3;
  printf("ctor default a (state %d)\n", state);
}
__attribute__((constructor(200))) static void ctor_200(void) {
  state = state * 10 + 2;
  printf("ctor 200 (state %d)\n", state);
}
__attribute__((constructor)) static void ctor_default_b(void) {
  state = state * 10 + 4;
  printf("ctor default b (state %d)\n", state);
}
__attribute__((constructor(101))) static void ctor_101(void) {
  state = state * 10 + 1;
  printf("ctor 101 (state %d)\n", state);
}

__attribute__((destructor)) static void dtor(void) {
  printf("dtor (state %d)\n", state);
}

static void from_main(void) { printf("atexit from main\n"); }

int main(void) {
  printf("main sees state %d\n", state);
  atexit(from_main);
  state = 7;
  return 0;
}
// CHECK:      ctor 101 (state 11)
// CHECK-NEXT: ctor 200 (state 112)
// CHECK-NEXT: ctor default a (state 1123)
// CHECK-NEXT: ctor default b (state 11234)
// CHECK-NEXT: main sees state 11234
// CHECK-NEXT: atexit from main
// CHECK-NEXT: dtor (state 7)
// CHECK-NEXT: parity: exit status 0
