// What a program sees at start under run_program, as natively: main's third argument
// is the environment (compiler-rt's runtime passes none: reading it crashes), and the
// floating-point environment is the default (no exception flags left raised by the
// executor's own work, round to nearest). In process and with both executors.
// REQUIRES: orc-rt-platform, jit-orc-runtime
// RUN: %clang -c -O0 %s -o %t.o
// RUN: env PLATFORM_TEST_VAR=hello %python %inputs/platform/modes.py %orc-executor \
// RUN:   %llvm-jitlink-executor -- %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ \
// RUN:   %t.o | FileCheck %s
// RUN: env PLATFORM_TEST_VAR=hello not --crash %llvm-jitlink \
// RUN:   -orc-runtime=%jit-orc-runtime %t.o
// CHECK: envp has PLATFORM_TEST_VAR=hello: 1, same as environ: 1
// CHECK-NEXT: raised flags at start: 0, rounding to nearest: 1
// CHECK-NEXT: in-process: status 0
// CHECK-NEXT: orc-executor: same stdout, status 0
// CHECK-NEXT: llvm-jitlink-executor: same stdout, status 0
#include <fenv.h>
#include <stdio.h>
#include <string.h>

extern char **environ;

int main(int argc, char **argv, char **envp) {
  (void)argc;
  (void)argv;
  int Found = 0;
  for (char **E = envp; *E; ++E)
    Found |= strcmp(*E, "PLATFORM_TEST_VAR=hello") == 0;
  printf("envp has PLATFORM_TEST_VAR=hello: %d, same as environ: %d\n", Found,
         envp == environ);
  printf("raised flags at start: %d, rounding to nearest: %d\n",
         fetestexcept(FE_ALL_EXCEPT), fegetround() == FE_TONEAREST);
  return 0;
}
