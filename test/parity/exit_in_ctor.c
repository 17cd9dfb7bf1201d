// exit() called by a constructor, before main runs: handlers registered so far
// (by an earlier constructor) run, destructors run, main never runs, and the
// status is exit's argument.
//
// Stock lli-22 runs neither the JIT'd program's atexit handlers nor its
// destructors when the program calls exit() (as in exit_nested.c):
// XFAIL: parity-lli
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), the
// destructor never runs with either runtime (LLVM 22's ELFNixPlatform withholds
// .fini_array), and with an executor llvm-jitlink exits 1 ("disconnecting") when the
// executor process exits:
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --timeout 30 %s | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

static void handler(void) { printf("atexit handler from first constructor\n"); }

__attribute__((constructor(101))) static void first(void) {
  printf("first constructor\n");
  atexit(handler);
}
__attribute__((constructor(102))) static void second(void) {
  printf("second constructor calls exit(6)\n");
  exit(6);
}
__attribute__((constructor(103))) static void third(void) { printf("third constructor\n"); }
__attribute__((destructor)) static void dtor(void) { printf("destructor\n"); }

int main(void) {
  printf("main\n");
  return 0;
}
// CHECK:      first constructor
// CHECK-NEXT: second constructor calls exit(6)
// CHECK-NEXT: atexit handler from first constructor
// CHECK-NEXT: destructor
// CHECK-NEXT: parity: exit status 6
// CHECK-NOT:  {{third|main}}
