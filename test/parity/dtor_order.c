// Several __attribute__((destructor))s: natively (ELF .fini_array) they run in
// the reverse of the constructors' order: by descending priority, and at equal
// priority in reverse source order, after the atexit handlers.
//
// Stock lli-22 runs llvm.global_dtors in array order instead (101, 200, then the
// default ones first-defined first), so this program differs under lli:
// XFAIL: parity-lli
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), no
// destructor runs with either runtime: LLVM 22's ELFNixPlatform withholds .fini_array
// (docs/Platform.md, Destructors):
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

__attribute__((destructor(101))) static void dtor_101(void) { printf("dtor 101\n"); }
__attribute__((destructor)) static void dtor_default_a(void) { printf("dtor default a\n"); }
__attribute__((destructor(200))) static void dtor_200(void) { printf("dtor 200\n"); }
__attribute__((destructor)) static void dtor_default_b(void) { printf("dtor default b\n"); }

static void handler(void) { printf("atexit handler\n"); }

int main(void) {
  atexit(handler);
  printf("main\n");
  return 0;
}
// CHECK:      main
// CHECK-NEXT: atexit handler
// CHECK-NEXT: dtor default b
// CHECK-NEXT: dtor default a
// CHECK-NEXT: dtor 200
// CHECK-NEXT: dtor 101
// CHECK-NEXT: parity: exit status 0
