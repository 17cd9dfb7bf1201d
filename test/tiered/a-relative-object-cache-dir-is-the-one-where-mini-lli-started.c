// Question: with a relative -object-cache-dir, does every entry, tier 1's
// included, go into that directory where mini-lli started, when the program
// changes its current directory before its functions get hot?
//
// The directory was taken against the program's current directory at each
// tier-up: tier 1's objects went to a "cc" made wherever the program had
// moved (and a second run found them only if it moved there again).
//
// RUN: rm -rf %t && mkdir -p %t/elsewhere
// RUN: %clang -S -emit-llvm -O1 %s -o %t/prog.ll
// RUN: cd %t && mini-lli -jit-kind=orc-tiered -tier-up-threshold=10 -tiered-stats -object-cache-dir=cc %t/prog.ll %t/elsewhere 2>&1 | FileCheck %s
// RUN: test ! -e %t/elsewhere/cc
// RUN: %python -c "import os, sys; n = len(os.listdir(sys.argv[1])); print('entries', 'several' if n > 1 else n)" %t/cc | FileCheck %s --check-prefix=CACHE
//
// CHECK: moved, x=
// CHECK: mini-lli: tiered: tier 1: {{[1-9][0-9]*}} functions compiled
// CACHE: entries several

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) uint64_t f(uint64_t X, int I) {
  return X * 6364136223846793005ULL + I;
}
__attribute__((noinline)) uint64_t g(uint64_t X) {
  for (int I = 0; I < 1000; I++)
    X = f(X, I);
  return X;
}

int main(int Argc, char **Argv) {
  if (Argc < 2 || chdir(Argv[1]))
    return 9;
  uint64_t X = 1;
  for (int I = 0; I < 5000; I++)
    X = g(X);
  printf("moved, x=%llu\n", (unsigned long long)X);
  return 0;
}
