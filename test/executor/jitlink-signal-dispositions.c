// JIT'd code sees the signal dispositions a program normally starts with (SIGPIPE in
// particular stays at its default, as under the reference executor: orc-executor
// blocks it only around its own writes to the controller).
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o | FileCheck %s
// CHECK: SIGPIPE default, unblocked
// CHECK-NEXT: SIGCHLD default, unblocked
// CHECK-NEXT: status ref=0 ours=0
// CHECK-NEXT: PARITY OK
#include <signal.h>
#include <stdio.h>

static void show(const char *Name, int Sig) {
  struct sigaction SA;
  sigset_t Mask;
  sigaction(Sig, NULL, &SA);
  pthread_sigmask(SIG_SETMASK, NULL, &Mask);
  printf("%s %s, %s\n", Name,
         SA.sa_handler == SIG_IGN   ? "ignored"
         : SA.sa_handler == SIG_DFL ? "default"
                                    : "handled",
         sigismember(&Mask, Sig) ? "blocked" : "unblocked");
}

int main(void) {
  show("SIGPIPE", SIGPIPE);
  show("SIGCHLD", SIGCHLD);
  return 0;
}
