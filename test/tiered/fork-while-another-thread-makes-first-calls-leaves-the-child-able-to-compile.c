// Question: one thread makes first calls to 400 functions (through a table of
// pointers, so their addresses escape) while another forks 20 times, each
// child making a first call of its own: does every child compile it and end,
// as natively?
//
// A first call compiles on a thread made for it, which holds LLVM's locks
// while it compiles. A child forked meanwhile inherited them held, with no
// thread to release them, and its first call waited for ever (every run).
// Now a fork waits for first calls under way, and they for it.
//
// A child that does not end within 20 s is killed and counted, so that a
// broken rule fails the test instead of hanging it.
//
// RUN: %clang -O2 %s -o %t.native -pthread
// RUN: %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O2 %s -o %t.ll
// RUN: mini-lli -jit-kind=orc-tiered %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
//
// CHECK: children that ended with their answer: 20 of 20

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define F(n) __attribute__((noinline)) long fn##n(long X) { return X * 3 + 1; }
#define F10(p)                                                                 \
  F(p##0) F(p##1) F(p##2) F(p##3) F(p##4) F(p##5) F(p##6) F(p##7) F(p##8)      \
  F(p##9)
#define F100(p)                                                                \
  F10(p##0) F10(p##1) F10(p##2) F10(p##3) F10(p##4) F10(p##5) F10(p##6)        \
  F10(p##7) F10(p##8) F10(p##9)
F100(1) F100(2) F100(3) F100(4)

#define A(n) fn##n,
#define A10(p)                                                                 \
  A(p##0) A(p##1) A(p##2) A(p##3) A(p##4) A(p##5) A(p##6) A(p##7) A(p##8)      \
  A(p##9)
#define A100(p)                                                                \
  A10(p##0) A10(p##1) A10(p##2) A10(p##3) A10(p##4) A10(p##5) A10(p##6)        \
  A10(p##7) A10(p##8) A10(p##9)
static long (*const Table[400])(long) = {A100(1) A100(2) A100(3) A100(4)};

__attribute__((noinline)) long onlyInChildren(long X) { return X + 5; }

static void *firstCalls(void *Arg) {
  long S = 0;
  for (int I = 0; I < 400; ++I)
    S += Table[I](I);
  return (void *)S;
}

/* The child's status, or -1 if it did not end within 20 s (then killed). */
static int waitFor(pid_t P) {
  for (int Tick = 0; Tick < 2000; ++Tick) {
    int Status;
    if (waitpid(P, &Status, WNOHANG) == P)
      return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
    struct timespec T = {0, 10 * 1000 * 1000};
    nanosleep(&T, NULL);
  }
  kill(P, SIGKILL);
  waitpid(P, NULL, 0);
  return -1;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, firstCalls, NULL);
  int Good = 0;
  for (int K = 0; K < 20; ++K) {
    pid_t P = fork();
    if (P == 0)
      _exit((int)onlyInChildren(1));
    Good += waitFor(P) == 6;
  }
  void *Sum;
  pthread_join(T, &Sum);
  printf("children that ended with their answer: %d of 20\n", Good);
  return (long)Sum == 3 * (399 * 400 / 2) + 400 ? 0 : 1;
}
