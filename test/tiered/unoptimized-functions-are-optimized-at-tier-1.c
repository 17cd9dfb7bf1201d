// Question: does tier 1 run LLVM's optimization pipeline on a hot function
// whose input was not optimized (clang -O0 without optnone: its values live
// in stack slots), and leave an optimized input to code generation alone?
// Either way every answer is right. No timing: main calls until square has
// run at two addresses (tier 0, then tier 1).
//
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.O0.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t.O2.ll
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 -tiered-stats %t.O0.ll 2>&1 | FileCheck %s --check-prefix=O0
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 -tiered-stats %t.O2.ll 2>&1 | FileCheck %s --check-prefix=O2
//
// O0: square ran at two addresses, every answer right
// O0: tier 1: [[N:[1-9][0-9]*]] functions compiled in {{.*}}; [[N]] optimized first
// O2: square ran at two addresses, every answer right
// O2: tier 1: {{[1-9][0-9]*}} functions compiled in {{.*}}; 0 optimized first

#include <stdio.h>

#define HERE(P) __asm__ volatile("leaq 0(%%rip), %0" : "=r"(P))

__attribute__((noinline)) long square(long X, void **Where) {
  long R = X * X;
  HERE(*Where);
  return R;
}

int main(void) {
  void *First = 0, *Where = 0;
  long Wrong = 0;
  for (long I = 0; !First || Where == First; ++I) {
    Wrong += square(I, &Where) != I * I;
    if (!First)
      First = Where;
  }
  printf("square ran at two addresses, %s\n",
         Wrong ? "WRONG ANSWERS" : "every answer right");
  return 0;
}
