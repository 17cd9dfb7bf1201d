// Question: a program leaves a timer armed whose handler is its own (every
// 100 us, never disarmed) and returns from main: does it end as natively,
// with its output and status?
//
// The handler's signals kept coming while mini-lli freed the program's code,
// and the one that came then called freed memory: SIGSEGV in every run. The
// program's handlers now ignore their signals before its code is freed.
//
// Not under ThreadSanitizer, which delivers a signal that comes while code
// it did not instrument runs at that thread's next call into its runtime:
// the JIT'd loop that counts the ticks makes none.
// UNSUPPORTED: thread-sanitizer
//
// RUN: %clang -O1 %s -o %t.native
// RUN: %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
//
// CHECK: ticks>=50
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

static volatile sig_atomic_t Ticks;
static void onTick(int Sig) {
  (void)Sig;
  ++Ticks;
}

int main(void) {
  struct sigaction SA = {0};
  SA.sa_handler = onTick;
  sigemptyset(&SA.sa_mask);
  sigaction(SIGALRM, &SA, NULL);
  struct itimerval T = {{0, 100}, {0, 100}};
  setitimer(ITIMER_REAL, &T, NULL);
  while (Ticks < 50)
    ;
  printf("ticks>=50\n");
  return 0; /* the timer stays armed */
}
