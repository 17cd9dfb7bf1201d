// Question: under -force-interpreter, does the program end as the native
// program does, whichever way it ends: its atexit handlers (one registered
// before main by a constructor) newest first, then its destructors by
// priority, with the right status, on return from main (0), exit() from main
// (1), exit() from a nested function (2), and exit() from a handler (4)? And
// does a handler that a destructor registers run where glibc runs it (3;
// handlers-registered-by-destructors-run-where-glibc-runs-them.c has both
// kinds of destructor)? (The interpreter's atexit and exit are its own;
// mini-lli gives the destructors to that atexit before the constructors run.
// lli-22 runs the destructors first, or none on exit(): docs/CommandGuide/
// mini-lli.md, Engines.)
//
// RUN: %clang -O0 %s -o %t.native
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 7 %t.native 0 > %t.expected.0
// RUN: %python %inputs/mini-lli/expect-status.py 7 mini-lli -force-interpreter %t.ll 0 > %t.out.0
// RUN: diff %t.expected.0 %t.out.0
// RUN: %python %inputs/mini-lli/expect-status.py 4 %t.native 1 > %t.expected.1
// RUN: %python %inputs/mini-lli/expect-status.py 4 mini-lli -force-interpreter %t.ll 1 > %t.out.1
// RUN: diff %t.expected.1 %t.out.1
// RUN: %python %inputs/mini-lli/expect-status.py 5 %t.native 2 > %t.expected.2
// RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -force-interpreter %t.ll 2 > %t.out.2
// RUN: diff %t.expected.2 %t.out.2
// RUN: %python %inputs/mini-lli/expect-status.py 7 %t.native 3 > %t.expected.3
// RUN: %python %inputs/mini-lli/expect-status.py 7 mini-lli -force-interpreter %t.ll 3 > %t.out.3
// RUN: diff %t.expected.3 %t.out.3
// RUN: %python %inputs/mini-lli/expect-status.py 6 %t.native 4 > %t.expected.4
// RUN: %python %inputs/mini-lli/expect-status.py 6 mini-lli -force-interpreter %t.ll 4 > %t.out.4
// RUN: diff %t.expected.4 %t.out.4
// RUN: FileCheck %s --check-prefix=NESTED < %t.out.2
// RUN: FileCheck %s --check-prefix=FROMDTOR < %t.out.3
//
// NESTED:      ctor
// NESTED-NEXT: main 2
// NESTED-NEXT: nested exit 5
// NESTED-NEXT: handler 2
// NESTED-NEXT: handler 1
// NESTED-NEXT: handler from ctor
// NESTED-NEXT: dtor
// NESTED-NEXT: dtor 200
// NESTED-NOT:  {{.}}
//
// FROMDTOR:      handler from ctor
// FROMDTOR-NEXT: dtor
// FROMDTOR-NEXT: handler from dtor
// FROMDTOR-NEXT: dtor 200
// FROMDTOR-NOT:  {{.}}

#include <stdio.h>
#include <stdlib.h>

static int Mode;
static void fromDtor(void) { puts("handler from dtor"); }
static void fromCtor(void) { puts("handler from ctor"); }
static void h1(void) {
  puts("handler 1");
  if (Mode == 4)
    exit(6);
}
static void h2(void) { puts("handler 2"); }

__attribute__((constructor)) static void ctor(void) {
  puts("ctor");
  atexit(fromCtor);
}
__attribute__((destructor)) static void dtor(void) {
  puts("dtor");
  if (Mode == 3)
    atexit(fromDtor);
}
__attribute__((destructor(200))) static void dtor200(void) {
  puts("dtor 200");
}

static void nested(int Status) {
  printf("nested exit %d\n", Status);
  exit(Status);
}

int main(int argc, char **argv) {
  Mode = argc > 1 ? atoi(argv[1]) : 0;
  atexit(h1);
  printf("main %d\n", Mode);
  atexit(h2);
  if (Mode == 1)
    exit(4);
  if (Mode == 2)
    nested(5);
  return 7;
}
