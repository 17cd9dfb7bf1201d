// exit() called from a signal handler that interrupted JIT'd code (raise() from
// three frames down): atexit handlers and destructors run once, the code after
// raise() never runs, and the status is exit's argument.
// Under -force-interpreter: the signal handler is interpreted code, which the kernel
// cannot enter: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), the
// destructor never runs with either runtime (LLVM 22's ELFNixPlatform withholds
// .fini_array), and with an executor llvm-jitlink exits 1 ("disconnecting") when the
// executor process exits:
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --timeout 30 %s -- 9 | FileCheck %s
//
// Stock lli-22 runs neither the JIT'd program's atexit handlers nor its
// destructors when the program calls exit() (as in exit_nested.c):
// XFAIL: parity-lli
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static int status = 1;
static void on_usr1(int sig) {
  printf("handler for signal %d calls exit(%d)\n", sig, status);
  exit(status);
}
static void at_exit(void) { printf("atexit handler\n"); }
__attribute__((destructor)) static void dtor(void) { printf("destructor\n"); }

__attribute__((noinline)) static void c(void) { raise(SIGUSR1); printf("after raise\n"); }
__attribute__((noinline)) static void b(void) { c(); printf("after c\n"); }
__attribute__((noinline)) static void a(void) { b(); printf("after b\n"); }

int main(int argc, char **argv) {
  if (argc > 1)
    status = atoi(argv[1]);
  atexit(at_exit);
  signal(SIGUSR1, on_usr1);
  a();
  printf("main returns\n");
  return 0;
}
// CHECK:      handler for signal 10 calls exit(9)
// CHECK-NEXT: atexit handler
// CHECK-NEXT: destructor
// CHECK-NEXT: parity: exit status 9
// CHECK-NOT:  after
