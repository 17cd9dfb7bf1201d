// TCP (listen= + stock llvm-jitlink -oop-executor-connect): JIT'd main returns while a
// thread it started never ends. listen= serves exactly one connection, so when that
// connection ends (--idle-close: LLVM 22's client never closes its side) the executor
// ends too, at once, with status 0 and the program's output on its stdout; the client
// exits with main's status. It does not wait for the thread (nor release memory under
// it).
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/tcp_session.py %orc-executor "--idle-close-ms=700" -- \
// RUN:   %llvm-jitlink -oop-executor-connect=@ADDR@ %t.o -args 6 | FileCheck %s
// CHECK: listening on 127.0.0.1
// CHECK: main done
// CHECK-NEXT: client status: 6
// CHECK-NEXT: executor status: 0
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_long Spins;

__attribute__((noinline)) static void step(void) { atomic_fetch_add(&Spins, 1); }

static void *spinner(void *P) {
  (void)P;
  for (;;) {
    step();
    usleep(100);
  }
  return NULL;
}

int main(int argc, char **argv) {
  pthread_t T;
  pthread_create(&T, NULL, spinner, NULL);
  while (atomic_load(&Spins) < 100)
    usleep(1000);
  usleep(500 * 1000); /* while it runs, tcp_session.py tries a second connection */
  printf("main done\n");
  return argc > 0 ? atoi(argv[0]) : 1;
}
