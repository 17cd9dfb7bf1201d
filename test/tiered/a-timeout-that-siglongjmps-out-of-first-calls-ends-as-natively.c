// Question: a program abandons work with a one-shot SIGALRM whose handler
// siglongjmps back (a timeout's classic way), the alarm coming at any point
// of a function's first call or of the thread's first call through a stub:
// does it run to the end as natively?
//
// Under orc-tiered it hung or crashed in 5 runs of 5: the jump left a first
// call's wait while its compile thread still read the request on the
// abandoned stack, or left the thread's first stub entry holding glibc's
// lock in pthread_getattr_np. A first call and a thread's first entry now
// hold signals until they are done (milliseconds); a hang fails the test
// after 60 s.
//
// Not under ThreadSanitizer, which delivers a signal that comes while code
// it did not instrument runs at that thread's next call into its runtime:
// the JIT'd loop that waits for the alarm makes none.
// UNSUPPORTED: thread-sanitizer
//
// RUN: %clang -O2 %s -o %t.native
// RUN: %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O2 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 0 mini-lli -jit-kind=orc-tiered %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
//
// CHECK: timeouts=20 victim(2)=
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

__attribute__((noinline)) long victim(long X) {
  for (int I = 0; I < 100; I++)
    X = X * 31 + I;
  return X;
}

static sigjmp_buf Env;
static void onAlarm(int Sig) {
  (void)Sig;
  siglongjmp(Env, 1);
}

int main(void) {
  signal(SIGALRM, onAlarm);
  int Timeouts = 0;
  for (int Round = 0; Round < 20; Round++) {
    struct itimerval It = {{0, 0}, {0, 20 + Round * 20}}; /* 20..400 us */
    if (sigsetjmp(Env, 1) == 0) {
      setitimer(ITIMER_REAL, &It, 0);
      for (volatile long Spin = 0; Spin < 1000000000; Spin++)
        if (Spin > Round * 2) {
          victim(Round);
          break;
        }
      for (;;) /* wait for the alarm */
        ;
    }
    Timeouts++;
  }
  printf("timeouts=%d victim(2)=%ld\n", Timeouts, victim(2));
  return 0;
}
