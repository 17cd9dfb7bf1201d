// printf of integers and floating point: widths, flags, every length modifier,
// extremes, and values computed at run time from argv so nothing is folded away.
// Under -force-interpreter: LLVM's interpreter cannot divide long double (x86_fp80):
// "Unhandled type for FDiv instruction" (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 12345 -0.1 3 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.O2 --opt=-O2 --tool-arg=-O0 %s -- 12345 -0.1 3 | FileCheck %s
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  int n = atoi(argv[1]);
  double d = strtod(argv[2], NULL);
  int k = atoi(argv[3]);

  // CHECK: ints: 12345 -12345 |12345     | |    12345| 0000012345 +12345
  printf("ints: %d %d |%-10d| |%9d| %010d %+d\n", n, -n, n, n, n, n);
  // CHECK-NEXT: hex/oct: 3039 0X3039 0x3039 30071 030071
  printf("hex/oct: %x %#X %#x %o %#o\n", n, n, n, n, n);
  // CHECK-NEXT: limits: -2147483648 2147483647 4294967295 -9223372036854775808 18446744073709551615
  printf("limits: %d %d %u %lld %llu\n", INT_MIN, INT_MAX, UINT_MAX, LLONG_MIN, ULLONG_MAX);
  // CHECK-NEXT: lengths: 57 53191 -12345 52997085 ffffffffffffcfc7 12345 -12345
  printf("lengths: %hhd %hu %ld %zu %jx %td %" PRId64 "\n", (signed char)(n), (unsigned short)(-n),
         (long)-n, (size_t)n * 4293u, (uintmax_t)(intmax_t)-n, (ptrdiff_t)n, (int64_t)-n);
  // CHECK-NEXT: chars: [A] [   hi] [hi   ] [hel]
  printf("chars: [%c] [%5s] [%-5s] [%.3s]\n", 'A' + k - 3, "hi", "hi", "hello");

  // CHECK-NEXT: f: -0.100000 -0.1000000000 -0.10 -1.000000e-01 -0.1
  printf("f: %f %.10f %.2f %e %g\n", d, d, d, d, d);
  // CHECK-NEXT: exact: -0.10000000000000001 -0x1.999999999999ap-4
  printf("exact: %.17g %a\n", d, d);
  double x = n * d; // -1234.5
  // CHECK-NEXT: prod: -1234.5 -1.2345e+03 |  -1234.500| -1234.500000
  printf("prod: %g %.4e |%11.3f| %#.10g\n", x, x, x, x);
  float f = (float)d;
  // CHECK-NEXT: float: -0.100000001490116 -0.1
  printf("float: %.15f %g\n", f, f);
  long double ld = (long double)n / 7;
  // CHECK-NEXT: long double: 1763.571428571428571
  printf("long double: %.15Lf\n", ld);
  // CHECK-NEXT: math: 111.108055513541 -0.993771636456 1881365963625 0.367879441171
  printf("math: %.12f %.12f %.0f %.12f\n", sqrt((double)n), sin(n), pow(n, k),
         exp(d * 10));
  // CHECK-NEXT: special: -inf -inf nan 0 -0
  printf("special: %g %g %g %g %g\n", 1.0 / (d + 0.1) * -1.0 < 0 ? -INFINITY : INFINITY,
         -INFINITY, fabs(NAN), 0.0, d * 0.0 * 1.0 < 1 ? -0.0 : 0.0);
  // CHECK-NEXT: tiny: 2.22507e-308 4.94066e-324 1.79769e+308
  printf("tiny: %g %g %g\n", DBL_MIN, 4.9406564584124654e-324, DBL_MAX);

  char buf[64];
  int len = snprintf(buf, sizeof buf, "%08.3f|%-8d|", x, k);
  // CHECK-NEXT: snprintf: 19 -1234.500|3       |
  printf("snprintf: %d %s\n", len, buf);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
