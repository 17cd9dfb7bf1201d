// Question: many threads keep entering and leaving JIT'd code (nested calls
// and short-lived threads) while shutdown starts. No crash, every thread sees
// its entries denied, and no entry succeeds once the drain has completed.
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native pthread_create cannot call: SIGSEGV (lli-22 fails earlier: its process has no
// orc_rt_*).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -shutdown-timeout=forever -trace-shutdown %t.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -shutdown-timeout=forever -trace-shutdown -jit-kind=orc-lazy %t.ll 2>&1 | FileCheck %s
//
// CHECK:      mini-lli: shutdown: requested
// CHECK:      all 16 threads saw their entries denied
// CHECK-NEXT: mini-lli: shutdown: drain complete
// CHECK-NOT:  entered after

#include <orc-rt-c/orc-rt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

enum { NumThreads = 16 };
static atomic_int Running, SawDenial;
static atomic_long Entries;

static void enter(void *Ctx) {
  (void)Ctx;
  orc_rt_SessionRef S = orc_rt_Session_current();
  if (orc_rt_Session_getState(S) == orc_rt_SessionState_Shutdown)
    printf("entered after the drain\n");
  atomic_fetch_add(&Entries, 1);
}

static void *child(void *Arg) {
  enter(NULL);
  return Arg;
}

static void *worker(void *Arg) {
  orc_rt_SessionRef S = Arg;
  atomic_fetch_add(&Running, 1);
  for (unsigned I = 0;; ++I) {
    if (!orc_rt_Session_callManagedCode(S, enter, NULL))
      break;
    if (I % 8 == 0) {
      pthread_t C;
      void *R = NULL;
      if (!pthread_create(&C, NULL, child, &Running)) {
        pthread_join(C, &R);
        if (R == ORC_RT_MANAGED_THREAD_DENIED)
          break;
      }
    }
  }
  if (atomic_fetch_add(&SawDenial, 1) + 1 == NumThreads) {
    printf("all %d threads saw their entries denied\n", NumThreads);
    fflush(stdout);
  }
  return NULL;
}

int main(void) {
  orc_rt_SessionRef S = orc_rt_Session_current();
  pthread_t T[NumThreads];
  for (int I = 0; I < NumThreads; ++I)
    pthread_create(&T[I], NULL, worker, S);
  while (atomic_load(&Running) < NumThreads || atomic_load(&Entries) < 1000)
    usleep(1000);
  return 0;
}
