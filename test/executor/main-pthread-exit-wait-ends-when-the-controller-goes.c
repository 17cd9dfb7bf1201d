// Question: while orc-executor holds a main that ended with pthread_exit until the
// program's last thread has ended, does the controller going away end that wait, so
// that the wait never keeps the Session's drain (--shutdown-timeout=forever) from
// finishing? The controller is killed once main has exited; the worker then starts
// probe threads until one is denied (shutdown has begun: a denied thread never runs
// its body, so it is never seen to end), prints, and ends. The executor must then end,
// status 0. Had the wait gone on, it would wait for the denied thread for ever and
// keep its request's token, so the drain would never finish. main says its line only
// once the worker runs: a thread whose start the controller's going overtook would be
// denied itself (on a loaded machine the worker was once not yet running when the
// controller was killed, and never printed). By default (no drain)
// the executor ends as soon as the controller is gone, status 0 too (whether the
// worker's line gets out first is a race, as for any thread cut off there).
// RUN: %clang -c -O0 -I%orc-rt-include %s -o %t.o
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_OPTIONS=--shutdown-timeout=forever \
// RUN:   %python %inputs/executor/kill-controller-at.py --at "main calls pthread_exit" -- \
// RUN:   %llvm-jitlink -oop-executor=%inputs/executor/status-wrapper.sh %t.o | FileCheck %s
// RUN: %clang -S -emit-llvm -O0 -I%orc-rt-include %s -o %t.ll
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_OPTIONS=--shutdown-timeout=forever \
// RUN:   %python %inputs/executor/kill-controller-at.py --at "main calls pthread_exit" -- \
// RUN:   %lli -jit-kind=mcjit -remote-mcjit \
// RUN:   -mcjit-remote-process=%inputs/executor/status-wrapper.sh %t.ll | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%orc-executor \
// RUN:   %python %inputs/executor/kill-controller-at.py --at "main calls pthread_exit" -- \
// RUN:   %llvm-jitlink -oop-executor=%inputs/executor/status-wrapper.sh %t.o \
// RUN:   | FileCheck %s --check-prefix=NODRAIN
// CHECK:      main calls pthread_exit
// CHECK-NEXT: worker: a thread started after the controller left was denied
// CHECK:      executor exit status: 0
// NODRAIN: main calls pthread_exit
// NODRAIN: executor exit status: 0

#include "orc-rt-c/ManagedThread.h"

#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static sem_t Running;

static void *probe(void *Arg) { return Arg; }

static void *worker(void *Arg) {
  (void)Arg;
  sem_post(&Running);
  for (;;) {
    pthread_t T;
    void *R;
    if (pthread_create(&T, NULL, probe, NULL) != 0)
      return NULL;
    pthread_join(T, &R);
    if (R == ORC_RT_MANAGED_THREAD_DENIED)
      break;
    usleep(10000);
  }
  printf("worker: a thread started after the controller left was denied\n");
  fflush(stdout);
  return NULL;
}

int main(void) {
  pthread_t T;
  sem_init(&Running, 0, 0);
  pthread_create(&T, NULL, worker, NULL);
  pthread_detach(T);
  while (sem_wait(&Running) != 0)
    ;
  printf("main calls pthread_exit\n");
  fflush(stdout);
  pthread_exit(NULL);
}
