// Question: an atexit handler that a destructor registers: does it run where
// glibc runs it, under every engine, on return from main and on exit()?
// Natively crtbegin's __do_global_dtors_aux sits in .fini_array between the
// default-priority destructors (run first) and the prioritized ones, and its
// __cxa_finalize runs the handlers registered so far; the rest run after the
// last destructor.
//
// RUN: %clang -O0 %s -o %t.native
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 %t.native > %t.expected
// RUN: %python %inputs/mini-lli/expect-status.py 3 %t.native exit > %t.expected.exit
// RUN: FileCheck %s < %t.expected
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli %t.ll > %t.orc
// RUN: diff %t.expected %t.orc
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli %t.ll exit > %t.orc.exit
// RUN: diff %t.expected.exit %t.orc.exit
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=orc-lazy %t.ll > %t.lazy
// RUN: diff %t.expected %t.lazy
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=mcjit %t.ll > %t.mcjit
// RUN: diff %t.expected %t.mcjit
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -jit-kind=mcjit %t.ll exit > %t.mcjit.exit
// RUN: diff %t.expected.exit %t.mcjit.exit
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -force-interpreter %t.ll > %t.interp
// RUN: diff %t.expected %t.interp
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -force-interpreter %t.ll exit > %t.interp.exit
// RUN: diff %t.expected.exit %t.interp.exit
//
// CHECK:      dtor first (default)
// CHECK-NEXT: dtor second (default)
// CHECK-NEXT: handler registered by first
// CHECK-NEXT: dtor 300
// CHECK-NEXT: dtor 200
// CHECK-NEXT: handler registered by 300

#include <stdio.h>
#include <stdlib.h>

static void byFirst(void) { puts("handler registered by first"); }
static void by300(void) { puts("handler registered by 300"); }

__attribute__((destructor)) static void second(void) {
  puts("dtor second (default)");
}
__attribute__((destructor)) static void first(void) {
  puts("dtor first (default)");
  atexit(byFirst);
}
__attribute__((destructor(300))) static void p300(void) {
  puts("dtor 300");
  atexit(by300);
}
__attribute__((destructor(200))) static void p200(void) { puts("dtor 200"); }

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1)
    exit(3);
  return 0;
}
