// Question: at_quick_exit / quick_exit from JIT'd code: the quick-exit handlers
// run (newest first), atexit handlers and destructors do not, and the status is
// quick_exit's argument -- as in the native program.
//
// RUN: %clang -O0 %s -o %t.native
// RUN: %python %inputs/mini-lli/expect-status.py 6 %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 6 mini-lli %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
//
// CHECK:      main
// CHECK-NEXT: quick 2
// CHECK-NEXT: quick 1
// CHECK-NOT:  {{.}}

#include <stdio.h>
#include <stdlib.h>

static void quick1(void) { printf("quick 1\n"); fflush(stdout); }
static void quick2(void) { printf("quick 2\n"); fflush(stdout); }
static void handler(void) { printf("atexit handler\n"); fflush(stdout); }
__attribute__((destructor)) static void dtor(void) { printf("dtor\n"); }

int main(void) {
  atexit(handler);
  at_quick_exit(quick1);
  at_quick_exit(quick2);
  printf("main\n");
  fflush(stdout);
  quick_exit(6);
}
