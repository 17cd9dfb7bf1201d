// Question: a weak function (a default, __attribute__((weak))) in the main
// module, defined strongly in an -extra-module: does the strong one win under
// orc-tiered, as natively and under the other kinds?
//
// Tier 0 defined the weak function's front and stub, and looked them up, as
// the main module was added: the extra module's definition then clashed
// ("In <Lazy Reexports>, duplicate definition of symbol 'cfg'"). A weak
// function now gets no stub under orc-tiered (it never tiers up).
//
// The file is both modules: EXTRA selects the extra one.
// RUN: %clang -O2 -c %s -o %t.main.o
// RUN: %clang -O2 -DEXTRA -c %s -o %t.extra.o
// RUN: %clang %t.main.o %t.extra.o -o %t.native
// RUN: %t.native > %t.expected
// RUN: %clang -O2 -c -emit-llvm %s -o %t.main.bc
// RUN: %clang -O2 -DEXTRA -c -emit-llvm %s -o %t.extra.bc
// RUN: mini-lli -jit-kind=orc-tiered -extra-module=%t.extra.bc %t.main.bc | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 -extra-module=%t.extra.bc %t.main.bc | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-lazy -extra-module=%t.extra.bc %t.main.bc | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-tiered %t.main.bc | FileCheck %s --check-prefix=ALONE
// RUN: FileCheck %s < %t.expected
//
// CHECK: cfg=2 hook=20
// ALONE: cfg=1 hook=10
#include <stdio.h>

#ifdef EXTRA
int cfg(void) { return 2; }
int hook(int X) { return X * 20; }
#else
__attribute__((weak)) int cfg(void) { return 1; }
__attribute__((weak, noinline)) int hook(int X) { return X * 10; }

int main(void) {
  int (*volatile H)(int) = hook; /* (its address escapes too) */
  printf("cfg=%d hook=%d\n", cfg(), H(1));
  return 0;
}
#endif
