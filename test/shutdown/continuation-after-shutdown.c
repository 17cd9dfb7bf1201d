// Question: JIT'd code stashes a continuation and has the runtime resume it
// later (orc_rt_Session_dispatchManagedCall). Before shutdown it runs under a
// fresh token; resumed after the request, is it never run (its OnDenied runs
// instead)?
//
// Under -force-interpreter: the continuation handed to
// orc_rt_Session_dispatchManagedCall and the worker's start routine are interpreted
// code, which native code cannot call: SIGSEGV.
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -shutdown-timeout=forever %t.ll | FileCheck %s
//
// CHECK:      continuation 1 ran, in managed code: yes
// CHECK-NEXT: continuation 2 denied
// CHECK-NOT:  continuation 2 ran

#include "../Inputs/mini-lli/wait-denied.h"
#include <orc-rt-c/orc-rt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int Inside, Done;

static void cont(void *Ctx) {
  printf("continuation %d ran, in managed code: %s\n", (int)(long)Ctx,
         orc_rt_Session_isInManagedCode(orc_rt_Session_current()) ? "yes"
                                                                  : "no");
  fflush(stdout);
  atomic_store(&Done, 1);
}

static void denied(void *Ctx) {
  printf("continuation %d denied\n", (int)(long)Ctx);
  fflush(stdout);
  atomic_store(&Done, 1);
}

static void *worker(void *Arg) {
  orc_rt_SessionRef S = Arg;
  atomic_store(&Inside, 1);
  waitUntilEntriesDenied(S);
  orc_rt_ErrorRef E =
      orc_rt_Session_dispatchManagedCall(S, cont, denied, (void *)2L);
  if (E) {
    printf("dispatch failed: %s\n", orc_rt_Error_getMessage(E));
    orc_rt_Error_consume(E);
    return NULL;
  }
  while (!atomic_load(&Done)) // wait for the runtime to decide
    usleep(1000);
  return NULL;
}

int main(void) {
  orc_rt_SessionRef S = orc_rt_Session_current();
  orc_rt_Error_consume(
      orc_rt_Session_dispatchManagedCall(S, cont, denied, (void *)1L));
  while (!atomic_load(&Done))
    usleep(1000);
  atomic_store(&Done, 0);
  pthread_t W;
  pthread_create(&W, NULL, worker, S);
  while (!atomic_load(&Inside))
    usleep(1000);
  return 0;
}
