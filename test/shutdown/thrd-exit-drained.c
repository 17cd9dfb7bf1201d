// Question: C11 threads that leave JIT'd code with thrd_exit from a nested
// frame give their Session token back (the drain completes, no hang), and
// thrd_join sees the exit value.
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native thrd_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 4 mini-lli -trace-shutdown -shutdown-timeout=20 %t.ll 2>&1 | FileCheck %s
//
// CHECK:      thrd_exit values 22 23
// CHECK-NEXT: main: returning with the last worker inside
// CHECK-NEXT: mini-lli: shutdown: requested
// CHECK-NEXT: last worker: leaving with thrd_exit
// CHECK-NEXT: mini-lli: shutdown: drain complete
// CHECK:      mini-lli: shutdown: complete

#include "../Inputs/mini-lli/wait-denied.h"
#include <orc-rt-c/orc-rt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <threads.h>
#include <unistd.h>

static atomic_int Inside;

__attribute__((noinline)) static void leave(int V) { thrd_exit(V); }

static int exits(void *Arg) {
  leave((int)(long)Arg);
  return 0;
}

static int lastWorker(void *Arg) {
  (void)Arg;
  atomic_store(&Inside, 1);
  waitUntilEntriesDenied(orc_rt_Session_current());
  printf("last worker: leaving with thrd_exit\n");
  fflush(stdout);
  leave(0);
  return 1;
}

int main(void) {
  thrd_t A, B;
  int RA = 0, RB = 0;
  thrd_create(&A, exits, (void *)22L);
  thrd_create(&B, exits, (void *)23L);
  thrd_join(A, &RA);
  thrd_join(B, &RB);
  printf("thrd_exit values %d %d\n", RA, RB);
  thrd_t C;
  thrd_create(&C, lastWorker, NULL);
  while (!atomic_load(&Inside))
    usleep(1000);
  printf("main: returning with the last worker inside\n");
  fflush(stdout);
  return 4;
}
