// A program that dies by a signal: output flushed before the signal is kept,
// output still buffered is lost, and the process is killed by the same signal
// as the native one (abort() -> SIGABRT, or a raised SIGTERM), not turned into
// an exit status. An atexit handler must not run.
//
// Under a TSan build of the driver, TSan's runtime flushes stdio when the
// process dies by SIGABRT, so the buffered line comes out (the JIT'd code is
// not instrumented, but TSan intercepts its libc calls): the abort run is
// skipped there.
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with an
// executor llvm-jitlink exits 1 ("disconnecting") when the executor process dies by a
// signal:
// XFAIL: parity-jitlink-oop
// RUN: %if !thread-sanitizer %{ %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- abort | FileCheck %s --check-prefix=ABRT %}
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.term %s -- term | FileCheck %s --check-prefix=TERM
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void handler(void) { printf("atexit handler ran\n"); }

int main(int argc, char **argv) {
  atexit(handler);
  printf("flushed before the signal\n");
  fflush(stdout);
  printf("still buffered, lost\n");
  if (argc > 1 && strcmp(argv[1], "term") == 0)
    raise(SIGTERM);
  else
    abort();
  printf("not reached\n");
  return 0;
}
// ABRT:      flushed before the signal
// ABRT-NEXT: parity: killed by signal 6
// TERM:      flushed before the signal
// TERM-NEXT: parity: killed by signal 15
