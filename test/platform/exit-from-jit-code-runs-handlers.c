// exit() called from JIT'd code (two frames below main) runs the program's atexit
// and __cxa_atexit handlers newest first, as natively, in process and in either
// executor. compiler-rt's runtime runs none of them. With an executor, llvm-jitlink
// itself reports the lost connection and exits 1, whichever executor and runtime.
// REQUIRES: orc-rt-platform, jit-orc-runtime
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/platform/modes.py %orc-executor %llvm-jitlink-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ %t.o -args a b c \
// RUN:   | FileCheck %s
// RUN: not %llvm-jitlink -orc-runtime=%jit-orc-runtime %t.o -args a b c \
// RUN:   | FileCheck %s --check-prefix=CRT
// CHECK: calling exit(9)
// CHECK-NEXT: cxa_atexit handler
// CHECK-NEXT: atexit 2
// CHECK-NEXT: atexit 1
// CHECK-NEXT: in-process: status 9
// CHECK-NEXT: orc-executor: same stdout, status 1
// CHECK-NEXT: llvm-jitlink-executor: same stdout, status 1
// CRT: calling exit(9)
// CRT-NOT: atexit
#include <stdio.h>
#include <stdlib.h>

extern int __cxa_atexit(void (*)(void *), void *, void *);
extern void *__dso_handle;

static void a1(void) { puts("atexit 1"); }
static void a2(void) { puts("atexit 2"); }
static void cxa(void *P) {
  (void)P;
  puts("cxa_atexit handler");
}

static void leave(int Code) {
  printf("calling exit(%d)\n", Code);
  exit(Code);
}
static void middle(int Code) { leave(Code); }

int main(int argc, char **argv) {
  (void)argv;
  atexit(a1);
  atexit(a2);
  __cxa_atexit(cxa, NULL, &__dso_handle);
  middle(argc + 6);
  puts("not reached");
  return 0;
}
