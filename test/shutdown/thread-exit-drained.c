// Question: threads that leave JIT'd code with pthread_exit (or are cancelled)
// from nested frames give their Session token back, so the drain completes (no
// hang), after their cleanup handlers ran; and join sees the exit values. A
// worker still inside when main returns exits the same way. (thrd_exit:
// thrd-exit-drained.c.)
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 4 mini-lli -trace-shutdown -shutdown-timeout=20 %t.ll 2>&1 | FileCheck %s
//
// CHECK:      cleanup 1
// CHECK-NEXT: pthread_exit value 42
// CHECK-NEXT: cleanup 2
// CHECK-NEXT: cancelled: yes
// CHECK-NEXT: main: returning with the last worker inside
// CHECK-NEXT: mini-lli: shutdown: requested
// CHECK-NEXT: cleanup 3
// CHECK-NEXT: mini-lli: shutdown: drain complete
// CHECK:      mini-lli: shutdown: complete

#include "../Inputs/mini-lli/wait-denied.h"
#include <orc-rt-c/orc-rt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int Inside;

static void cleanup(void *Arg) {
  printf("cleanup %d\n", (int)(long)Arg);
  fflush(stdout);
}

__attribute__((noinline)) static void leave(void *V) { pthread_exit(V); }

static void *exits(void *Arg) {
  pthread_cleanup_push(cleanup, Arg);
  leave((void *)42L);
  pthread_cleanup_pop(0);
  return NULL;
}

static void *waitsForCancel(void *Arg) {
  pthread_cleanup_push(cleanup, Arg);
  for (;;)
    pause(); // a cancellation point
  pthread_cleanup_pop(0);
  return NULL;
}

static void *lastWorker(void *Arg) {
  pthread_cleanup_push(cleanup, Arg);
  atomic_store(&Inside, 1);
  waitUntilEntriesDenied(orc_rt_Session_current());
  leave(NULL);
  pthread_cleanup_pop(0);
  return NULL;
}

int main(void) {
  pthread_t T;
  void *R;
  pthread_create(&T, NULL, exits, (void *)1L);
  pthread_join(T, &R);
  printf("pthread_exit value %ld\n", (long)R);
  fflush(stdout);
  pthread_create(&T, NULL, waitsForCancel, (void *)2L);
  usleep(20 * 1000);
  pthread_cancel(T);
  pthread_join(T, &R);
  printf("cancelled: %s\n", R == PTHREAD_CANCELED ? "yes" : "no");
  pthread_create(&T, NULL, lastWorker, (void *)3L);
  while (!atomic_load(&Inside))
    usleep(1000);
  printf("main: returning with the last worker inside\n");
  fflush(stdout);
  return 4;
}
