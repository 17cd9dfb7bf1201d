// Question: under -jit-kind=mcjit, a thread never leaves MCJIT'd code. Does
// -shutdown-timeout print the live-frame report naming the entry symbol and
// end with the program's status, freeing nothing -- as under LLJIT? Without
// the option, does the process end at once with that status?
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=mcjit -trace-shutdown -shutdown-timeout=0.3 %t.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -jit-kind=mcjit -trace-shutdown %t.ll 2>&1 | FileCheck %s --check-prefix=NODRAIN
//
// CHECK:      main: returning
// CHECK:      mini-lli: warning: shutdown timed out after 0.3 s with threads still inside JIT'd code; code memory is not freed
// CHECK-NEXT:   thread {{[0-9]+}}: entered through 'spin_forever', inside for {{[0-9.]+}} s
// CHECK-NEXT: mini-lli: 1 live entry; ending the process with the program's status
// CHECK-NOT:  code memory freed
//
// NODRAIN:     main: returning
// NODRAIN-NOT: timed out
// NODRAIN-NOT: code memory freed

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int Started;

static void *spin_forever(void *Arg) {
  (void)Arg;
  atomic_store(&Started, 1);
  for (;;)
    usleep(10 * 1000);
  return NULL;
}

int main(void) {
  pthread_t A;
  pthread_create(&A, NULL, spin_forever, NULL);
  while (!atomic_load(&Started))
    usleep(1000);
  printf("main: returning\n");
  fflush(stdout);
  return 0;
}
