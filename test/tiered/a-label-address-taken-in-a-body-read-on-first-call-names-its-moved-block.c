// Question: from bitcode, whose bodies orc-tiered reads on first call and
// moves into a module of their own (lib/jit/compile/LazySplit.h), does a
// body that takes the address of one of its own labels (GNU C's &&label, a
// blockaddress in its code) still jump where it should, at tier 0 and at
// tier 1, with and without debug info? The blockaddress is rebuilt for the
// block's new function (lib/jit/ir/BodyMover.c). A table of label addresses
// in a variable's initializer makes the module read whole instead
// (ir/Module.h); this one is in the code (a volatile local).
//
// RUN: %clang -O1 %s -o %t.native
// RUN: %t.native > %t.expected
// RUN: FileCheck %s < %t.expected
// RUN: %clang -O1 -c -emit-llvm %s -o %t.bc
// RUN: mini-lli -jit-kind=orc-tiered %t.bc | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.bc | diff %t.expected -
// RUN: %clang -O1 -g -c -emit-llvm %s -o %t.g.bc
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.g.bc | diff %t.expected -
//
// CHECK: sum 1460

#include <stdio.h>

__attribute__((noinline)) int run(int N) {
  void *volatile Target = &&small;
  if (N > 2)
    Target = &&big;
  goto *Target;
big:
  return N * 10;
small:
  return N;
}

int main(void) {
  int Sum = 0;
  for (int I = 0; I < 100; ++I)
    Sum += run(I % 5);
  printf("sum %d\n", Sum);
  return 0;
}
