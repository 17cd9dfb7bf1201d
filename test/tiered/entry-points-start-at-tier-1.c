// Question: are the program's entry points (main, each -thread-entry) compiled
// at tier 1 before they run? They are entered once, so without it a loop in
// them would run at tier 0 for the whole run (there is no on-stack
// replacement). This program calls nothing of its own: the only tier-1
// functions are the two entry points, compiled before they are entered, so
// the count does not depend on timing.
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -jit-kind=orc-tiered -tiered-stats -thread-entry=side %t.ll 2>&1 | FileCheck %s
//
// CHECK: main: 1000000 iterations
// CHECK: mini-lli: tiered: tier 1: 2 functions compiled in {{.*}}, 0 failed, 0 hot;

#include <stdio.h>

volatile long Sink;

void side(void) {
  for (long I = 0; I < 1000; ++I)
    Sink += I;
}

int main(void) {
  long N = 0;
  for (long I = 0; I < 1000000; ++I, ++N)
    Sink += I;
  printf("main: %ld iterations\n", N);
  return 0;
}
