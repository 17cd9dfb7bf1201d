// Question: thread-specific-data destructors (pthread_key_create, tss_create)
// are JIT'd code too. Do they run before the thread gives its Session token
// back -- i.e. before the drain completes and code is freed -- rather than at
// the thread's real end?
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -shutdown-timeout=forever -trace-shutdown %t.ll 2>&1 | FileCheck %s
//
// CHECK:      main: returning with the worker inside
// CHECK-NEXT: mini-lli: shutdown: requested
// CHECK-NEXT: worker: leaving
// CHECK-DAG:  pthread key destructor: 7
// CHECK-DAG:  tss destructor: 8
// CHECK-NEXT: mini-lli: shutdown: drain complete
// CHECK-NEXT: mini-lli: shutdown: code memory freed

#include "../Inputs/mini-lli/wait-denied.h"
#include <orc-rt-c/orc-rt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <threads.h>
#include <unistd.h>

static atomic_int Inside;
static pthread_key_t PKey;
static tss_t CKey;
static int Seven = 7, Eight = 8;

static void pdtor(void *V) {
  printf("pthread key destructor: %d\n", *(int *)V);
  fflush(stdout);
}

static void cdtor(void *V) {
  printf("tss destructor: %d\n", *(int *)V);
  fflush(stdout);
}

static void *worker(void *Arg) {
  (void)Arg;
  pthread_setspecific(PKey, &Seven);
  tss_set(CKey, &Eight);
  atomic_store(&Inside, 1);
  waitUntilEntriesDenied(orc_rt_Session_current());
  usleep(20 * 1000);
  printf("worker: leaving\n");
  fflush(stdout);
  return NULL;
}

int main(void) {
  pthread_key_create(&PKey, pdtor);
  tss_create(&CKey, cdtor);
  pthread_t T;
  pthread_create(&T, NULL, worker, NULL);
  while (!atomic_load(&Inside))
    usleep(1000);
  printf("main: returning with the worker inside\n");
  fflush(stdout);
  return 0;
}
