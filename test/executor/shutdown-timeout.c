// A thread of the JIT'd program that never ends keeps the shutdown drain waiting; with
// --shutdown-timeout (given through ORC_EXECUTOR_OPTIONS, since llvm-jitlink starts the
// executor with a fixed command line) the executor gives up after that long, says so,
// and exits 1 without running exit handlers under the live code. The client has its
// result already.
// RUN: %clang -c -O0 %s -o %t.o
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_OPTIONS=--shutdown-timeout=1 \
// RUN:   not timeout 60 %llvm-jitlink -oop-executor=%inputs/executor/status-wrapper.sh %t.o \
// RUN:   2>&1 | FileCheck %s
// CHECK: main returns
// CHECK: orc-executor: error: shutdown timed out after 1000 ms: JIT'd code is still running
// CHECK: executor exit status: 1
// RUN: env ORC_EXECUTOR_OPTIONS=--bogus not orc-executor 0 1 2>&1 | FileCheck %s --check-prefix=ENV
// ENV: orc-executor: error: in ORC_EXECUTOR_OPTIONS: unknown option --bogus
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile int Started;

static void *forever(void *P) {
  (void)P;
  Started = 1;
  for (;;)
    sleep(1);
  return NULL;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, forever, NULL);
  while (!Started)
    usleep(1000);
  puts("main returns");
  fflush(stdout);
  return 4;
}
