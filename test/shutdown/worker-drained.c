// Question: with -shutdown-timeout (asked to drain), main returns while a
// worker thread (started with plain pthread_create) is still inside JIT'd
// code. Does the worker finish, then
// shutdown complete, then code get freed -- with main's status?
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 7 mini-lli -shutdown-timeout=forever -trace-shutdown %t.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 7 mini-lli -shutdown-timeout=forever -trace-shutdown -jit-kind=orc-lazy %t.ll 2>&1 | FileCheck %s
//
// CHECK:      main: returning with the worker inside
// CHECK-NEXT: mini-lli: shutdown: requested; new entries into JIT'd code are denied
// CHECK-NEXT: worker: saw the shutdown request, still running
// CHECK-NEXT: worker: done
// CHECK-NEXT: mini-lli: shutdown: drain complete; freeing the JIT and its code memory
// CHECK-NEXT: mini-lli: shutdown: code memory freed
// CHECK-NEXT: mini-lli: shutdown: complete
// CHECK-NOT:  {{.}}

#include "../Inputs/mini-lli/wait-denied.h"
#include <orc-rt-c/orc-rt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int Inside;

static void *worker(void *Arg) {
  (void)Arg;
  atomic_store(&Inside, 1);
  orc_rt_SessionRef S = orc_rt_Session_current();
  waitUntilEntriesDenied(S);
  printf("worker: saw the shutdown request, still running\n");
  fflush(stdout);
  usleep(50 * 1000); // the drain must wait for this frame
  printf("worker: done\n");
  fflush(stdout);
  return NULL;
}

int main(void) {
  pthread_t T;
  if (pthread_create(&T, NULL, worker, NULL))
    return 1;
  while (!atomic_load(&Inside))
    usleep(1000);
  printf("main: returning with the worker inside\n");
  fflush(stdout);
  return 7;
}
