// Question: a frame never returns. With -shutdown-timeout, does mini-lli print
// a report naming each live entry (thread id, entry symbol, seconds inside)
// and end with the program's status (main's 6, not a status of its own),
// without freeing code? Without the option: see
// thread-not-waited-for-by-default.c.
//
// Under -force-interpreter: the worker's start routine is interpreted code, which
// native pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 6 mini-lli -trace-shutdown -shutdown-timeout=0.3 %t.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 6 mini-lli -trace-shutdown --shutdown-timeout 0.3 -jit-kind=orc-lazy %t.ll 2>&1 | FileCheck %s --check-prefix=LAZY
// RUN: %python %inputs/mini-lli/expect-status.py 6 mini-lli -trace-shutdown --shutdown-timeout 0.3 -jit-kind=orc-tiered -tier-up-threshold=1 %t.ll 2>&1 | FileCheck %s --check-prefix=LAZY
//
// CHECK:      main: returning
// CHECK:      mini-lli: shutdown: requested
// CHECK-NEXT: mini-lli: warning: shutdown timed out after 0.3 s with threads still inside JIT'd code; code memory is not freed
// CHECK-DAG:    thread {{[0-9]+}}: entered through 'spin_forever', inside for {{[0-9.]+}} s
// CHECK-DAG:    thread {{[0-9]+}}: entered through 'sleep_forever', inside for {{[0-9.]+}} s
// CHECK:      mini-lli: 2 live entries; ending the process with the program's status
// CHECK-NOT:  code memory freed
//
// LAZY:      mini-lli: warning: shutdown timed out
// LAZY-NEXT:   thread {{[0-9]+}}: entered through {{.*}}, inside for
// LAZY-NEXT:   thread {{[0-9]+}}: entered through {{.*}}, inside for
// LAZY-NEXT: mini-lli: 2 live entries; ending the process with the program's status
// LAZY-NOT:  code memory freed

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int Started;

static void *spin_forever(void *Arg) {
  (void)Arg;
  atomic_fetch_add(&Started, 1);
  for (;;)
    usleep(10 * 1000);
  return NULL;
}

void *sleep_forever(void *Arg) {
  atomic_fetch_add(&Started, 1);
  for (;;)
    pause();
  return Arg;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, spin_forever, NULL);
  pthread_create(&B, NULL, sleep_forever, NULL);
  while (atomic_load(&Started) < 2)
    usleep(1000);
  printf("main: returning\n");
  return 6;
}
