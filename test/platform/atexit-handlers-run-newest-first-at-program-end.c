// atexit and __cxa_atexit handlers run at program end, newest first, interleaved as
// registered, including one registered by a handler (runs next) and one registered
// by a constructor (runs last): as natively. compiler-rt's runtime drops the atexit
// ones (it files them under the platform JITDylib, which is never closed) and runs
// only the __cxa_atexit ones.
// REQUIRES: orc-rt-platform, jit-orc-runtime
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/platform/modes.py %orc-executor %llvm-jitlink-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ %t.o | FileCheck %s
// RUN: %llvm-jitlink -orc-runtime=%jit-orc-runtime %t.o | FileCheck %s --check-prefix=CRT
// CHECK: main returns
// CHECK-NEXT: atexit 3
// CHECK-NEXT: atexit from handler
// CHECK-NEXT: cxa_atexit B
// CHECK-NEXT: atexit 2
// CHECK-NEXT: cxa_atexit A
// CHECK-NEXT: atexit 1
// CHECK-NEXT: atexit from constructor
// CHECK-NEXT: in-process: status 0
// CHECK-NEXT: orc-executor: same stdout, status 0
// CHECK-NEXT: llvm-jitlink-executor: same stdout, status 0
// CRT: main returns
// CRT-NEXT: cxa_atexit B
// CRT-NEXT: cxa_atexit A
// CRT-NOT: atexit
#include <stdio.h>
#include <stdlib.h>

extern int __cxa_atexit(void (*)(void *), void *, void *);
extern void *__dso_handle;

static void cxa(void *Name) { printf("cxa_atexit %s\n", (const char *)Name); }
static void fromCtor(void) { puts("atexit from constructor"); }
static void fromHandler(void) { puts("atexit from handler"); }
static void a1(void) { puts("atexit 1"); }
static void a2(void) { puts("atexit 2"); }
static void a3(void) {
  puts("atexit 3");
  atexit(fromHandler);
}

__attribute__((constructor)) static void ctor(void) { atexit(fromCtor); }

int main(void) {
  atexit(a1);
  __cxa_atexit(cxa, "A", &__dso_handle);
  atexit(a2);
  __cxa_atexit(cxa, "B", &__dso_handle);
  atexit(a3);
  puts("main returns");
  return 0;
}
