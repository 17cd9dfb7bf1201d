// lli -jit-kind=mcjit -remote-mcjit: orc-executor runs as lli-child-target does
// ("<infd> <outfd>"): same stdout, same stderr (including the empty line lli prints
// for its reserve(0) quirk) and same status, for a normal exit and a negative one.
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/executor/parity.py --stderr %lli-child-target %orc-executor -- \
// RUN:   %lli -jit-kind=mcjit -remote-mcjit -mcjit-remote-process=@EXE@ %t.ll a b \
// RUN:   | FileCheck %s
// RUN: %clang -S -emit-llvm -O0 -DRET=-3 %s -o %t.neg.ll
// RUN: %python %inputs/executor/parity.py --stderr %lli-child-target %orc-executor -- \
// RUN:   %lli -jit-kind=mcjit -remote-mcjit -mcjit-remote-process=@EXE@ %t.neg.ll \
// RUN:   | FileCheck %s --check-prefix=NEG
// CHECK: hello argc=0 len=12
// CHECK-NEXT: status ref=7 ours=7
// CHECK-NEXT: PARITY OK
// RUN: %clang -S -emit-llvm -O0 -DEXIT %s -o %t.exit.ll
// RUN: %python %inputs/executor/parity.py --stderr %lli-child-target %orc-executor -- \
// RUN:   %lli -jit-kind=mcjit -remote-mcjit -mcjit-remote-process=@EXE@ %t.exit.ll \
// RUN:   | FileCheck %s --check-prefix=EXIT
// NEG: status ref=253 ours=253
// NEG-NEXT: PARITY OK
// EXIT: status ref=1 ours=1
// EXIT-NEXT: PARITY OK
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RET
#define RET 7
#endif

int main(int argc, char **argv) {
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "hello argc=%d", argc);
  printf("%s len=%zu\n", Buf, strlen(Buf));
  fflush(stdout);
#ifdef EXIT
  exit(3); /* takes the executor down: lli reports "disconnecting" */
#endif
  return RET;
}
