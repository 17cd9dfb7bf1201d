// Question: do constructors (by priority), main, atexit / __cxa_atexit
// handlers (reverse order, including one registered by a constructor and one
// by a handler) and destructors run in the same order as the native program,
// on LLJIT (eager and lazy), MCJIT and the interpreter? (The interpreter keeps
// atexit handlers itself and runs them from its exit(); mini-lli gives it the
// destructors so that they run after the handlers, where lli-22 runs them
// before: docs/CommandGuide/mini-lli.md, Engines.)
//
// RUN: %clang -O0 %s -o %t.native
// RUN: %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: mini-lli %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-lazy %t.ll > %t.lazy
// RUN: diff %t.expected %t.lazy
// RUN: mini-lli -jit-kind=mcjit %t.ll > %t.mcjit
// RUN: diff %t.expected %t.mcjit
// RUN: mini-lli -force-interpreter %t.ll > %t.interp
// RUN: diff %t.expected %t.interp
// RUN: FileCheck %s < %t.out
//
// CHECK:      ctor 101
// CHECK-NEXT: ctor 102
// CHECK-NEXT: ctor default a
// CHECK-NEXT: ctor default b
// CHECK-NEXT: main
// CHECK-NEXT: handler from main 2
// CHECK-NEXT: handler from handler
// CHECK-NEXT: handler from main 1
// CHECK-NEXT: handler from ctor
// CHECK-NEXT: dtor default b
// CHECK-NEXT: dtor default a
// CHECK-NEXT: dtor 102
// CHECK-NEXT: dtor 101

#include <stdio.h>
#include <stdlib.h>

static void fromCtor(void) { printf("handler from ctor\n"); }
static void fromHandler(void) { printf("handler from handler\n"); }
static void main1(void) {
  printf("handler from main 1\n");
}
static void main2(void) {
  printf("handler from main 2\n");
  atexit(fromHandler);
}

__attribute__((constructor)) static void ca(void) { printf("ctor default a\n"); }
__attribute__((constructor)) static void cb(void) { printf("ctor default b\n"); }
__attribute__((constructor(102))) static void c102(void) { printf("ctor 102\n"); }
__attribute__((constructor(101))) static void c101(void) {
  printf("ctor 101\n");
  atexit(fromCtor);
}
__attribute__((destructor)) static void da(void) { printf("dtor default a\n"); }
__attribute__((destructor)) static void db(void) { printf("dtor default b\n"); }
__attribute__((destructor(102))) static void d102(void) { printf("dtor 102\n"); }
__attribute__((destructor(101))) static void d101(void) { printf("dtor 101\n"); }

int main(void) {
  printf("main\n");
  atexit(main1);
  atexit(main2);
  return 0;
}
