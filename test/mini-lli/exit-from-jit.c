// Question: exit() called by JIT'd code (here from a nested function): do the
// atexit handlers and destructors run exactly once, and is the status exit's
// argument? Same output as the native program.
//
// RUN: %clang -O0 %s -o %t.native
// RUN: %python %inputs/mini-lli/expect-status.py 9 %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 9 mini-lli %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
//
// CHECK:      main
// CHECK-NEXT: handler
// CHECK-NEXT: dtor
// CHECK-NOT:  {{.}}

#include <stdio.h>
#include <stdlib.h>

static void handler(void) { printf("handler\n"); }
__attribute__((destructor)) static void dtor(void) { printf("dtor\n"); }
__attribute__((noinline)) static void leave(int S) { exit(S); }

int main(void) {
  atexit(handler);
  printf("main\n");
  leave(9);
  printf("not reached\n");
  return 0;
}
