// The process state a program finds when main starts, which a driver could
// disturb: the signal mask, denormal handling, the C locale and its decimal
// point, the lowest free file descriptor (the driver must not leak the input
// file's or its own descriptors into the program), and the working directory
// (compared by the two runs' output being equal; printed only as a check), and
// that main runs on the process's initial thread (getpid() == gettid()).
// Signal dispositions, the FP flags and the thread count are in
// process_signals.c, process_fenv.c and process_threads.c.
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with an
// executor main does not run on the process's initial thread (and
// llvm-jitlink-executor holds descriptor 3; orc-executor moves its own out of the way):
// XFAIL: parity-jitlink-oop
// In an executor process (-remote-mcjit) main runs on an executor thread too:
// XFAIL: parity-remote
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#define _GNU_SOURCE // gettid
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  sigset_t mask;
  sigprocmask(SIG_BLOCK, NULL, &mask);
  int blocked = 0;
  for (int s = 1; s < 65; s++)
    blocked += sigismember(&mask, s) == 1;
  // CHECK: blocked signals: 0
  printf("blocked signals: %d\n", blocked);

  volatile double tiny = DBL_MIN;
  volatile double denorm = tiny / 4;
  // CHECK-NEXT: denormals kept: 1
  printf("denormals kept: %d\n", denorm != 0.0 && denorm * 4 == DBL_MIN);

  // CHECK-NEXT: locale: C C
  printf("locale: %s %s\n", setlocale(LC_ALL, NULL), setlocale(LC_NUMERIC, NULL));
  // CHECK-NEXT: decimal point: .
  printf("decimal point: %s\n", localeconv()->decimal_point);

  int fd = open("/dev/null", O_RDONLY);
  // CHECK-NEXT: lowest free fd: 3
  printf("lowest free fd: %d\n", fd);
  close(fd);
  // CHECK-NEXT: stdin/stdout/stderr open: 1 1 1
  printf("stdin/stdout/stderr open: %d %d %d\n", fcntl(0, F_GETFD) != -1,
         fcntl(1, F_GETFD) != -1, fcntl(2, F_GETFD) != -1);

  char cwd[PATH_MAX];
  // CHECK-NEXT: cwd known: 1
  printf("cwd known: %d\n", getcwd(cwd, sizeof cwd) != NULL);
  // CHECK-NEXT: main on the initial thread: 1
  printf("main on the initial thread: %d\n", getpid() == gettid());
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
