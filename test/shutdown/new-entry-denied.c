// Question: once shutdown is requested, is a new entry into JIT'd code denied,
// and can the program see the denial? A worker inside JIT'd code starts a
// thread with pthread_create and with thrd_create after the request: both
// threads' bodies must never run, and joining them reports the denial.
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native pthread_create cannot call: SIGSEGV (lli-22 fails earlier: its process has no
// orc_rt_*).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -shutdown-timeout=forever %t.ll | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -shutdown-timeout=forever -jit-kind=orc-lazy %t.ll | FileCheck %s
//
// CHECK:     before the request: pthread body ran, thrd body ran
// CHECK-NEXT: after the request: pthread_create returned 0, join says denied
// CHECK-NEXT: after the request: thrd_create returned thrd_success, join says denied
// CHECK-NOT: body ran after the request

#include "../Inputs/mini-lli/wait-denied.h"
#include <orc-rt-c/orc-rt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <threads.h>
#include <unistd.h>

static atomic_int Inside, Requested;

static void *pbody(void *Arg) {
  if (atomic_load(&Requested))
    printf("pthread body ran after the request\n");
  return Arg;
}

static int cbody(void *Arg) {
  (void)Arg;
  if (atomic_load(&Requested))
    printf("thrd body ran after the request\n");
  return 5;
}

static void *worker(void *Arg) {
  (void)Arg;
  atomic_store(&Inside, 1);
  orc_rt_SessionRef S = orc_rt_Session_current();
  waitUntilEntriesDenied(S);
  atomic_store(&Requested, 1);
  pthread_t P;
  int EC = pthread_create(&P, NULL, pbody, NULL);
  void *R = NULL;
  pthread_join(P, &R);
  printf("after the request: pthread_create returned %d, join says %s\n", EC,
         R == ORC_RT_MANAGED_THREAD_DENIED ? "denied" : "ran");
  thrd_t C;
  int CR = thrd_create(&C, cbody, NULL);
  int Res = 0;
  thrd_join(C, &Res);
  printf("after the request: thrd_create returned %s, join says %s\n",
         CR == thrd_success ? "thrd_success" : "an error",
         Res == ORC_RT_MANAGED_THRD_DENIED ? "denied" : "ran");
  fflush(stdout);
  return NULL;
}

int main(void) {
  pthread_t P;
  void *R;
  pthread_create(&P, NULL, pbody, &Inside);
  pthread_join(P, &R);
  thrd_t C;
  int Res;
  thrd_create(&C, cbody, NULL);
  thrd_join(C, &Res);
  printf("before the request: pthread body %s, thrd body %s\n",
         R == &Inside ? "ran" : "denied", Res == 5 ? "ran" : "denied");
  fflush(stdout);
  pthread_t W;
  pthread_create(&W, NULL, worker, NULL);
  while (!atomic_load(&Inside))
    usleep(1000);
  return 0;
}
