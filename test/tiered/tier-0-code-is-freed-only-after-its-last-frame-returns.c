// Question: is a function's tier-0 code kept while frames are still in it
// after its switch to tier 1, and freed once the last of them has returned?
//
// Four threads enter work() at tier 0 and wait inside it. main then calls
// work() until its calls run at tier 1 (they report where they ran: the
// address of their own instructions), so the switch happens with four frames
// in tier 0. The page of tier-0 code must still be mapped then (mincore);
// the four threads return through it (they would crash in freed code); and
// by the end of the run work's tier-0 code has been freed: -tiered-stats
// counts two, work and main (compiled at tier 0 only to build its tier 1,
// and freed before it runs), while worker, called four times, stays. Whether
// the freed page is unmapped at once is the memory manager's business (a
// sanitizer's own mappings may take the hole), so it is not asked. No
// timing: every wait is for an event. The threads wait inside work() on
// barriers, not in a loop of work's own: loop iterations count towards the
// threshold, and a spinning thread took work to tier 1 before a thread
// scheduled late had entered it (seen under ASan on a loaded machine).
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 -tiered-stats %t.ll 2>&1 | FileCheck %s
//
// CHECK: switched with 4 frames in tier 0; its code still mapped
// CHECK-NEXT: 4 threads returned through tier 0, every answer right
// CHECK: mini-lli: tiered: tier 0: 3 functions compiled in {{.*}} s, 2 freed

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* The address of the instruction after this point in the code that runs. */
#define HERE(P) __asm__ volatile("leaq 0(%%rip), %0" : "=r"(P))

/* Four threads and main: all inside; all told to return. */
static pthread_barrier_t Inside, Release;

__attribute__((noinline)) long work(long X, int Hold, void **Where) {
  HERE(*Where);
  if (Hold) {
    pthread_barrier_wait(&Inside);
    pthread_barrier_wait(&Release);
  }
  return X * 3 + 1;
}

struct Thread {
  pthread_t Id;
  long Index;
  void *Where;
  long Answer;
};

static void *worker(void *Arg) {
  struct Thread *T = Arg;
  T->Answer = work(T->Index, 1, &T->Where);
  return 0;
}

/* 1 if the page holding P is mapped, 0 if not. */
static int mapped(void *P) {
  long Page = sysconf(_SC_PAGESIZE);
  unsigned char Vec;
  void *Base = (void *)((uintptr_t)P & ~(uintptr_t)(Page - 1));
  return mincore(Base, 1, &Vec) == 0 || errno != ENOMEM;
}

int main(void) {
  struct Thread T[4];
  pthread_barrier_init(&Inside, 0, 5);
  pthread_barrier_init(&Release, 0, 5);
  for (long I = 0; I < 4; ++I) {
    T[I].Index = I;
    pthread_create(&T[I].Id, 0, worker, &T[I]);
  }
  pthread_barrier_wait(&Inside);
  /* The threads are inside, and wrote where they run, before the barrier. */
  void *Tier0 = T[0].Where, *Where = Tier0;
  int Same = 1;
  for (int I = 1; I < 4; ++I)
    Same &= T[I].Where == Tier0;
  for (long Calls = 0; Where == Tier0; ++Calls)
    if (work(Calls, 0, &Where) != Calls * 3 + 1)
      return 1;
  printf("switched with %s frames in tier 0; its code %s\n",
         Same ? "4" : "(threads at different addresses:)",
         mapped(Tier0) ? "still mapped" : "UNMAPPED");
  fflush(stdout);
  pthread_barrier_wait(&Release);
  int Right = 1;
  for (long I = 0; I < 4; ++I) {
    pthread_join(T[I].Id, 0);
    Right &= T[I].Answer == I * 3 + 1;
  }
  printf("4 threads returned through tier 0, %s\n",
         Right ? "every answer right" : "WRONG ANSWERS");
  return 0;
}
