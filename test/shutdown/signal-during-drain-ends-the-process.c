// Question: while mini-lli waits for the drain (-shutdown-timeout) for a thread
// that never leaves JIT'd code, do SIGTERM and SIGINT end the process at once,
// as they would end the native program (by the signal, with default
// dispositions), and has what main wrote already reached stdout (a pipe)
// before the wait, rather than being held back in a buffer the signal throws
// away?
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/signal-during-drain.py SIGTERM mini-lli -shutdown-timeout=forever %t.ll | FileCheck %s --check-prefixes=CHECK,TERM
// RUN: %python %inputs/mini-lli/signal-during-drain.py SIGINT mini-lli -shutdown-timeout=60 %t.ll | FileCheck %s --check-prefixes=CHECK,INT
// RUN: %python %inputs/mini-lli/signal-during-drain.py SIGTERM mini-lli -shutdown-timeout=forever -jit-kind=orc-lazy %t.ll | FileCheck %s --check-prefixes=CHECK,TERM
//
// CHECK:      read while running: main done
// TERM-NEXT:  ended by SIGTERM
// INT-NEXT:   ended by SIGINT

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int Inside;

static void *forever(void *Arg) {
  (void)Arg;
  atomic_store(&Inside, 1);
  for (;;)
    sleep(1);
  return NULL;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, forever, NULL);
  while (!atomic_load(&Inside))
    usleep(1000);
  printf("main done\n"); // buffered: stdout is a pipe
  return 0;
}
