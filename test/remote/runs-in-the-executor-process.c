// Question: with -jit-kind=mcjit -remote-mcjit, does the program run in the
// executor process named by -mcjit-remote-process (stock lli-child-target and
// orc-executor), not in mini-lli's own?
//
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%orc-executor %t.ll | FileCheck %s --check-prefix=ORC
// RUN: mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%lli-child-target %t.ll | FileCheck %s --check-prefix=LCT
// The ORC kinds ignore both options, as lli-22's do: the program runs in mini-lli.
// RUN: mini-lli -remote-mcjit -mcjit-remote-process=%orc-executor %t.ll | FileCheck %s --check-prefix=LOCAL
//
// ORC:   running in orc-executor
// LCT:   running in lli-child-target
// LOCAL: running in mini-lli

#include <libgen.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
  if (N < 0)
    return 1;
  Exe[N] = 0;
  printf("running in %s\n", basename(Exe));
  return 0;
}
