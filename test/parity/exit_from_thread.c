// exit() called by a worker thread while main is blocked in pthread_join on it
// (so main is still inside JIT'd code and never returns): atexit handlers and
// destructors run once, on the worker, and the status is exit's argument.
//
// Stock lli-22 runs neither the JIT'd program's atexit handlers nor its
// destructors when the program calls exit() (as in exit_nested.c):
// XFAIL: parity-lli
//
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), the
// destructor never runs with either runtime (LLVM 22's ELFNixPlatform withholds
// .fini_array), and with an executor llvm-jitlink exits 1 ("disconnecting") when the
// executor process exits:
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --timeout 30 %s -- 5 | FileCheck %s
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_t main_thread;
static void handler(void) {
  printf("atexit handler, on main thread: %d\n", pthread_equal(pthread_self(), main_thread) != 0);
}
__attribute__((destructor)) static void dtor(void) { printf("destructor\n"); }

static void *worker(void *arg) {
  int status = (int)(intptr_t)arg;
  printf("worker calls exit(%d)\n", status);
  exit(status);
}

int main(int argc, char **argv) {
  main_thread = pthread_self();
  atexit(handler);
  int status = argc > 1 ? atoi(argv[1]) : 1;
  pthread_t t;
  pthread_create(&t, NULL, worker, (void *)(intptr_t)status);
  pthread_join(t, NULL);
  printf("main: join returned\n");
  return 0;
}
// CHECK:      worker calls exit(5)
// CHECK-NEXT: atexit handler, on main thread: 0
// CHECK-NEXT: destructor
// CHECK-NEXT: parity: exit status 5
// CHECK-NOT:  join returned
