// Question: after their switch to tier 1, is the tier-0 code freed of a
// function only ever called directly with its arguments in registers, and
// kept for the run of one whose address escapes (it may be a signal handler,
// and a stub is not async-signal-safe) and of one taking arguments on the
// stack (the stub that would count its frames cannot take them)?
//
// All three get hot and switch (each reports where it ran: the address of its
// own instructions), then main ends; -tiered-stats counts what was freed by
// then (it frees what has drained before counting): direct() and main
// (compiled at tier 0 only to build its tier 1), not viaPointer() nor
// stackArgs(). No timing: main waits for each switch.
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 -tiered-stats %t.ll 2>&1 | FileCheck %s
//
// CHECK: all three switched, every answer right
// CHECK: mini-lli: tiered: tier 0: 4 functions compiled in {{.*}} s, 2 freed
// CHECK-NEXT: mini-lli: tiered: tier 1: 4 functions compiled in {{.*}}, 0 failed, 3 hot;

#include <stdio.h>

#define HERE(P) __asm__ volatile("leaq 0(%%rip), %0" : "=r"(P))

__attribute__((noinline)) long direct(long X, void **Where) {
  HERE(*Where);
  return X + 1;
}

__attribute__((noinline)) long viaPointer(long X, void **Where) {
  HERE(*Where);
  return X + 2;
}

/* Seven integer arguments: the seventh travels on the stack. */
__attribute__((noinline)) long stackArgs(long A, long B, long C, long D,
                                         long E, long F, void **Where) {
  HERE(*Where);
  return A + B + C + D + E + F;
}

long (*volatile Pointer)(long, void **) = viaPointer;

int main(void) {
  void *First[3], *Where;
  int Wrong = 0;
  Wrong += direct(0, &First[0]) != 1;
  Wrong += Pointer(0, &First[1]) != 2;
  Wrong += stackArgs(0, 0, 0, 0, 0, 1, &First[2]) != 1;
  for (long I = 0; (Where = First[0], Wrong += direct(I, &Where) != I + 1,
                    Where == First[0]);
       ++I)
    ;
  for (long I = 0; (Where = First[1], Wrong += Pointer(I, &Where) != I + 2,
                    Where == First[1]);
       ++I)
    ;
  for (long I = 0; (Where = First[2],
                    Wrong += stackArgs(I, 1, 1, 1, 1, 1, &Where) != I + 5,
                    Where == First[2]);
       ++I)
    ;
  printf("all three switched, %s\n", Wrong ? "WRONG" : "every answer right");
  return 0;
}
