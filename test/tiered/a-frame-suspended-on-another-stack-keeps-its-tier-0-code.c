// Question: is a function's tier-0 code kept while a frame in it is suspended
// on another stack (a coroutine, swapcontext), even as the thread goes on
// calling through stubs on its own stack after the switch?
//
// A frame left by longjmp is told from a live one by its stack pointer: on
// the thread's stack, a frame below the caller's is gone. A frame on another
// stack is not below anything on the thread's stack: it may be suspended.
// Here a coroutine enters pause() at tier 0 and switches back to main from
// inside it. main calls pause() (which returns at once when not in the
// coroutine) until its calls run at tier 1, then calls another function
// through its stub, and watches pause()'s tier-0 page for a second: it must
// stay mapped. Then the coroutine resumes and returns through that code.
// The second of watching is a bound on a wait for an event that must not
// happen (a free takes milliseconds); the answer does not depend on it.
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 %t.ll 2>&1 | FileCheck %s
//
// CHECK: pause switched to tier 1 while suspended in tier 0 on the coroutine's stack
// CHECK-NEXT: its tier-0 code still mapped after a second
// CHECK-NEXT: the coroutine resumed and finished: 42

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define HERE(P) __asm__ volatile("leaq 0(%%rip), %0" : "=r"(P))

static ucontext_t Main, Co;
static int InCoroutine;

__attribute__((noinline)) int pause_(int X, void **Where) {
  HERE(*Where);
  if (InCoroutine)
    swapcontext(&Co, &Main); /* suspended here, in tier-0 code */
  return X + 1;
}

__attribute__((noinline)) int other(int X) { return X * 2; }

static int Result;

static void body(void) {
  void *Where;
  Result = pause_(41, &Where);
  InCoroutine = 0;
}

static int mapped(void *P) {
  long Page = sysconf(_SC_PAGESIZE);
  unsigned char Vec;
  void *Base = (void *)((uintptr_t)P & ~(uintptr_t)(Page - 1));
  return mincore(Base, 1, &Vec) == 0 || errno != ENOMEM;
}

int main(void) {
  static char Stack[1 << 16];
  getcontext(&Co);
  Co.uc_stack.ss_sp = Stack;
  Co.uc_stack.ss_size = sizeof(Stack);
  Co.uc_link = &Main;
  makecontext(&Co, body, 0);
  InCoroutine = 1;
  swapcontext(&Main, &Co); /* the coroutine is now inside pause_ */
  InCoroutine = 0;
  void *Tier0 = 0, *Where = 0;
  pause_(0, &Tier0);
  for (int Calls = 0; (Where = Tier0, pause_(Calls, &Where), Where == Tier0);
       ++Calls)
    ;
  printf("pause switched to tier 1 while suspended in tier 0 on the "
         "coroutine's stack\n");
  int Sum = 0;
  struct timespec Start, Now;
  clock_gettime(CLOCK_MONOTONIC, &Start);
  do {
    Sum += other(Sum & 7); /* through other's stub, on main's stack */
    usleep(1000);
    clock_gettime(CLOCK_MONOTONIC, &Now);
  } while (mapped(Tier0) && Now.tv_sec - Start.tv_sec < 1);
  printf("its tier-0 code %s\n", mapped(Tier0)
                                     ? "still mapped after a second"
                                     : "UNMAPPED under the suspended frame");
  fflush(stdout);
  InCoroutine = 1;
  swapcontext(&Main, &Co); /* resume: pause_ returns through tier 0 */
  printf("the coroutine resumed and finished: %d\n", Result);
  return Sum < 0;
}
