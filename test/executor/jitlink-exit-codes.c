// Exit statuses travel as int64 and are narrowed by the client: zero, non-zero,
// > 255 and negative values give the same status as with llvm-jitlink-executor.
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o -args 0 | FileCheck %s --check-prefix=ZERO
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o -args 3 | FileCheck %s --check-prefix=THREE
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o -args 300 | FileCheck %s --check-prefix=BIG
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o -args -1 | FileCheck %s --check-prefix=NEG
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o -args -7 | FileCheck %s --check-prefix=NEG7
// ZERO: status ref=0 ours=0
// ZERO-NEXT: PARITY OK
// THREE: status ref=3 ours=3
// THREE-NEXT: PARITY OK
// BIG: status ref=44 ours=44
// BIG-NEXT: PARITY OK
// NEG: status ref=255 ours=255
// NEG-NEXT: PARITY OK
// NEG7: status ref=249 ours=249
// NEG7-NEXT: PARITY OK
#include <stdlib.h>

int main(int argc, char **argv) { return argc > 0 ? atoi(argv[0]) : 99; }
