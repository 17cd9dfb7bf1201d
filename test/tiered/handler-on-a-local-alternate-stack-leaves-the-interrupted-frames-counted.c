// Question: a signal handler on an alternate stack that is a local array (so
// part of the thread's own stack, above the frames it interrupts) calls
// through a tier-0 stub: while it runs, the frames below it on the thread's
// stack are suspended, not gone. Are those frames still counted (their
// tier-0 stubs' returns find them), so that the program runs as natively
// instead of ending? (A coroutine on such a stack:
// frames-suspended-on-a-stack-inside-the-threads-own-stack-stay-counted.c.)
//
// Under TSan too. Until every first call compiled on a thread of its own,
// TSan reported an allocation inside every handler call ("signal-unsafe
// call inside of a signal"; with the slow unwinder, in LLVM's
// LocalTrampolinePool::reenter under JIT'd code); now it reports none.
//
// A frame is taken for gone when it lies below the stack pointer of a new
// call through a stub -- unless what its stub keeps on the stack is still in
// place: a suspended frame's always is.
//
// RUN: %clang -S -emit-llvm -O2 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered %t.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=2000000000 %t.ll 2>&1 | FileCheck %s
//
// CHECK: handler on a local alternate stack: t=202500 hsum=3000

#include <signal.h>
#include <stdio.h>
#include <string.h>

static long HandlerSum;

__attribute__((noinline)) long helper(long X) { return X % 5 + X; }

static void handler(int Sig) { HandlerSum += helper(Sig) - Sig + 1; }

/* Interrupted by the handler at its deepest call. */
__attribute__((noinline)) long deep(long N) {
  if (N == 0) {
    raise(SIGUSR1);
    return 1;
  }
  return deep(N - 1) + N;
}

int main(void) {
  /* Compiled before a signal can come (a first call compiles on the calling
   * thread, which a handler must not do: docs/CommandGuide/mini-lli.md). */
  long Warm = helper(0);
  char AltStack[256 * 1024];
  stack_t SS;
  memset(&SS, 0, sizeof(SS));
  SS.ss_sp = AltStack;
  SS.ss_size = sizeof(AltStack);
  sigaltstack(&SS, 0);
  struct sigaction SA;
  memset(&SA, 0, sizeof(SA));
  SA.sa_handler = handler;
  SA.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR1, &SA, 0);
  long T = 0;
  for (int I = 0; I < 3000; I++)
    T += deep(I % 20);
  printf("handler on a local alternate stack: t=%ld hsum=%ld\n", T + Warm,
         HandlerSum);
  return 0;
}
