// Question: main returns while a thread is still inside JIT'd code. By default,
// does mini-lli end like the native program -- the exit work (atexit handlers)
// runs, stdout (a pipe) is flushed, the process ends at once with main's status
// and the code is never freed under the thread -- and with
// -shutdown-timeout=forever does it instead wait until the thread's work is
// done, then free the code?
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 3 timeout 30 mini-lli -trace-shutdown %t.ll 2>&1 | FileCheck %s --check-prefix=NATIVE
// RUN: %python %inputs/mini-lli/expect-status.py 3 timeout 30 mini-lli -trace-shutdown -jit-kind=orc-lazy %t.ll 2>&1 | FileCheck %s --check-prefix=NATIVE
// RUN: %python %inputs/mini-lli/expect-status.py 3 timeout 30 mini-lli -trace-shutdown -shutdown-timeout=forever %t.ll 2>&1 | FileCheck %s --check-prefix=DRAIN
// RUN: %python %inputs/mini-lli/expect-status.py 3 timeout 30 mini-lli -trace-shutdown -shutdown-timeout=20 -jit-kind=orc-lazy %t.ll 2>&1 | FileCheck %s --check-prefix=DRAIN
//
// NATIVE:      main done
// NATIVE-NEXT: atexit handler
// NATIVE-NEXT: mini-lli: shutdown: requested; new entries into JIT'd code are denied
// NATIVE-NEXT: mini-lli: shutdown: threads are still inside JIT'd code; ending the process without waiting for them
// NATIVE-NOT:  {{.}}
//
// DRAIN:      main done
// DRAIN-NEXT: atexit handler
// DRAIN-NEXT: mini-lli: shutdown: requested; new entries into JIT'd code are denied
// DRAIN-NEXT: worker done
// DRAIN-NEXT: mini-lli: shutdown: drain complete; freeing the JIT and its code memory
// DRAIN-NEXT: mini-lli: shutdown: code memory freed
// DRAIN-NEXT: mini-lli: shutdown: complete
// DRAIN-NOT:  {{.}}

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int Inside;

static void *worker(void *Arg) {
  (void)Arg;
  atomic_store(&Inside, 1);
  usleep(1000 * 1000); // long after main returned
  printf("worker done\n");
  fflush(stdout);
  return NULL;
}

static void handler(void) { printf("atexit handler\n"); }

int main(void) {
  atexit(handler);
  pthread_t T;
  pthread_create(&T, NULL, worker, NULL);
  while (!atomic_load(&Inside))
    usleep(1000);
  printf("main done\n"); // stdout is a pipe: only a flush writes this
  return 3;
}
