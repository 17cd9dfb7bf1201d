// Variadic functions defined in JIT'd code: ints and doubles past the register
// save area (so some come from the stack), mixed types, va_copy, a va_list passed
// down to vsnprintf in libc, and a sentinel-terminated list of strings.
// Under -force-interpreter: clang lowers va_arg to loads from the x86-64 va_list's
// register save area, which the interpreter's va_start does not fill: SIGSEGV (lli-22
// too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 3 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.O0 --opt=-O0 %s -- 3 | FileCheck %s
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long sum_ints(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, int) * (i + 1);
  va_end(ap);
  return s;
}

static double sum_doubles(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, double) * (i + 1);
  va_end(ap);
  return s;
}

// fmt: i=int, l=long long, d=double, s=string, c=char (promoted to int)
static void mixed(const char *fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  for (const char *p = fmt; *p; p++) {
    switch (*p) {
    case 'i': printf("[i %d]", va_arg(ap, int)); break;
    case 'l': printf("[l %lld]", va_arg(ap, long long)); break;
    case 'd': printf("[d %.3f]", va_arg(ap, double)); break;
    case 's': printf("[s %s]", va_arg(ap, const char *)); break;
    case 'c': printf("[c %c]", va_arg(ap, int)); break;
    }
  }
  va_end(ap);
  // Walk the copy again: only count the strings' lengths.
  size_t total = 0;
  for (const char *p = fmt; *p; p++) {
    if (*p == 's') total += strlen(va_arg(again, const char *));
    else if (*p == 'd') (void)va_arg(again, double);
    else if (*p == 'l') (void)va_arg(again, long long);
    else (void)va_arg(again, int);
  }
  va_end(again);
  printf(" strlen total %zu\n", total);
}

static int vformat(char *buf, size_t size, const char *fmt, va_list ap) {
  return vsnprintf(buf, size, fmt, ap);
}
static const char *format(const char *fmt, ...) {
  static char buf[128];
  va_list ap;
  va_start(ap, fmt);
  int n = vformat(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0)
    return "error";
  return buf;
}

static char *join(const char *sep, ...) {
  static char out[256];
  out[0] = '\0';
  va_list ap;
  va_start(ap, sep);
  const char *s;
  int first = 1;
  while ((s = va_arg(ap, const char *)) != NULL) {
    if (!first) strcat(out, sep);
    strcat(out, s);
    first = 0;
  }
  va_end(ap);
  return out;
}

int main(int argc, char **argv) {
  int k = argc > 1 ? atoi(argv[1]) : 1;
  // 12 ints: 6 register slots minus n, the rest on the stack.
  // CHECK: sum_ints 806
  printf("sum_ints %ld\n", sum_ints(12, k, k + 1, k + 2, k + 3, k + 4, k + 5, k + 6, k + 7,
                                    k + 8, k + 9, k + 10, k + 11));
  // 11 doubles: 8 in xmm registers, 3 on the stack.
  // CHECK-NEXT: sum_doubles 506.0000
  printf("sum_doubles %.4f\n", sum_doubles(11, k * 0.5 - 0.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0,
                                           8.0, 9.0, 10.0, 11.0));
  // CHECK-NEXT: [i 3][d 1.500][s three][l -9000000000][c x][d -2.250][i -7][s ][s ab][i 9] strlen total 7
  mixed("idslcdissi", k, k / 2.0, "three", -3000000000LL * k, 'x', -0.75 * k, -7, "", "ab", 9);
  // CHECK-NEXT: format: <   3|-0004|ff|1.5e+00|three|>
  printf("format: <%s>\n", format("%4d|%05d|%x|%.1e|%s|", k, -4, 255, k / 2.0, "three"));
  // CHECK-NEXT: join: a, bb, ccc
  printf("join: %s\n", join(", ", "a", "bb", "ccc", (char *)NULL));
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
