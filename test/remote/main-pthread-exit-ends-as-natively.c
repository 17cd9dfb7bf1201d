// Question: in an executor process, when main ends with pthread_exit, does the
// program live on until its last thread ends and then exit with status 0,
// running its atexit handlers and destructors, as natively (where lli-22 and
// llvm-jitlink with the reference executors wait forever for run_as_main)? With
// orc-executor the start module calls main through the executor's
// orc_rt_ExecutorServices_callAsMainThread; with lli-child-target it counts the
// program's threads itself. And does exit() from main, on
// the same thread, still end it at once with its status?
//
// RUN: %clang -O0 %s -o %t.native
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 %t.native > %t.expected
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 0 mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%orc-executor %t.ll > %t.orc
// RUN: diff %t.expected %t.orc
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 0 mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%lli-child-target %t.ll > %t.lct
// RUN: diff %t.expected %t.lct
// RUN: %python %inputs/mini-lli/expect-status.py --timeout=60 4 mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%lli-child-target %t.ll exit | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s < %t.expected
//
// CHECK:      main calls pthread_exit
// CHECK-NEXT: worker outlived main
// CHECK-NEXT: atexit handler
// CHECK-NEXT: destructor
// CHECK-NOT:  {{.}}
//
// EXIT:      main calls exit(4)
// EXIT-NEXT: atexit handler
// EXIT-NEXT: destructor

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void handler(void) { printf("atexit handler\n"); }
__attribute__((destructor)) static void dtor(void) { printf("destructor\n"); }

static void *worker(void *Arg) {
  (void)Arg;
  usleep(100000); /* well after main's thread has gone */
  printf("worker outlived main\n");
  return NULL;
}

int main(int argc, char **argv) {
  (void)argv;
  atexit(handler);
  if (argc > 1) {
    printf("main calls exit(4)\n");
    exit(4);
  }
  pthread_t T;
  pthread_create(&T, NULL, worker, NULL);
  pthread_detach(T); /* never joined: no "thread leak" under TSan */
  printf("main calls pthread_exit\n");
  fflush(stdout);
  pthread_exit(NULL);
}
