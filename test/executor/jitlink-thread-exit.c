// Threads of JIT'd code that leave by pthread_exit / thrd_exit instead of returning:
// their cleanup handlers and thread-specific-data destructors run, pthread_join /
// thrd_join see the value, and their managed-code token is given back, so the
// executor's shutdown drain finishes (it would wait for ever otherwise). Same output
// and status as llvm-jitlink-executor; the executor itself exits 0.
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/parity.py --timeout 30 %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o -args 21 | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%orc-executor not timeout 30 %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o -args 21 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATUS
// CHECK: pthread_exit value 42, cleanup handlers 100, tsd destructors 21
// CHECK-NEXT: thrd_exit value 22, tsd destructors 1000
// CHECK-NEXT: status ref=3 ours=3
// CHECK-NEXT: PARITY OK
// STATUS: executor exit status: 0
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

static int Cleanups, TsdDtors;
static pthread_key_t Key;

static void tsdDtor(void *P) { __atomic_fetch_add(&TsdDtors, (int)(intptr_t)P, __ATOMIC_SEQ_CST); }
static void cleanup(void *P) { __atomic_fetch_add(&Cleanups, (int)(intptr_t)P, __ATOMIC_SEQ_CST); }

__attribute__((noinline)) static void leavePthread(int X) { pthread_exit((void *)(intptr_t)(X * 2)); }

static void *pthreadBody(void *Arg) {
  int X = (int)(intptr_t)Arg;
  pthread_setspecific(Key, (void *)(intptr_t)X);
  pthread_cleanup_push(cleanup, (void *)(intptr_t)100);
  leavePthread(X);
  pthread_cleanup_pop(0);
  return NULL;
}

__attribute__((noinline)) static _Noreturn void leaveThrd(int X) { thrd_exit(X + 1); }

static int thrdBody(void *Arg) {
  pthread_setspecific(Key, (void *)(intptr_t)1000);
  leaveThrd(*(int *)Arg);
}

int main(int argc, char **argv) {
  int X = argc > 0 ? atoi(argv[0]) : 1;
  pthread_key_create(&Key, tsdDtor);
  pthread_t T;
  void *Ret;
  pthread_create(&T, NULL, pthreadBody, (void *)(intptr_t)X);
  pthread_join(T, &Ret);
  printf("pthread_exit value %ld, cleanup handlers %d, tsd destructors %d\n",
         (long)(intptr_t)Ret, Cleanups, TsdDtors);
  thrd_t C;
  int CRet;
  thrd_create(&C, thrdBody, &X);
  thrd_join(C, &CRet);
  printf("thrd_exit value %d, tsd destructors %d\n", CRet, TsdDtors - X);
  fflush(stdout);
  return 3;
}
