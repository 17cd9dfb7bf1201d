// Question: when JIT'd main ends with pthread_exit, does orc-executor answer
// run-as-main only once the program's last thread has ended, with 0, so the client
// ends as the native process does (which lives on until its last thread ends, then
// exits 0)? Main's own cleanup handler runs when it exits; a thread still running
// then finishes all its output; a thread started after main has gone counts too
// (it outlives the thread that started it). Diffed against the native program:
// stdout and status 0, with llvm-jitlink (run_as_main) and lli-22 -remote-mcjit
// (run_as_main), and with llvm-jitlink and our platform runtime (run_program: its
// atexit handler runs after the last thread's output) out of process and, where the
// exit ends llvm-jitlink's own thread as natively, in process. Before orc-executor
// waited, every out-of-process run hung (the executor thread that ran main was gone,
// so the call was never answered).
// REQUIRES: orc-rt-platform
// RUN: %clang -O0 %s -o %t.native
// RUN: %python %inputs/mini-lli/expect-status.py 0 %t.native > %t.expected
// RUN: FileCheck %s < %t.expected
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 0 %llvm-jitlink \
// RUN:   -oop-executor=%orc-executor %t.o > %t.jitlink
// RUN: diff %t.expected %t.jitlink
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 0 %lli -jit-kind=mcjit \
// RUN:   -remote-mcjit -mcjit-remote-process=%orc-executor %t.ll > %t.lli
// RUN: diff %t.expected %t.lli
//
// With an atexit handler (neither run_as_main client resolves atexit: it is in
// libc_nonshared.a; our platform runtime defines it):
// RUN: %clang -O0 -DWITH_ATEXIT %s -o %t.atexit.native
// RUN: %python %inputs/mini-lli/expect-status.py 0 %t.atexit.native > %t.atexit.expected
// RUN: FileCheck %s --check-prefixes=CHECK,ATEXIT < %t.atexit.expected
// RUN: %clang -c -O0 -DWITH_ATEXIT %s -o %t.atexit.o
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 0 %llvm-jitlink \
// RUN:   -orc-runtime=%orc-rt-platform -oop-executor=%orc-executor %t.atexit.o > %t.platform
// RUN: diff %t.atexit.expected %t.platform
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 0 %llvm-jitlink \
// RUN:   -orc-runtime=%orc-rt-platform %t.atexit.o > %t.in-process
// RUN: diff %t.atexit.expected %t.in-process
//
// CHECK:      main calls pthread_exit
// CHECK-NEXT: main's cleanup handler
// CHECK-NEXT: worker line 0
// CHECK:      worker line 99
// CHECK-NEXT: worker starts a late thread and ends
// CHECK-NEXT: late thread: the worker has ended
// ATEXIT-NEXT: atexit handler
// CHECK-NOT:  {{.}}

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Cond = PTHREAD_COND_INITIALIZER;
static int MainGone;
static pthread_t Worker;

#ifdef WITH_ATEXIT
static void handler(void) { printf("atexit handler\n"); }
#endif

/* Started by the worker after main has gone; outlives the worker. */
static void *late(void *Arg) {
  (void)Arg;
  pthread_join(Worker, NULL);
  printf("late thread: the worker has ended\n");
  return NULL;
}

static void *worker(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&Lock);
  while (!MainGone)
    pthread_cond_wait(&Cond, &Lock);
  pthread_mutex_unlock(&Lock);
  for (int I = 0; I < 100; ++I)
    printf("worker line %d\n", I);
  printf("worker starts a late thread and ends\n");
  pthread_t T;
  pthread_create(&T, NULL, late, NULL);
  pthread_detach(T);
  return NULL;
}

/* Runs as main's thread unwinds from pthread_exit. */
static void mainGone(void *Arg) {
  (void)Arg;
  printf("main's cleanup handler\n");
  pthread_mutex_lock(&Lock);
  MainGone = 1;
  pthread_cond_signal(&Cond);
  pthread_mutex_unlock(&Lock);
}

int main(void) {
#ifdef WITH_ATEXIT
  atexit(handler);
#endif
  pthread_create(&Worker, NULL, worker, NULL);
  printf("main calls pthread_exit\n");
  pthread_cleanup_push(mainGone, NULL);
  pthread_exit(NULL);
  pthread_cleanup_pop(0);
  return 1;
}
