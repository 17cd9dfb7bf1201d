// lli is killed while JIT'd main still runs. By default the executor sees EOF and
// ends at once, without waiting for main and without releasing its memory: it never
// outlives its controller by more than its exit work ("woke up" never appears;
// lli-child-target waits for main instead). With --shutdown-timeout it shuts down,
// waits for main to finish (its output appears), then releases memory and exits 0.
// (--foreground: only lli is killed, not the executor in its process group.)
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: env ORC_EXECUTOR_REAL=%orc-executor not timeout --foreground -s KILL 0.5 %lli -jit-kind=mcjit \
// RUN:   -remote-mcjit -mcjit-remote-process=%inputs/executor/status-wrapper.sh %t.ll \
// RUN:   2>&1 | FileCheck %s --check-prefix=NATIVE
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_OPTIONS=--shutdown-timeout=forever \
// RUN:   not timeout --foreground -s KILL 0.5 %lli -jit-kind=mcjit \
// RUN:   -remote-mcjit -mcjit-remote-process=%inputs/executor/status-wrapper.sh %t.ll \
// RUN:   2>&1 | FileCheck %s
// NATIVE: main sleeps
// NATIVE-NOT: woke up
// NATIVE: executor exit status: 0
// NATIVE-NOT: woke up
// CHECK: main sleeps
// CHECK: woke up
// CHECK: executor exit status: 0
#include <stdio.h>
#include <unistd.h>

int main(void) {
  puts("main sleeps");
  fflush(stdout);
  sleep(2);
  puts("woke up");
  fflush(stdout);
  return 0;
}
