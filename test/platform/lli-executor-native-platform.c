// lli-22 -lljit-platform=ExecutorNative -orc-runtime=<our archive>: LLJIT initializes
// the main JITDylib through __orc_rt_jit_dlopen_wrapper, runs main itself and
// deinitializes through __orc_rt_jit_dlclose_wrapper. Constructors run in priority
// order, atexit and __cxa_atexit handlers newest first after main; with compiler-rt's
// runtime the atexit handler is dropped. (-jit-kind=orc-lazy is not tested: lli-22
// itself crashes there, in ELFDebugObjectPlugin::notifyFailed, with either runtime.)
// REQUIRES: orc-rt-platform, jit-orc-runtime
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %lli -lljit-platform=ExecutorNative -orc-runtime=%orc-rt-platform %t.ll \
// RUN:   | FileCheck %s
// RUN: %lli -lljit-platform=ExecutorNative -orc-runtime=%jit-orc-runtime %t.ll \
// RUN:   | FileCheck %s --check-prefix=CRT
// CHECK: ctor 101
// CHECK-NEXT: ctor 200
// CHECK-NEXT: main
// CHECK-NEXT: cxa_atexit handler
// CHECK-NEXT: atexit handler
// CRT: main
// CRT-NEXT: cxa_atexit handler
// CRT-NOT: atexit handler
#include <stdio.h>
#include <stdlib.h>

extern int __cxa_atexit(void (*)(void *), void *, void *);
extern void *__dso_handle;

static void handler(void) { puts("atexit handler"); }
static void cxa(void *P) {
  (void)P;
  puts("cxa_atexit handler");
}
__attribute__((constructor(200))) static void c200(void) { puts("ctor 200"); }
__attribute__((constructor(101))) static void c101(void) { puts("ctor 101"); }

int main(void) {
  atexit(handler);
  __cxa_atexit(cxa, NULL, &__dso_handle);
  puts("main");
  return 0;
}
