// Question: does a C++ exception unwind through functions at tier 0, at
// tier 1, and through a mix of the two while they are switched, running the
// destructors on the way and reaching the right handler every time? The
// thrower and the function between it and the handler each report where
// they ran; the loop goes on until both have run at two addresses (tier 0,
// then tier 1), so the last calls unwind through tier-1 code only.
//
// RUN: %clangxx -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-tiered -tier-up-threshold=50 -tiered-stats %t.ll 2>&1 | FileCheck %s
//
// CHECK: thrower and middle ran at two addresses; every throw caught, every guard destroyed
// CHECK: mini-lli: tiered: tier 1: {{[2-9]|[1-9][0-9]+}} functions compiled in {{.*}}, 0 failed

#include <cstdio>

#define HERE(P) __asm__ volatile("leaq 0(%%rip), %0" : "=r"(P))

static long Guards;
struct Guard {
  ~Guard() { ++Guards; }
};
struct Thrown {
  long Value;
};

__attribute__((noinline)) long thrower(long I, void **Where) {
  HERE(*Where);
  if (I % 3 == 0)
    throw Thrown{I};
  return I;
}

__attribute__((noinline)) long middle(long I, void **Where, void **Inner) {
  Guard G;
  HERE(*Where);
  return thrower(I, Inner) + 1;
}

int main() {
  void *FirstMiddle = nullptr, *FirstThrower = nullptr;
  bool MiddleMoved = false, ThrowerMoved = false;
  long Caught = 0, Throws = 0, Calls = 0, Wrong = 0;
  for (long I = 0; !(MiddleMoved && ThrowerMoved) || I % 3; ++I) {
    void *M = nullptr, *T = nullptr;
    ++Calls;
    try {
      if (middle(I, &M, &T) != I + 1)
        ++Wrong;
    } catch (const Thrown &E) {
      ++Caught;
      Wrong += E.Value != I;
    }
    Throws += I % 3 == 0;
    if (!FirstMiddle)
      FirstMiddle = M, FirstThrower = T;
    MiddleMoved |= M != FirstMiddle;
    ThrowerMoved |= T != FirstThrower;
  }
  if (Caught == Throws && Guards == Calls && !Wrong)
    std::printf("thrower and middle ran at two addresses; every throw caught, "
                "every guard destroyed\n");
  else
    std::printf("caught %ld of %ld throws, %ld guards for %ld calls, %ld "
                "wrong\n",
                Caught, Throws, Guards, Calls, Wrong);
  return 0;
}
