// llvm-jitlink -lazy: calls into a lazily linked object go through a reentry
// trampoline to the runtime's __orc_rt_sysv_reenter (aliased __orc_rt_reenter), which
// asks the controller for the body (__orc_rt_resolve_tag), enters it with every
// register as the caller left it, and later calls go straight to it. Arguments in
// integer and SSE registers survive the detour. In process and with both executors.
// REQUIRES: orc-rt-platform
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %clang -c -O0 -DLAZY %s -o %t-lazy.o
// RUN: %python %inputs/platform/modes.py %orc-executor %llvm-jitlink-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ %t.o -lazy %t-lazy.o \
// RUN:   | FileCheck %s
// CHECK: lazy_fn(1, 2, 3, 4, 5, 6, 0.5, 1.5) = 23
// CHECK-NEXT: lazy_fn(2, 2, 3, 4, 5, 6, 0.5, 1.5) = 24
// CHECK-NEXT: in-process: status 0
// CHECK-NEXT: orc-executor: same stdout, status 0
// CHECK-NEXT: llvm-jitlink-executor: same stdout, status 0
#include <stdio.h>

#ifdef LAZY
double lazy_fn(int A, int B, int C, int D, int E, int F, double X, double Y) {
  double R = A + B + C + D + E + F + X + Y;
  printf("lazy_fn(%d, %d, %d, %d, %d, %d, %.1f, %.1f) = %.0f\n", A, B, C, D, E, F,
         X, Y, R);
  return R;
}
#else
double lazy_fn(int, int, int, int, int, int, double, double);

int main(void) {
  for (int I = 1; I <= 2; ++I)
    lazy_fn(I, 2, 3, 4, 5, 6, 0.5, 1.5);
  return 0;
}
#endif
