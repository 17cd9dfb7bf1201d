// Question: 50 threads each make the first call of a function of their own,
// which contains no cancellation point, and are cancelled (deferred) as they
// start: does each run its call to the end and end at the program's own
// cancellation point, as natively?
//
// A first call waits for its compile on a thread made for it (a join: a
// cancellation point). A cancel pending there ended the caller inside what
// the program sees as a plain call, and freed its stack while the compile
// still read the request on it: SIGSEGV in 8 to 10 runs of 10.
//
// RUN: %clang -O2 %s -o %t.native -pthread
// RUN: %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O2 %s -o %t.ll
// RUN: mini-lli -jit-kind=orc-tiered %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
//
// CHECK: cancelled 50 of 50, results 50 of 50
#include <pthread.h>
#include <stdio.h>

#define N 50
static volatile long Results[N];

#define F(I)                                                                   \
  __attribute__((noinline)) long f##I(long X) { return X * X + I; }
#define T(I)                                                                   \
  F(I) static void *worker##I(void *Arg) {                                     \
    Results[I] = f##I((long)Arg); /* its first call */                         \
    for (;;)                                                                   \
      pthread_testcancel();                                                    \
    return NULL;                                                               \
  }
#define T10(A)                                                                 \
  T(A##0) T(A##1) T(A##2) T(A##3) T(A##4) T(A##5) T(A##6) T(A##7) T(A##8) T(A##9)
T(0) T(1) T(2) T(3) T(4) T(5) T(6) T(7) T(8) T(9)
T10(1) T10(2) T10(3) T10(4)

#define W(I) worker##I,
#define W10(A)                                                                 \
  W(A##0) W(A##1) W(A##2) W(A##3) W(A##4) W(A##5) W(A##6) W(A##7) W(A##8) W(A##9)
static void *(*Workers[N])(void *) = {W(0) W(1) W(2) W(3) W(4) W(5) W(6) W(7)
                                          W(8) W(9) W10(1) W10(2) W10(3)
                                              W10(4)};

int main(void) {
  pthread_t Threads[N];
  for (int I = 0; I < N; ++I) {
    pthread_create(&Threads[I], NULL, Workers[I], (void *)7);
    pthread_cancel(Threads[I]);
  }
  int Cancelled = 0, Right = 0;
  for (int I = 0; I < N; ++I) {
    void *Res;
    pthread_join(Threads[I], &Res);
    Cancelled += Res == PTHREAD_CANCELED;
    Right += Results[I] == 49 + I;
  }
  printf("cancelled %d of %d, results %d of %d\n", Cancelled, N, Right, N);
  return 0;
}
