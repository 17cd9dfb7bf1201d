// With orc-executor, the platform runtime's deinitialization keeps the Session's
// rule: memory is released only after every frame in JIT'd code has returned. main
// returns while a worker thread still runs JIT'd code; run_program's dlclose runs
// main's atexit handler; the controller then releases everything and disconnects.
// Asked to drain (--shutdown-timeout), orc-executor defers the release until the
// worker returns: the worker still reads
// its __thread variable (through the runtime's __tls_get_addr) and prints; only then
// do the dealloc actions run, newest allocation first, so every deregister call and
// the platform shutdown find the runtime's code still mapped (no "not an address of
// code" refusals), and the executor exits 0. By default orc-executor ends with its
// controller like the native program, the worker's code still mapped: nothing is
// released and the exit is clean. llvm-jitlink-executor cuts the worker off.
// REQUIRES: orc-rt-platform
// RUN: %clang -c -O0 -fPIC %s -o %t.o
// RUN: env ORC_EXECUTOR_REAL=%orc-executor \
// RUN:   ORC_EXECUTOR_OPTIONS=--shutdown-timeout=forever timeout 60 %llvm-jitlink \
// RUN:   -orc-runtime=%orc-rt-platform \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o -args 300 2>&1 \
// RUN:   | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%orc-executor timeout 60 %llvm-jitlink \
// RUN:   -orc-runtime=%orc-rt-platform \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o -args 3000 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// RUN: env ORC_EXECUTOR_REAL=%llvm-jitlink-executor timeout 60 %llvm-jitlink \
// RUN:   -orc-runtime=%orc-rt-platform \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o -args 3000 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REF
// CHECK: main returns
// CHECK-NEXT: main's atexit handler
// CHECK-NOT: not an address of code
// CHECK: worker: still running JIT'd code after main returned, Counter=8
// CHECK-NOT: not an address of code
// CHECK: executor exit status: 0
// DEFAULT: main returns
// DEFAULT-NEXT: main's atexit handler
// DEFAULT-NOT: not an address of code
// DEFAULT-NOT: worker:
// DEFAULT: executor exit status: 0
// REF: main returns
// REF-NEXT: main's atexit handler
// REF-NOT: worker:
// REF: executor exit status:
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__thread int Counter = 7;
static volatile int WorkerStarted;

static void *worker(void *P) {
  ++Counter;
  WorkerStarted = 1;
  usleep((useconds_t)(intptr_t)P * 1000); /* main has returned; the controller
                                             releases the memory and disconnects */
  printf("worker: still running JIT'd code after main returned, Counter=%d\n",
         Counter);
  fflush(stdout);
  return NULL;
}

static void handler(void) {
  puts("main's atexit handler");
  fflush(stdout);
}

int main(int argc, char **argv) {
  atexit(handler);
  pthread_t T;
  pthread_create(&T, NULL, worker,
                 (void *)(intptr_t)(argc > 0 ? atoi(argv[0]) : 300));
  pthread_detach(T);
  while (!WorkerStarted)
    usleep(1000);
  puts("main returns");
  fflush(stdout);
  return 0;
}
