// Shutdown with live frames, with --shutdown-timeout (asked to drain). JIT'd main
// starts a thread (plain pthread_create) and returns; the controller then releases the
// memory and disconnects while the thread still runs JIT'd code. orc-executor defers
// the release until the managed-code drain: the thread finishes and its output
// appears, a thread it starts after shutdown began is denied (its body never runs),
// then memory is released and the executor exits 0. By default (no option) the
// executor ends at once with the thread still inside, as the reference executor does,
// which cuts the worker off (and releases memory under it; ours does not).
// RUN: %clang -c -O0 %s -o %t.o
// The argument is how long (ms) the worker waits before its first output.
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_OPTIONS=--shutdown-timeout=forever \
// RUN:   timeout 60 %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o -args 300 2>&1 | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_OPTIONS=--shutdown-timeout=60 \
// RUN:   timeout 60 %llvm-jitlink -use-memmgr=shared \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o -args 300 2>&1 | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%llvm-jitlink-executor timeout 60 %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o -args 3000 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REF
// RUN: env ORC_EXECUTOR_REAL=%orc-executor timeout 60 %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o -args 3000 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REF
// RUN: env ORC_EXECUTOR_REAL=%orc-executor timeout 60 %llvm-jitlink -use-memmgr=shared \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o -args 3000 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REF
// CHECK: main returns
// CHECK-NEXT: worker: still running JIT'd code after main returned
// CHECK-NEXT: worker: new thread was denied
// CHECK-NEXT: executor exit status: 0
// REF: main returns
// REF-NOT: worker:
// REF: executor exit status: 0
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile int InnerRan;

static void *inner(void *P) {
  (void)P;
  InnerRan = 1;
  return NULL;
}

static volatile int WorkerStarted;

static void *worker(void *P) {
  WorkerStarted = 1;
  usleep((useconds_t)(intptr_t)P * 1000); /* main has returned; the controller
                                             releases the memory and disconnects */
  printf("worker: still running JIT'd code after main returned\n");
  fflush(stdout);
  /* Shutdown starts when the executor sees the controller's EOF: from then on a new
   * thread is denied. Try until that happens (bounded). */
  int EC = 0;
  for (int I = 0; I < 400 && EC == 0; ++I) {
    pthread_t T;
    InnerRan = 0;
    EC = pthread_create(&T, NULL, inner, NULL);
    if (EC == 0)
      pthread_join(T, NULL);
    if (EC == 0 && !InnerRan)
      break;
    usleep(25 * 1000);
  }
  printf("worker: new thread %s\n", EC ? "not created" : InnerRan ? "ran" : "was denied");
  fflush(stdout);
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t T;
  pthread_create(&T, NULL, worker, (void *)(intptr_t)(argc > 0 ? atoi(argv[0]) : 300));
  pthread_detach(T);
  /* A thread that has not entered yet when shutdown starts is denied (by design): make
   * sure this one is live first. */
  while (!WorkerStarted)
    usleep(1000);
  puts("main returns");
  fflush(stdout);
  return 0;
}
