// The reference calls main(argc, argv) only, so a main that also takes envp sees no
// environment entries there (environ is still the process's). orc-executor passes an
// empty envp, with both clients: same output and status.
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o | FileCheck %s
// RUN: %python %inputs/executor/parity.py %lli-child-target %orc-executor -- \
// RUN:   %lli -jit-kind=mcjit -remote-mcjit -mcjit-remote-process=@EXE@ %t.ll | FileCheck %s
// CHECK: envp entries 0, environ non-empty 1
// CHECK-NEXT: status ref=0 ours=0
// CHECK-NEXT: PARITY OK
#include <stdio.h>

extern char **environ;

int main(int argc, char **argv, char **envp) {
  (void)argc;
  (void)argv;
  int N = 0;
  for (char **E = envp; *E; ++E)
    ++N;
  printf("envp entries %d, environ non-empty %d\n", N, environ[0] != NULL);
  return 0;
}
