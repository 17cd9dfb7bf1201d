// Question: under -force-interpreter, does exit() from interpreted code end the
// program as the native program does: its atexit handlers newest first, each
// exactly once, then its destructors, with exit's argument as the status (the
// interpreter's exit is its own; mini-lli gives it the destructors)? And does
// printf output keep its place among puts output and survive exit()? (The
// interpreter's printf writes to LLVM's own stdout buffer; mini-lli routes it
// through stdio. See "Engines" in docs/CommandGuide/mini-lli.md.)
//
// RUN: %clang -O0 %s -o %t.native
// RUN: %python %inputs/mini-lli/expect-status.py 3 %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -force-interpreter %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
// RUN: %python %inputs/mini-lli/expect-status.py 3 %lli -force-interpreter %t.ll | FileCheck %s --check-prefix=LLI
//
// CHECK:      ctor
// CHECK-NEXT: printf 1
// CHECK-NEXT: puts 2
// CHECK-NEXT: printf 3
// CHECK-NEXT: handler 2
// CHECK-NEXT: handler 1
// CHECK-NEXT: dtor
// CHECK-NOT:  {{.}}
//
// lli-22 differs: its printf output goes out of order, and its exit() runs no
// destructors.
// LLI-DAG: printf 1
// LLI-DAG: printf 3
// LLI-DAG: ctor
// LLI-DAG: puts 2
// LLI-DAG: handler 2
// LLI-DAG: handler 1
// LLI-NOT: dtor

#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void ctor(void) { puts("ctor"); }
__attribute__((destructor)) static void dtor(void) { puts("dtor"); }
static void h1(void) { puts("handler 1"); }
static void h2(void) { puts("handler 2"); }

int main(int argc, char **argv) {
  (void)argv;
  atexit(h1);
  atexit(h2);
  printf("printf %d\n", argc);
  puts("puts 2");
  printf("printf %d\n", argc + 2);
  exit(3);
}
