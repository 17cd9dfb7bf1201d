// atexit: handlers run in reverse order of registration after main returns; a
// handler registered by a constructor runs after those registered in main; the
// same function registered twice runs twice; main's return value is the exit
// status. (A handler registering another handler: atexit_in_handler.c.)
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), the
// destructor never runs with either runtime: LLVM 22's ELFNixPlatform withholds
// .fini_array (docs/Platform.md, Destructors):
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

static int order;

static void h_ctor(void) { printf("%d: handler registered by constructor\n", ++order); }
static void h1(void) { printf("%d: h1\n", ++order); }
static void h2(void) { printf("%d: h2\n", ++order); }
static void h3(void) { printf("%d: h3\n", ++order); }
static void h_twice(void) { printf("%d: twice\n", ++order); }

__attribute__((constructor)) static void reg(void) { atexit(h_ctor); }

__attribute__((destructor)) static void last(void) {
  printf("%d: destructor\n", ++order);
}

int main(void) {
  atexit(h1);
  atexit(h_twice);
  atexit(h2);
  atexit(h_twice);
  atexit(h3);
  printf("main returns 3\n");
  // Buffered output from main and all handlers must come out once.
  // CHECK:      main returns 3
  // CHECK-NEXT: 1: h3
  // CHECK-NEXT: 2: twice
  // CHECK-NEXT: 3: h2
  // CHECK-NEXT: 4: twice
  // CHECK-NEXT: 5: h1
  // CHECK-NEXT: 6: handler registered by constructor
  // CHECK-NEXT: 7: destructor
  // CHECK-NEXT: parity: exit status 3
  return 3;
}
