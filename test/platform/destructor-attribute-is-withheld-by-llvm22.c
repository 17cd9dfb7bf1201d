// __attribute__((destructor)) functions (.fini_array) do not run under LLVM 22's
// ELFNixPlatform, with our runtime or compiler-rt's: the controller registers only
// initializer sections with the runtime (it has no fini-section registration
// function; __orc_rt_elfnix_register_fini_sections appears only in later LLVM) and
// does not keep .fini_array alive, so the runtime never learns the addresses. This
// test records that; natively the destructor runs (docs/Platform.md, "Destructors").
// Static C++ destructors are unaffected: clang registers them with __cxa_atexit.
// REQUIRES: orc-rt-platform, jit-orc-runtime
// RUN: %clang -O0 %s -o %t.native && %t.native | FileCheck %s --check-prefix=NATIVE
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/platform/modes.py %orc-executor %llvm-jitlink-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ %t.o | FileCheck %s
// RUN: %llvm-jitlink -orc-runtime=%jit-orc-runtime %t.o | FileCheck %s
// NATIVE: constructor
// NATIVE-NEXT: main
// NATIVE-NEXT: destructor
// CHECK: constructor
// CHECK-NEXT: main
// CHECK-NOT: destructor
#include <stdio.h>

__attribute__((constructor)) static void ctor(void) { puts("constructor"); }
__attribute__((destructor)) static void dtor(void) { puts("destructor"); }

int main(void) {
  puts("main");
  return 0;
}
