// Question: a timer's signal handler calls, through their tier-0 stubs, the
// functions the program's loop is calling, so that signals land inside the
// stubs' own instructions. Does every call, the handler's and the one it
// interrupted, return its right answer, with the program running as natively
// instead of ending?
//
// A stub writes its call's shadow entry above the stack's top, then bumps
// the top. A handler that called through a stub between the two left its own
// call's values in that entry, and the interrupted call then went live with
// them: its return found no entry of its own and the program ended with
// "internal error: a call through a module stub returned ... after its frame
// was counted as gone" (five runs of five with tier-up off). The entry is
// now written again once it is live.
//
// The signals' timing varies; the answer does not: the loop runs until 2,000
// ticks have come, whatever the machine's speed (or, should no timer fire,
// 500 million calls), and a wrong return is counted, not printed.
//
// Not under TSan: it holds an asynchronous signal until the thread enters
// one of its interceptors, so no signal lands inside a stub (and this loop,
// which enters none, would see none).
//
// RUN: %clang -S -emit-llvm -O2 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=2000000000 %t.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered %t.ll 2>&1 | FileCheck %s
//
// UNSUPPORTED: thread-sanitizer
//
// CHECK: timer handler through stubs: wrong returns 0, in the handler 0

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile long Ticks, HandlerWrong;

__attribute__((noinline)) long work(long X) { return X * 3 + 1; }
__attribute__((noinline)) long inner(long X) { return work(X) ^ (X >> 3); }

static long expected(long X) { return (X * 3 + 1) ^ (X >> 3); }

static void onTick(int Sig) {
  (void)Sig;
  long X = Ticks++;
  if (inner(X) != expected(X))
    ++HandlerWrong;
}

int main(void) {
  /* Compiled before a signal can come (a first call compiles on the calling
   * thread, which a handler must not interrupt: docs/CommandGuide/mini-lli.md). */
  long Wrong = inner(1) != expected(1);
  struct sigaction SA;
  memset(&SA, 0, sizeof(SA));
  SA.sa_handler = onTick;
  SA.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &SA, 0);
  struct itimerval T = {{0, 50}, {0, 50}};
  setitimer(ITIMER_REAL, &T, 0);
  for (long I = 0; Ticks < 2000 && I < 500000000; ++I)
    Wrong += inner(I) != expected(I);
  struct itimerval Off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &Off, 0);
  printf("timer handler through stubs: wrong returns %ld, in the handler %ld\n",
         Wrong, (long)HandlerWrong);
  return 0;
}
