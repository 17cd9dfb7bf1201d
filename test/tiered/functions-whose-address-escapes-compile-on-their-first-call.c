// Question: is a function whose address escapes compiled only when it is first
// called, away from the caller's stack, and one of a signal handler's type
// before the program runs?
//
// used() and unused() are reached through a table of pointers; only used() is
// called, first from a coroutine whose stack (16 KiB) is far too small for a
// compile, then from main. onSignal() is installed with signal() and, being
// of a handler's type, compiled before main runs, called or not: here it is
// raised once. -tiered-stats counts what was compiled at tier 0: main,
// onSignal, coroutine (its address goes to makecontext) and used, not unused.
// No threshold is reached (nothing is compiled at tier 1 but nothing else).
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tiered-stats %t.ll 2>&1 | FileCheck %s
//
// CHECK: on the coroutine's stack: 42
// CHECK-NEXT: on main's stack: 8
// CHECK-NEXT: signal 10 handled
// CHECK: mini-lli: tiered: tier 0: 4 functions compiled in {{.*}} s, 0 freed

#include <signal.h>
#include <stdio.h>
#include <ucontext.h>

static volatile sig_atomic_t Got;

static void onSignal(int Sig) { Got = Sig; }

__attribute__((noinline)) static long used(long X) { return X + 1; }
__attribute__((noinline)) static long unused(long X) { return X * 3; }

static long (*volatile Table[2])(long) = {used, unused};

static ucontext_t Main, Co;
static long Result;

static void coroutine(void) { Result = Table[0](41); }

int main(void) {
  static char Stack[16 << 10] __attribute__((aligned(16)));
  getcontext(&Co);
  Co.uc_stack.ss_sp = Stack;
  Co.uc_stack.ss_size = sizeof(Stack);
  Co.uc_link = &Main;
  makecontext(&Co, coroutine, 0);
  swapcontext(&Main, &Co);
  printf("on the coroutine's stack: %ld\n", Result);
  printf("on main's stack: %ld\n", Table[0](7));
  signal(SIGUSR1, onSignal);
  raise(SIGUSR1);
  printf("signal %d handled\n", (int)Got);
  return 0;
}
