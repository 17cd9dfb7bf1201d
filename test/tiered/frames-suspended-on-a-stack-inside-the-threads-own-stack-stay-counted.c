// Question: a coroutine whose stack is a local array (so part of the thread's
// own stack, above the frames it interrupts): while it runs, frames below it
// on the thread's stack are suspended, not gone. Are those frames still
// counted (their tier-0 stubs' returns find them), so that the program runs
// as natively instead of ending? (A signal handler on such a stack:
// handler-on-a-local-alternate-stack-leaves-the-interrupted-frames-counted.c.)
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
// CHECK: coroutine on a local stack: s=49459509

#include <stdio.h>
#include <ucontext.h>

static ucontext_t Main, Gen;
static long Val;

__attribute__((noinline)) long compute(long I) {
  long S = 0;
  for (long K = 0; K <= I % 7; K++)
    S += K * I;
  return S;
}

static void generate(void) {
  for (long I = 0;; I++) {
    Val = compute(I); /* a stub call above next()'s suspended frame */
    swapcontext(&Gen, &Main);
  }
}

/* Suspended, inside its own tier-0 code, while the generator runs. */
__attribute__((noinline)) long next(long K) {
  long Pre = K * 3;
  swapcontext(&Main, &Gen);
  return Val + Pre;
}

int main(void) {
  char GenStack[128 * 1024];
  getcontext(&Gen);
  Gen.uc_stack.ss_sp = GenStack;
  Gen.uc_stack.ss_size = sizeof(GenStack);
  Gen.uc_link = 0;
  makecontext(&Gen, generate, 0);
  long S = 0;
  for (long I = 0; I < 3000; I++)
    S += next(I);
  printf("coroutine on a local stack: s=%ld\n", S);
  return 0;
}
