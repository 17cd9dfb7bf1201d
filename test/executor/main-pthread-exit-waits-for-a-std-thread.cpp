// Question: when JIT'd main ends with pthread_exit, does orc-executor also wait for a
// thread that a library started for the program (libstdc++ creates std::thread's
// threads with its own pthread_create call, which orc-executor's exported
// pthread_create makes one of the program's threads) before it answers run-as-main?
// The thread is still running, and sleeps a little, when main has gone; its output
// must all come out, and the client must end with status 0, as natively. With
// llvm-jitlink (run_as_main) and lli-22 -remote-mcjit.
// RUN: %clangxx -O0 %s -o %t.native -pthread
// RUN: %python %inputs/mini-lli/expect-status.py 0 %t.native > %t.expected
// RUN: FileCheck %s < %t.expected
// RUN: %clangxx -c -O0 %s -o %t.o
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 0 %llvm-jitlink \
// RUN:   -oop-executor=%orc-executor %t.o > %t.jitlink
// RUN: diff %t.expected %t.jitlink
// RUN: %clangxx -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 0 %lli -jit-kind=mcjit \
// RUN:   -remote-mcjit -mcjit-remote-process=%orc-executor %t.ll > %t.lli
// RUN: diff %t.expected %t.lli
// CHECK:      main calls pthread_exit
// CHECK-NEXT: main's cleanup handler
// CHECK-NEXT: std::thread line 0
// CHECK-NEXT: std::thread line 1
// CHECK-NEXT: std::thread line 2
// CHECK-NOT:  {{.}}

#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Cond = PTHREAD_COND_INITIALIZER;
static bool MainGone;

/* Runs as main's thread unwinds from pthread_exit. */
static void mainGone(void *) {
  std::printf("main's cleanup handler\n");
  pthread_mutex_lock(&Lock);
  MainGone = true;
  pthread_cond_signal(&Cond);
  pthread_mutex_unlock(&Lock);
}

int main() {
  std::thread T([] {
    pthread_mutex_lock(&Lock);
    while (!MainGone)
      pthread_cond_wait(&Cond, &Lock);
    pthread_mutex_unlock(&Lock);
    /* Not needed for the right answer: it only gives an executor that does not
     * count this thread time to end the run first. */
    usleep(200000);
    for (int I = 0; I < 3; ++I)
      std::printf("std::thread line %d\n", I);
  });
  T.detach();
  std::printf("main calls pthread_exit\n");
  pthread_cleanup_push(mainGone, nullptr);
  pthread_exit(nullptr);
  pthread_cleanup_pop(0);
}
