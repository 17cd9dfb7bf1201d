// quick_exit from a nested function: only at_quick_exit handlers run (in
// reverse order of registration), not atexit handlers or destructors, stdio is
// not flushed by it (the last handler flushes), and the status is its argument.
//
// Stock lli-22 fails to link this program: "Symbols not found: [ at_quick_exit ]".
// glibc defines at_quick_exit (like atexit) in libc_nonshared.a, which the native
// link pulls in; lli provides its own atexit but not at_quick_exit.
// XFAIL: parity-lli
//
// Under -force-interpreter: at_quick_exit is in libc_nonshared.a, in no shared object
// the interpreter can search (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with an
// executor llvm-jitlink exits 1 ("disconnecting") when the executor process exits; in
// process at_quick_exit does not resolve with compiler-rt's runtime:
// XFAIL: parity-jitlink-oop, parity-jitlink-compiler-rt
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 18 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

static void handler(void) { printf("atexit handler\n"); }
static void quick_first(void) {
  printf("at_quick_exit handler registered first\n");
  fflush(stdout);
}
static void quick_second(void) { printf("at_quick_exit handler registered second\n"); }
__attribute__((destructor)) static void dtor(void) { printf("destructor\n"); }

__attribute__((noinline)) static void leave(int status) { quick_exit(status); }

int main(int argc, char **argv) {
  atexit(handler);
  at_quick_exit(quick_first);
  at_quick_exit(quick_second);
  printf("main\n");
  leave(argc > 1 ? atoi(argv[1]) : 1);
  printf("not reached\n");
  return 0;
}
// CHECK:      main
// CHECK-NEXT: at_quick_exit handler registered second
// CHECK-NEXT: at_quick_exit handler registered first
// CHECK-NEXT: parity: exit status 18
// CHECK-NOT:  {{atexit handler|destructor|not reached}}
