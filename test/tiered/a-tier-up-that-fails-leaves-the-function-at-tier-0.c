// Question: when a hot function's tier-1 compile fails, does the function go
// on at tier 0 (every call right, the program's output and status native),
// the failure counted and nothing printed? Here the optimizer makes it fail:
// work's loop, fully unrolled at tier 1, repeats the label its inline
// assembly defines, which does not assemble (as with clang -O2). That needs
// tier 1 to optimize clang -O0's output, whose functions are all optnone
// (lib/jit/ir/OptNone.h): with the marks kept nothing is unrolled and no
// tier-up fails. Before the failure was a tier-up error, LLVM's default
// diagnostic handler printed it and ended the program. No timing: other gets
// hot after work (the compile thread takes tier-ups in that order), and main
// calls other until it runs at its tier-1 address (so the program only
// ends under a tiering JIT).
//
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=120 7 mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 -tiered-stats %t.ll > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s < %t.err
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLANG
//
// OUT: work answered 100 times, sum 5550; other reached tier 1
// OUT-NEXT: work answered 200 times, sum 11100
// CHECK-NOT: error
// CHECK: mini-lli: tiered: tier 1: {{.*}}, 1 failed,
// CLANG: symbol 'orc_rt_c_test_label' is already defined

#include <stdio.h>

#define HERE(P) __asm__ volatile("leaq 0(%%rip), %0" : "=r"(P))

int work(int N) {
  int S = 0;
  for (int I = 0; I < 4; ++I) {
    __asm__ volatile("orc_rt_c_test_label:");
    S += I;
  }
  return S + N;
}

long other(long X, void **Where) {
  HERE(*Where);
  return X * 3;
}

int main(void) {
  long Sum = 0;
  for (int K = 0; K < 100; ++K)
    Sum += work(K);
  void *First = 0, *Where = 0;
  for (long I = 0; !First || Where == First; ++I) {
    other(I, &Where);
    if (!First)
      First = Where;
  }
  printf("work answered 100 times, sum %ld; other reached tier 1\n", Sum);
  for (int K = 0; K < 100; ++K) /* work still serves, at tier 0 */
    Sum += work(K);
  printf("work answered 200 times, sum %ld\n", Sum);
  return 7;
}
