// A lot of output (about 9 MB through a pipe, in many small printf and fwrite
// calls, with a final line left unflushed): all of it, in order, and nothing
// else. The comparison with the native run checks every byte; FileCheck checks
// the line count, a checksum and the tail.
// Under -force-interpreter: LLVM's interpreter cannot call a variadic external other
// than the printf/scanf family (snprintf) (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 200000 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  unsigned long sum = 0;
  for (long i = 0; i < n; i++) {
    char line[64];
    int len = snprintf(line, sizeof line, "line %07ld %08lx\n", i, (unsigned long)(i * 2654435761u));
    for (int k = 0; k < len; k++)
      sum = sum * 31 + (unsigned char)line[k];
    if (i % 2)
      fwrite(line, 1, (size_t)len, stdout);
    else
      fputs(line, stdout);
  }
  printf("lines %ld checksum %016lx", n, sum);
  return 0;
}
// CHECK:      line 0000000 00000000
// CHECK:      line 0199999 {{[0-9a-f]+}}
// CHECK-NEXT: lines 200000 checksum {{[0-9a-f]+}}
// CHECK-NEXT: parity: exit status 0
