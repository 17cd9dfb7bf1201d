// Question: when a function is switched from tier 0 to tier 1 while four
// threads keep calling it (each spends nearly all its time inside), does every
// call return the right answer, does each thread go on to run the new code
// (its calls report where they ran: the address of their own instructions),
// and does the program end as natively? Tier-0 code is never freed or
// changed under a frame: a call that began in tier 0 finishes there.
//
// No timing: each thread calls until it has seen its calls run at two
// addresses (tier 0, then tier 1); only a tier-up that never comes would
// make the test wait, until lit's time limit.
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=100 -tiered-stats %t.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=100 -O3 %t.ll 2>&1 | FileCheck %s --check-prefix=NOSTATS
//
// CHECK-DAG: thread 0: ran at two addresses, every answer right
// CHECK-DAG: thread 1: ran at two addresses, every answer right
// CHECK-DAG: thread 2: ran at two addresses, every answer right
// CHECK-DAG: thread 3: ran at two addresses, every answer right
// CHECK: mini-lli: tiered: tier 0: {{[1-9][0-9]*}} functions compiled in
// CHECK-NEXT: mini-lli: tiered: tier 1: {{[1-9][0-9]*}} functions compiled in {{.*}}, 0 failed
// NOSTATS-NOT: tiered:
// NOSTATS: thread 3: ran at two addresses, every answer right
// NOSTATS-NOT: tiered:

#include <pthread.h>
#include <stdio.h>

/* The address of the instruction after this point in the code that runs. */
#define HERE(P) __asm__ volatile("leaq 0(%%rip), %0" : "=r"(P))

__attribute__((noinline)) unsigned long work(unsigned long N, void **Where) {
  unsigned long S = 0;
  for (unsigned long I = 0; I < N; ++I)
    S += I * I ^ (S >> 3);
  HERE(*Where);
  return S;
}

static unsigned long expected(unsigned long N) {
  unsigned long S = 0;
  for (volatile unsigned long I = 0; I < N; ++I)
    S += I * I ^ (S >> 3);
  return S;
}

struct Result {
  int Wrong;
  int Switched;
};

static void *worker(void *Arg) {
  struct Result *R = Arg;
  unsigned long Want[64];
  for (unsigned long K = 0; K < 64; ++K)
    Want[K] = expected(1000 + K);
  void *First = 0;
  for (unsigned long Call = 0; !R->Switched; ++Call) {
    void *Where;
    unsigned long N = 1000 + Call % 64;
    if (work(N, &Where) != Want[Call % 64])
      ++R->Wrong;
    if (!First)
      First = Where;
    else if (Where != First)
      R->Switched = 1;
  }
  return 0;
}

int main(void) {
  pthread_t T[4];
  struct Result R[4] = {{0}};
  for (int I = 0; I < 4; ++I)
    pthread_create(&T[I], 0, worker, &R[I]);
  for (int I = 0; I < 4; ++I)
    pthread_join(T[I], 0);
  for (int I = 0; I < 4; ++I)
    printf("thread %d: ran at two addresses, %s\n", I,
           R[I].Wrong ? "WRONG ANSWERS" : "every answer right");
  return 0;
}
