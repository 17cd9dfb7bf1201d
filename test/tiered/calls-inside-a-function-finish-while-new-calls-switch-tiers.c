// Question: when a function is switched from tier 0 to tier 1 while four
// threads keep calling it (each spends nearly all its time inside), does every
// call return the right answer, does each thread go on to run the new code
// (its calls report where they ran: the address of their own instructions),
// and does the program end as natively? A call that began in tier 0
// finishes there (tier-0-code-is-freed-only-after-its-last-frame-returns.c
// holds frames in tier 0 across the switch and watches the code go).
//
// No timing: each thread makes a first call with no loop iterations, which
// runs at tier 0 (the four of them count 4, under the threshold), and waits
// at a barrier for the others (a thread that started after the switch would
// otherwise only ever see tier 1);
// then each calls until it has seen its calls run at a second address
// (tier 1); only a tier-up that never comes would make the test wait, until
// lit's time limit.
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

static pthread_barrier_t Started;

static void *worker(void *Arg) {
  struct Result *R = Arg;
  unsigned long Want[64];
  for (unsigned long K = 0; K < 64; ++K)
    Want[K] = expected(1000 + K);
  void *First;
  if (work(0, &First) != 0)
    ++R->Wrong;
  pthread_barrier_wait(&Started);
  for (unsigned long Call = 0; !R->Switched; ++Call) {
    void *Where;
    unsigned long N = 1000 + Call % 64;
    if (work(N, &Where) != Want[Call % 64])
      ++R->Wrong;
    if (Where != First)
      R->Switched = 1;
  }
  return 0;
}

int main(void) {
  pthread_t T[4];
  struct Result R[4] = {{0}};
  pthread_barrier_init(&Started, 0, 4);
  for (int I = 0; I < 4; ++I)
    pthread_create(&T[I], 0, worker, &R[I]);
  for (int I = 0; I < 4; ++I)
    pthread_join(T[I], 0);
  for (int I = 0; I < 4; ++I)
    printf("thread %d: ran at two addresses, %s\n", I,
           R[I].Wrong ? "WRONG ANSWERS" : "every answer right");
  return 0;
}
