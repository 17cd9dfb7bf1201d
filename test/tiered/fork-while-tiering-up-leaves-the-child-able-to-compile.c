// Question: a program forks again and again while functions get hot and the
// compile thread builds their tier 1. Does every child compile a function on
// its first call (a lazy compile in the child, which has no compile thread)
// and end normally, and does the parent go on?
//
// mini-lli's fork handlers make fork wait for the tier-up under way, so that
// no lock LLVM's code takes is held in the child by a thread that is not
// there. The window for that is small (most of a tier-up is code generation,
// under no shared lock): this test did not hang with the handlers removed in
// three runs, so it shows that fork works under tiering, not that the
// handlers are needed.
//
// The parent makes 64 functions hot one after another (each a tier-up on the
// compile thread) and forks 100 times meanwhile; each child calls a function
// nobody called before.
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.ll 2>&1 | FileCheck %s
//
// CHECK: 100 children, every one compiled and ended normally

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define HOT(N)                                                                 \
  __attribute__((noinline)) long hot##N(long X) { return X * N + 1; }
#define HOT8(N)                                                                \
  HOT(N##0) HOT(N##1) HOT(N##2) HOT(N##3) HOT(N##4) HOT(N##5) HOT(N##6) HOT(N##7)
HOT8(1) HOT8(2) HOT8(3) HOT8(4) HOT8(5) HOT8(6) HOT8(7) HOT8(8)

typedef long (*Fn)(long);
#define REF8(N)                                                                \
  hot##N##0, hot##N##1, hot##N##2, hot##N##3, hot##N##4, hot##N##5, hot##N##6, \
      hot##N##7
static Fn Hot[64] = {REF8(1), REF8(2), REF8(3), REF8(4),
                     REF8(5), REF8(6), REF8(7), REF8(8)};

__attribute__((noinline)) long onlyInChildren(long X) { return X ^ 0x5a; }

int main(void) {
  int Good = 0;
  long Sum = 0;
  for (int I = 0; I < 100; ++I) {
    for (int K = 0; K < 3; ++K)
      Sum += Hot[(I + K) % 64](I);
    pid_t P = fork();
    if (P == 0)
      _exit(onlyInChildren(I) == (I ^ 0x5a) ? 0 : 1);
    int Status = 0;
    if (P > 0 && waitpid(P, &Status, 0) == P && WIFEXITED(Status) &&
        WEXITSTATUS(Status) == 0)
      ++Good;
  }
  printf("%d children, %s\n", Good,
         Good == 100 ? "every one compiled and ended normally" : "FAILED");
  return Sum == 0;
}
