// Calling convention and runtime-helper corners between JIT'd code and libc /
// libm / the compiler runtime: structs by value (small, mixed int/float, large)
// both ways, libc functions returning structs (div, ldiv, lldiv), __int128
// division (a call to __divti3/__udivti3 at run time), C99 complex math,
// long double, and a float/double/int argument mix past the register limit.
// Under -force-interpreter: LLVM's interpreter cannot pass a struct by value to or
// from an external function (div, ldiv): "Type could not be mapped for use with
// libffi" (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 1000003 7 | FileCheck %s
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct small { char c; short s; };
struct mixed { double d; int i; float f; };
struct large { long a[9]; };

__attribute__((noinline)) static struct mixed make_mixed(int i) {
  struct mixed m = {i * 1.5, -i, i * 0.25f};
  return m;
}
__attribute__((noinline)) static long sum_large(struct large l) {
  long s = 0;
  for (int i = 0; i < 9; i++)
    s += l.a[i] * (i + 1);
  return s;
}
__attribute__((noinline)) static struct large make_large(long base) {
  struct large l;
  for (int i = 0; i < 9; i++)
    l.a[i] = base + i;
  return l;
}
__attribute__((noinline)) static int small_sum(struct small a, struct small b) {
  return a.c + a.s + b.c + b.s;
}
__attribute__((noinline)) static double many(int a, double b, float c, long d, double e, int f,
                                             double g, double h, double i, double j, int k,
                                             double l, float m, long n) {
  return a + b + c + d + e + f + g + h + i + j + k + l + m + n;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10;
  int k = argc > 2 ? atoi(argv[2]) : 3;

  div_t dv = div((int)n, k);
  ldiv_t ldv = ldiv(-n, k);
  lldiv_t lldv = lldiv((long long)n * n, k);
  // CHECK: div 142857 4 ldiv -142857 -4 lldiv 142858000001 2
  printf("div %d %d ldiv %ld %ld lldiv %lld %lld\n", dv.quot, dv.rem, ldv.quot, ldv.rem,
         lldv.quot, lldv.rem);

  struct mixed m = make_mixed(k);
  // CHECK-NEXT: mixed 10.5 -7 1.75
  printf("mixed %.1f %d %.2f\n", m.d, m.i, m.f);
  struct small a = {(char)k, (short)(n % 1000)}, b = {1, -2};
  // CHECK-NEXT: small 9
  printf("small %d\n", small_sum(a, b));
  // CHECK-NEXT: large 45000375
  printf("large %ld\n", sum_large(make_large(n)));

  __int128 big = (__int128)n * n * n * n; // > 2^64
  unsigned __int128 ubig = (unsigned __int128)big * 3;
  __int128 q = big / (k * 1000 + 1);
  long long r = (long long)(big % 1000000007);
  unsigned long long uq = (unsigned long long)(ubig / ((unsigned __int128)1 << 70));
  // CHECK-NEXT: int128 q_hi 7 q_lo 13711243141510657328 r 156622669 uq 2541
  printf("int128 q_hi %llu q_lo %llu r %lld uq %llu\n", (unsigned long long)(q >> 64),
         (unsigned long long)q, r, uq);

  double complex z = k + 2.0 * I;
  double complex e = cexp(z * I);
  double complex s = csqrt(-4.0 * k);
  // CHECK-NEXT: complex |z|=7.2801 e=0.1020+0.0889i sqrt=0.0000+5.2915i
  printf("complex |z|=%.4f e=%.4f%+.4fi sqrt=%.4f%+.4fi\n", cabs(z), creal(e), cimag(e),
         creal(s), cimag(s));

  long double ld = 1.0L / k;
  // CHECK-NEXT: long double 0.142857142857142857 sqrtl 2.645751311064590590
  printf("long double %.18Lf sqrtl %.18Lf\n", ld, sqrtl((long double)k));

  // CHECK-NEXT: many 1000186.25
  printf("many %.2f\n", many(k, 1.5, 2.25f, n, 4.0, 5, 6.0, 7.0, 8.0, 9.0, 10, 11.0, 12.5f, 100));
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
