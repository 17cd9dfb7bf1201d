// Threads started by JIT'd code that end by pthread_exit / thrd_exit from a
// nested function instead of returning from their start routine: the value
// reaches pthread_join / thrd_join, cleanup handlers (pthread_cleanup_push) and
// thread-specific-data destructors run, and the program then exits normally
// with main's status. (A driver that counts live entries into JIT'd code must
// see these threads leave too, or its drain at shutdown never finishes.)
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --timeout 30 %s -- 21 | FileCheck %s
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

static int cleanups, tsd_dtors;
static pthread_key_t key;
static void tsd_dtor(void *p) { __atomic_fetch_add(&tsd_dtors, (int)(intptr_t)p, __ATOMIC_SEQ_CST); }
static void cleanup(void *p) { __atomic_fetch_add(&cleanups, (int)(intptr_t)p, __ATOMIC_SEQ_CST); }

__attribute__((noinline)) static void leave_pthread(int x) {
  pthread_exit((void *)(intptr_t)(x * 2));
}
static void *pthread_body(void *arg) {
  int x = (int)(intptr_t)arg;
  pthread_setspecific(key, (void *)(intptr_t)x);
  pthread_cleanup_push(cleanup, (void *)(intptr_t)100);
  leave_pthread(x);
  pthread_cleanup_pop(0);
  return NULL;
}

__attribute__((noinline)) static _Noreturn void leave_thrd(int x) { thrd_exit(x + 1); }
static int thrd_body(void *arg) {
  int x = *(int *)arg;
  pthread_setspecific(key, (void *)(intptr_t)1000);
  leave_thrd(x);
}

int main(int argc, char **argv) {
  int x = argc > 1 ? atoi(argv[1]) : 1;
  pthread_key_create(&key, tsd_dtor);

  pthread_t t;
  void *ret;
  pthread_create(&t, NULL, pthread_body, (void *)(intptr_t)x);
  pthread_join(t, &ret);
  // CHECK: pthread_exit value 42, cleanup handlers 100, tsd destructors 21
  printf("pthread_exit value %ld, cleanup handlers %d, tsd destructors %d\n",
         (long)(intptr_t)ret, cleanups, tsd_dtors);

  thrd_t c;
  int res;
  thrd_create(&c, thrd_body, &x);
  thrd_join(c, &res);
  // CHECK-NEXT: thrd_exit value 22, tsd destructors 1021
  printf("thrd_exit value %d, tsd destructors %d\n", res, tsd_dtors);
  // CHECK-NEXT: parity: exit status 3
  return 3;
}
