// execve from JIT'd code replaces the whole process (driver included): output
// flushed before the exec is kept, output still buffered is discarded, no
// atexit handler runs, and the exit status is the new program's.
// Under -force-interpreter: LLVM's interpreter cannot call a variadic external other
// than the printf/scanf family (execl) (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with an
// executor exec() replaces the executor process, and llvm-jitlink exits 1
// ("disconnecting"):
// XFAIL: parity-jitlink-oop
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void handler(void) { printf("atexit handler (must not run)\n"); }

int main(void) {
  atexit(handler);
  printf("before exec\n");
  fflush(stdout);
  printf("buffered, discarded by exec\n");
  execl("/bin/sh", "sh", "-c", "echo replaced by the shell; exit 7", (char *)NULL);
  printf("exec failed\n");
  return 1;
}
// CHECK:      before exec
// CHECK-NEXT: replaced by the shell
// CHECK-NEXT: parity: exit status 7
