// JIT'd code that calls exit() or crashes takes the executor down, as with the
// reference: the client reports "disconnecting" and exits 1, with both executors.
// RUN: %clang -c -O0 %s -o %t.exit.o
// RUN: %clang -c -O0 -DCRASH %s -o %t.crash.o
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.exit.o 2>%t.err | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=DISC < %t.err
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.crash.o 2>%t.err | FileCheck %s --check-prefix=CRASH
// RUN: FileCheck %s --check-prefix=DISC < %t.err
// EXIT: before exit
// EXIT: status ref=1 ours=1
// EXIT-NEXT: PARITY OK
// CRASH: status ref=1 ours=1
// CRASH-NEXT: PARITY OK
// DISC: llvm-jitlink: disconnecting
#include <stdio.h>
#include <stdlib.h>

int main(void) {
#ifdef CRASH
  *(volatile int *)0 = 1;
#endif
  puts("before exit");
  fflush(stdout);
  exit(3);
}
