// JIT'd main returns while threads it started never end (one calling JIT'd code in a
// loop, one sleeping in libc). orc-executor ends as soon as the controller is gone,
// as the native program ends when main returns: the same stdout (a pipe, so a
// lingering executor would keep the reader waiting: expect.py's timeout) and status,
// executor status 0, no orphan. Its memory is never released under the looping thread,
// so it never crashes. (llvm-jitlink-executor also ends, but releases the memory first
// and then often dies with SIGSEGV in the looping thread, losing the output, so it
// cannot be the reference here.) With --shutdown-timeout it waits for the threads
// first and gives up after that long (status 1, as in shutdown-timeout.c).
// RUN: %clang -O0 %s -o %t.native
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/fuzz/expect.py 3 %t.native | FileCheck %s
// RUN: %python %inputs/fuzz/expect.py 3 %llvm-jitlink -oop-executor=%orc-executor %t.o \
// RUN:   | FileCheck %s
// RUN: %python %inputs/fuzz/expect.py 3 %llvm-jitlink -use-memmgr=shared \
// RUN:   -oop-executor=%orc-executor %t.o | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%orc-executor %python %inputs/fuzz/expect.py 3 %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATUS
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_OPTIONS=--shutdown-timeout=1 \
// RUN:   %python %inputs/fuzz/expect.py 3 %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DRAIN
// CHECK: main done
// CHECK-NOT: {{.}}
// STATUS: main done
// STATUS-NEXT: executor exit status: 0
// DRAIN: main done
// DRAIN-NEXT: orc-executor: error: shutdown timed out after 1000 ms: JIT'd code is still running
// DRAIN-NEXT: executor exit status: 1
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_long Spins;
static atomic_int Sleeping;

__attribute__((noinline)) static void step(void) { atomic_fetch_add(&Spins, 1); }

static void *spinner(void *P) {
  (void)P;
  for (;;)
    step();
  return NULL;
}

static void *sleeper(void *P) {
  (void)P;
  atomic_store(&Sleeping, 1);
  for (;;)
    sleep(1);
  return NULL;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, spinner, NULL);
  pthread_detach(A);
  pthread_create(&B, NULL, sleeper, NULL); /* joinable, never joined */
  while (atomic_load(&Spins) < 1000 || !atomic_load(&Sleeping))
    usleep(1000);
  printf("main done\n"); /* stdout is a pipe: buffered until a flush */
  return 3;
}
