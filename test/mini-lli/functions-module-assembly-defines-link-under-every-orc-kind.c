// Question: a function that module-level assembly defines (__asm__ at file
// scope, as hand-written assembly kernels are) is called by the C around it:
// does it link under -jit-kind=orc, orc-lazy (cut per function or not) and
// orc-tiered, as natively?
//
// The lazy kinds named no such symbol: orc-lazy cut the module per function
// ("Symbols not found: [ asm_fn ]"), or kept it whole in ORC's IR layer,
// which knows only what the IR defines ("Unexpected definitions"). A module
// with module-level assembly is now compiled whole, its symbols read from
// the object.
//
// RUN: %clang -O2 %s -o %t.native
// RUN: %t.native > %t.expected
// RUN: %clang -O2 -c -emit-llvm %s -o %t.bc
// RUN: mini-lli -jit-kind=orc %t.bc | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-lazy %t.bc | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-lazy -per-module-lazy %t.bc | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-tiered %t.bc | diff %t.expected -
// RUN: FileCheck %s < %t.expected
//
// CHECK: 2 10
#include <stdio.h>

static int helper(int X) { return X + 1; }
__asm__(".globl asm_fn\n"
        ".type asm_fn,@function\n"
        "asm_fn:\n"
        "  lea 7(%rdi), %eax\n"
        "  ret\n");
int asm_fn(int);

int main(void) {
  printf("%d %d\n", helper(1), asm_fn(3));
  return 0;
}
