// Question: JIT'd code registers fork handlers with pthread_atfork: do they
// run around its fork as in the native program (prepare in the parent before
// the fork, parent after it, child in the child)? glibc keeps pthread_atfork
// in libc_nonshared.a, as atexit, and libc.so.6 has only a compat version a
// lookup by name does not find: the load failed with "Symbols not found: [
// pthread_atfork ]" under every JIT kind (lli-22's too).
//
// RUN: %clang -O1 %s -o %t.native
// RUN: %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-lazy %t.ll > %t.lazy.out
// RUN: diff %t.expected %t.lazy.out
// RUN: mini-lli -jit-kind=orc-tiered %t.ll > %t.tiered.out
// RUN: diff %t.expected %t.tiered.out
// RUN: mini-lli -jit-kind=mcjit %t.ll > %t.mcjit.out
// RUN: diff %t.expected %t.mcjit.out
// RUN: FileCheck %s < %t.out
//
// CHECK:      prepare
// CHECK-NEXT: child handler
// CHECK-NEXT: child exits
// CHECK-NEXT: parent handler ran 1 time
// CHECK-NEXT: child status 7
// CHECK-NOT:  {{.}}

#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int ParentRan;
static void prepare(void) { printf("prepare\n"); fflush(stdout); }
static void parent(void) { ++ParentRan; } /* (printed after the child) */
static void child(void) { printf("child handler\n"); fflush(stdout); }

int main(void) {
  if (pthread_atfork(prepare, parent, child))
    return 1;
  pid_t P = fork();
  if (P == 0) {
    printf("child exits\n");
    fflush(stdout);
    _exit(7);
  }
  int Status;
  waitpid(P, &Status, 0);
  printf("parent handler ran %d time\n", ParentRan);
  printf("child status %d\n", WEXITSTATUS(Status));
  return 0;
}
