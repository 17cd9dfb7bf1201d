// The smallest program under stock llvm-jitlink with our platform runtime archive, in
// process and with both executors: printf, argv and main's exit status arrive as
// natively (llvm-jitlink passes only the -args words as argv).
// REQUIRES: orc-rt-platform
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/platform/modes.py %orc-executor %llvm-jitlink-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ %t.o -args x yz | FileCheck %s
// CHECK: hello, world: argc=2
// CHECK-NEXT: arg x
// CHECK-NEXT: arg yz
// CHECK-NEXT: in-process: status 42
// CHECK-NEXT: orc-executor: same stdout, status 42
// CHECK-NEXT: llvm-jitlink-executor: same stdout, status 42
#include <stdio.h>

int main(int argc, char **argv) {
  printf("hello, world: argc=%d\n", argc);
  for (int I = 0; I < argc; ++I)
    printf("arg %s\n", argv[I]);
  return 40 + argc;
}
