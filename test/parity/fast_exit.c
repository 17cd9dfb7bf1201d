// Ways out that skip the usual exit processing: _Exit and _exit run no atexit
// handlers or destructors and do not flush stdio (buffered output is lost); a
// program that closed its own stdout still exits with its status. The driver
// must add nothing of its own. (quick_exit: quick_exit.c.)
//
// Under a TSan build of the driver, TSan's _exit interceptor flushes stdio
// (FlushStreams) before exiting, so the buffered line comes out: the _exit run
// is skipped there.
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with an
// executor llvm-jitlink exits 1 ("disconnecting") when the executor process exits:
// XFAIL: parity-jitlink-oop
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.1 %s -- _Exit | FileCheck %s --check-prefix=UEXIT
// RUN: %if !thread-sanitizer %{ %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.2 %s -- _exit | FileCheck %s --check-prefix=UEXIT %}
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.4 %s -- fclose | FileCheck %s --check-prefix=CLOSED
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void handler(void) { printf("atexit handler\n"); }
__attribute__((destructor)) static void dtor(void) { printf("destructor\n"); }

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  atexit(handler);
  printf("flushed\n");
  fflush(stdout);
  printf("buffered, lost unless stdio is flushed\n");
  if (strcmp(how, "_Exit") == 0)
    _Exit(17);
  if (strcmp(how, "_exit") == 0)
    _exit(17);
  if (strcmp(how, "fclose") == 0) {
    fclose(stdout);
    return 19;
  }
  return 0;
}
// UEXIT:       flushed
// UEXIT-NEXT:  parity: exit status 17
// CLOSED:      flushed
// CLOSED-NEXT: buffered, lost unless stdio is flushed
// CLOSED-NEXT: parity: exit status 19
