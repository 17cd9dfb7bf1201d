// Question: inside a frame that is still live when shutdown is requested, is
// a nested entry (orc_rt_Session_callManagedCode from JIT'd code) denied, while
// the frame itself keeps running? And before the request, is it allowed?
//
// Under -force-interpreter: LLVM's interpreter cannot call
// orc_rt_Session_callManagedCode through libffi (its bool result), and what it would
// enter is interpreted code.
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -shutdown-timeout=forever %t.ll | FileCheck %s
//
// CHECK:      main: nested entry allowed, in managed code: yes
// CHECK-NEXT: worker: nested entry after the request denied
// CHECK-NEXT: worker: still running after the denial
// CHECK-NOT:  nested body ran after the request

#include "../Inputs/mini-lli/wait-denied.h"
#include <orc-rt-c/orc-rt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int Inside, Requested;

static void nested(void *Ctx) {
  (void)Ctx;
  if (atomic_load(&Requested))
    printf("nested body ran after the request\n");
}

static void *worker(void *Arg) {
  (void)Arg;
  orc_rt_SessionRef S = orc_rt_Session_current();
  atomic_store(&Inside, 1);
  waitUntilEntriesDenied(S);
  atomic_store(&Requested, 1);
  if (!orc_rt_Session_callManagedCode(S, nested, NULL))
    printf("worker: nested entry after the request denied\n");
  printf("worker: still running after the denial\n");
  fflush(stdout);
  return NULL;
}

int main(void) {
  orc_rt_SessionRef S = orc_rt_Session_current();
  bool Allowed = orc_rt_Session_callManagedCode(S, nested, NULL);
  printf("main: nested entry %s, in managed code: %s\n",
         Allowed ? "allowed" : "denied",
         orc_rt_Session_isInManagedCode(S) ? "yes" : "no");
  fflush(stdout);
  pthread_t W;
  pthread_create(&W, NULL, worker, NULL);
  while (!atomic_load(&Inside))
    usleep(1000);
  return 0;
}
