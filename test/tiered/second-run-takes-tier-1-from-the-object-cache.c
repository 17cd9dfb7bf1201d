// Question: with -object-cache-dir, is tier-1 code stored, and does a second
// run take it from there, so that a function whose tier 1 is cached never
// runs tier-0 code (its first call already runs tier 1), with the same output
// and status? A corrupt entry is only a miss: the third run, after the
// entries are truncated, compiles again.
//
// No timing: with "wait", main calls until step has run at two addresses
// (tier 0, then tier 1, whose object is stored before the switch); with
// "once", it calls 1000 times and reports how many addresses step ran at.
// The second run takes two functions from the cache: step, and main (an
// entry point, compiled at tier 1 before it runs).
//
// RUN: rm -rf %t.cache
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 -tiered-stats -object-cache-dir=%t.cache %t.ll wait 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 -tiered-stats -object-cache-dir=%t.cache %t.ll once 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: %python -c "import glob, sys; [open(f, 'w').close() for f in glob.glob(sys.argv[1] + '/*')]" %t.cache
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 -tiered-stats -object-cache-dir=%t.cache %t.ll wait 2>&1 | FileCheck %s --check-prefix=FIRST
//
// FIRST: step ran at 2 addresses, every answer right
// FIRST: mini-lli: tiered: tier 1: {{[1-9][0-9]*}} functions compiled in {{.*}}; 0 optimized first, 0 from the object cache
// SECOND: step ran at 1 addresses, every answer right
// SECOND: mini-lli: tiered: tier 1: {{.*}}; 0 optimized first, 2 from the object cache

#include <stdio.h>
#include <string.h>

#define HERE(P) __asm__ volatile("leaq 0(%%rip), %0" : "=r"(P))

__attribute__((noinline)) long step(long I, void **Where) {
  HERE(*Where);
  return I * 3;
}

int main(int Argc, char **Argv) {
  int Wait = Argc > 1 && !strcmp(Argv[1], "wait");
  void *First = 0, *Where = 0;
  long Wrong = 0;
  int Addresses = 1;
  for (long I = 0; Wait ? Addresses < 2 : I < 1000; ++I) {
    Wrong += step(I, &Where) != I * 3;
    if (!First)
      First = Where;
    else if (Where != First)
      Addresses = 2;
  }
  printf("step ran at %d addresses, %s\n", Addresses,
         Wrong ? "WRONG ANSWERS" : "every answer right");
  return 3;
}
