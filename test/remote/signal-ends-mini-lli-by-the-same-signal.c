// Question: when the program dies of a signal in the executor process, does
// mini-lli end by that signal too, as the native program would (not with
// lli-22's "disconnecting" and status 1)?
//
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/remote/how-it-ended.py mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%orc-executor %t.ll | FileCheck %s
// RUN: %python %inputs/remote/how-it-ended.py mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%lli-child-target %t.ll | FileCheck %s
//
// CHECK: before abort
// CHECK: killed by signal 6

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  printf("before abort\n");
  fflush(stdout);
  abort();
}
