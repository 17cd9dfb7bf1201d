// Question: does the code tier 0 adds to count calls and loop iterations
// (lib/jit/ir/CallCounters.h) stay within what FastISel, tier 0's
// instruction selector, selects? An atomic store there sent the rest of its
// block to SelectionDAG, several times slower to compile: every loop latch,
// which the back-edge count ends. The module tier 0 compiles is dumped and
// given to llc -O0, which names every instruction FastISel misses; this
// program's own code has none (it is checked without the counters too).
//
// RUN: %clang -O1 -c -emit-llvm %s -o %t.bc
// RUN: mini-lli -jit-kind=orc-tiered -orc-lazy-debug=mods-to-stdout %t.bc > %t.dump
// RUN: grep -v -e '^----- Module' %t.dump > %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: llc -O0 -pass-remarks-missed=sdagisel %t.ll -o /dev/null 2> %t.isel
// RUN: FileCheck %s --check-prefix=ISEL --allow-empty < %t.isel
// RUN: llc -O0 -pass-remarks-missed=sdagisel %t.bc -o /dev/null 2> %t.plain
// RUN: FileCheck %s --check-prefix=ISEL --allow-empty < %t.plain
//
// The entry's count and the loop's, both in main (sum is inlined):
// IR: define {{.*}}@"main$tier0code"
// IR: load volatile i32
// IR: load volatile i32
// ISEL-NOT: FastISel missed

static int sum(const int *P, int N) {
  int S = 0;
  for (int I = 0; I < N; ++I)
    S += P[I];
  return S;
}

int main(int Argc, char **Argv) {
  (void)Argv;
  int A[4] = {1, 2, 3, Argc};
  return sum(A, 4) == 7 ? 0 : 1;
}
