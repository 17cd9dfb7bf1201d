// A program that recovers from its own hardware faults: SIGSEGV from a write
// to an unmapped page and SIGFPE from an integer division by zero, both caught
// by sigaction handlers in JIT'd code that siglongjmp back. The program's
// handlers must be the ones that run (a driver's crash handler must not
// intercept), and the program then exits normally.
// Under -force-interpreter: the signal handler is interpreted code, which the kernel
// cannot enter: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 0 | FileCheck %s
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static sigjmp_buf env;
static volatile sig_atomic_t last_sig;
static void on_fault(int sig, siginfo_t *si, void *uc) {
  (void)si;
  (void)uc;
  last_sig = sig;
  siglongjmp(env, sig);
}

int main(int argc, char **argv) {
  int zero = argc > 1 ? atoi(argv[1]) : 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigaction(SIGSEGV, &sa, NULL);
  sigaction(SIGFPE, &sa, NULL);

  char *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  int caught = 0;
  for (int round = 0; round < 3; round++) {
    if (sigsetjmp(env, 1) == 0) {
      ((volatile char *)page)[round] = 1; // read-only page: SIGSEGV
      printf("write succeeded?\n");
    } else {
      caught++;
    }
  }
  // CHECK: SIGSEGV caught 3 times, last signal 11
  printf("SIGSEGV caught %d times, last signal %d\n", caught, (int)last_sig);

  volatile int r = 0;
  if (sigsetjmp(env, 1) == 0) {
    r = 100 / zero;
    printf("division succeeded? %d\n", r);
  }
  // CHECK-NEXT: SIGFPE caught: signal 8
  printf("SIGFPE caught: signal %d\n", (int)last_sig);
  munmap(page, 4096);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
