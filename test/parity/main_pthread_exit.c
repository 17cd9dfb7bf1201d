// main ends with pthread_exit instead of returning: the process lives on until
// its last thread ends, then exits with status 0 as if by exit(0) -- so atexit
// handlers and destructors still run, after the worker's output.
//
// Stock lli-22 loses the handlers and the destructor here (status 0, same stdout
// up to the worker's line): the entry never returns, and its exit-time work runs
// after it returns, not from the libc exit(0) that ends the process when the last
// thread ends:
// XFAIL: parity-lli
// mini-lli catches main's pthread_exit (as it catches a thread's), waits for the
// program's threads, then ends the program as exit(0) would; in an executor process
// (-remote-mcjit) its start module does the same (lib/jit/controller/RemoteStart.h).
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), in process
// or not, the destructor never runs with either runtime: LLVM 22's ELFNixPlatform
// withholds .fini_array (docs/Platform.md, Destructors). With orc-executor and our
// runtime the rest matches (run_program waits for the program's threads through
// orc-executor: docs/CommandGuide/orc-executor.md); with orc-executor and
// compiler-rt's runtime, whose run_program lets main's pthread_exit through, the
// executor answers the call with an error once the last thread has ended (status 1):
// XFAIL: parity-jitlink
// with llvm-jitlink-executor the run never ends: the executor thread that ran main is
// gone, so run_program never answers llvm-jitlink:
// UNSUPPORTED: parity-jitlink-llvm-jitlink-executor
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --timeout 30 %s | FileCheck %s
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int main_gone;

static void handler(void) { printf("atexit handler\n"); }
__attribute__((destructor)) static void dtor(void) { printf("destructor\n"); }

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  while (!main_gone)
    pthread_cond_wait(&cond, &lock);
  pthread_mutex_unlock(&lock);
  usleep(50000); // let main's thread finish exiting
  printf("worker outlived main\n");
  return NULL;
}

int main(void) {
  atexit(handler);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  printf("main calls pthread_exit\n");
  pthread_mutex_lock(&lock);
  main_gone = 1;
  pthread_cond_signal(&cond);
  pthread_mutex_unlock(&lock);
  pthread_exit(NULL);
}
// CHECK:      main calls pthread_exit
// CHECK-NEXT: worker outlived main
// CHECK-NEXT: atexit handler
// CHECK-NEXT: destructor
// CHECK-NEXT: parity: exit status 0
