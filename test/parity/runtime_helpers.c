// Calls the compiler emits into its runtime library (natively libgcc, linked
// statically or as libgcc_s) that JIT'd code must find in the process as well:
// __float128 arithmetic (__addtf3, __multf3, __divtf3, conversions), _Float16
// conversions (__extendhfsf2, __truncsfhf2), 128-bit integer division and
// modulo (__divti3, __udivti3, __modti3). (__builtin_cpu_supports, which needs
// libgcc's __cpu_model: cpu_supports.c.)
// Under -force-interpreter: LLVM's interpreter cannot divide __float128 (fp128):
// "Unhandled type for FDiv instruction" (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 7 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int k = argc > 1 ? atoi(argv[1]) : 3;

  __float128 q = (__float128)k / 3;
  __float128 r = q * 3 + (__float128)1 / 1024;
  double back = (double)(r - k);
  // CHECK: float128: (k/3)*3+1/1024-k = 0.0009765625, exact third*3==k: 1
  printf("float128: (k/3)*3+1/1024-k = %.10f, exact third*3==k: %d\n", back, q * 3 == k);

  _Float16 h = (_Float16)(k * 1.5f);
  float hf = (float)h + 0.25f;
  _Float16 h2 = (_Float16)hf;
  // CHECK-NEXT: _Float16: 10.50 10.75
  printf("_Float16: %.2f %.2f\n", (double)h, (double)(float)h2);

  __int128 big = (__int128)k << 100;
  unsigned __int128 ubig = (unsigned __int128)big * 5 + 12345;
  // CHECK-NEXT: int128: q 1099511627 r 0 uq 9620726743040 ur 12345
  printf("int128: q %lld r %lld uq %llu ur %llu\n",
         (long long)(big / ((__int128)1 << 60) / (k * 1000)),
         (long long)(big % ((__int128)1 << 60)),
         (unsigned long long)(ubig / ((unsigned __int128)1 << 62)),
         (unsigned long long)(ubig % ((unsigned __int128)1 << 62)));

  // CHECK-NEXT: parity: exit status 0
  return 0;
}
