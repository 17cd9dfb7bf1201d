// exit() from main while a background thread the program started is still
// running inside JIT'd code and never finishes (a ticker loop): natively the
// process ends at once with exit's status, atexit handlers run, and the
// background thread simply stops. The driver must not wait for that thread.
// (main *returning* with such a thread: main_returns_busy_thread.c; the drain
// mini-lli does on request, with -shutdown-timeout, is tested in test/shutdown.)
//
// Stock lli-22 runs neither the JIT'd program's atexit handlers nor its
// destructors when the program calls exit() (as in exit_nested.c):
// XFAIL: parity-lli
//
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with an
// executor llvm-jitlink exits 1 ("disconnecting") when the executor process exits; in
// process compiler-rt's runtime runs no handler on exit():
// XFAIL: parity-jitlink-oop, parity-jitlink-compiler-rt
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --timeout 60 %s -- 4 | FileCheck %s
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_long ticks;
static void *ticker(void *arg) {
  (void)arg;
  for (;;) {
    atomic_fetch_add(&ticks, 1);
    usleep(1000);
  }
  return NULL;
}
static void handler(void) { printf("atexit handler\n"); }

int main(int argc, char **argv) {
  atexit(handler);
  pthread_t t;
  pthread_create(&t, NULL, ticker, NULL);
  while (atomic_load(&ticks) < 3)
    usleep(1000);
  printf("ticker is running; exiting\n");
  exit(argc > 1 ? atoi(argv[1]) : 1);
}
// CHECK:      ticker is running; exiting
// CHECK-NEXT: atexit handler
// CHECK-NEXT: parity: exit status 4
