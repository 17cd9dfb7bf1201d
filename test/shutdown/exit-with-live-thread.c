// Question: JIT'd code calls exit() while another thread is inside JIT'd
// code. Do the atexit handlers and destructors still run, exactly once, and is
// the status exit's argument (no crash, no hang waiting for the other thread)?
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli %t.ll | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -jit-kind=orc-lazy %t.ll | FileCheck %s
//
// CHECK:      main: calling exit(5)
// CHECK-NEXT: handler 2
// CHECK-NEXT: handler 1
// CHECK-NEXT: destructor
// CHECK-NOT:  {{handler|destructor|after exit}}

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int Inside;

static void h1(void) { printf("handler 1\n"); }
static void h2(void) { printf("handler 2\n"); }
__attribute__((destructor)) static void dtor(void) { printf("destructor\n"); }

static void *spin(void *Arg) {
  (void)Arg;
  atomic_store(&Inside, 1);
  for (;;)
    usleep(10 * 1000);
  return NULL;
}

int main(void) {
  atexit(h1);
  atexit(h2);
  pthread_t T;
  pthread_create(&T, NULL, spin, NULL);
  while (!atomic_load(&Inside))
    usleep(1000);
  printf("main: calling exit(5)\n");
  exit(5);
  printf("after exit\n");
}
