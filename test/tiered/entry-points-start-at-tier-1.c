// Question: are the program's entry points (main, each -thread-entry) that
// have a loop compiled at tier 1 before they run, and those without one left
// at tier 0? They are entered once, so without it a loop in them would run at
// tier 0 for the whole run (there is no on-stack replacement); a loopless one
// would only be compiled twice before its one call. This program calls
// nothing of its own: the only tier-1 functions are the two entry points with
// a loop, compiled before they are entered, so the counts do not depend on
// timing.
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -jit-kind=orc-tiered -tiered-stats -thread-entry=side -thread-entry=flat %t.ll 2>&1 | FileCheck %s
//
// CHECK: main: 1000000 iterations
// CHECK: mini-lli: tiered: tier 0: 3 functions compiled in
// CHECK: mini-lli: tiered: tier 1: 2 functions compiled in {{.*}}, 0 failed, 0 hot;

#include <stdio.h>

volatile long Sink;

void side(void) {
  for (long I = 0; I < 1000; ++I)
    Sink += I;
}

void flat(void) { Sink += 1; }

int main(void) {
  long N = 0;
  for (long I = 0; I < 1000000; ++I, ++N)
    Sink += I;
  printf("main: %ld iterations\n", N);
  return 0;
}
