// An atexit handler that registers further handlers while exit processing is
// under way: natively (glibc) each newly registered handler runs next, before
// the remaining older ones, and the exit status is still main's.
//
// Stock lli-22 never runs a handler registered once its own atexit handlers have
// started running, so this program differs under lli:
// XFAIL: parity-lli
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), compiler-rt
// 22's runtime never runs atexit() handlers:
// XFAIL: parity-jitlink-compiler-rt
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

static int order;

static void nested2(void) { printf("%d: registered by nested1\n", ++order); }
static void nested1(void) {
  printf("%d: registered by outer, registers another\n", ++order);
  atexit(nested2);
}
static void outer(void) {
  printf("%d: outer registers one\n", ++order);
  atexit(nested1);
}
static void oldest(void) { printf("%d: oldest\n", ++order); }

int main(void) {
  atexit(oldest);
  atexit(outer);
  printf("main returns 5\n");
  return 5;
}
// CHECK:      main returns 5
// CHECK-NEXT: 1: outer registers one
// CHECK-NEXT: 2: registered by outer, registers another
// CHECK-NEXT: 3: registered by nested1
// CHECK-NEXT: 4: oldest
// CHECK-NEXT: parity: exit status 5
