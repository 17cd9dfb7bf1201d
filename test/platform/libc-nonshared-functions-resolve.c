// at_quick_exit and pthread_atfork live in glibc's libc_nonshared.a, not libc.so, so
// JIT'd code cannot find them in the process: our runtime provides them (the
// controller's archive generator pulls them in). A fork runs the atfork handlers;
// quick_exit runs the at_quick_exit handlers newest first and no atexit handler.
// With compiler-rt's runtime the program does not link. (With an executor,
// llvm-jitlink reports the lost connection and exits 1, as after any exit.)
// REQUIRES: orc-rt-platform, jit-orc-runtime
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/platform/modes.py %orc-executor %llvm-jitlink-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ %t.o | FileCheck %s
// RUN: not %llvm-jitlink -orc-runtime=%jit-orc-runtime %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CRT
// CHECK: prepare
// CHECK-NEXT: parent: child exited 7
// CHECK-NEXT: quick_exit handler 2
// CHECK-NEXT: quick_exit handler 1
// CHECK-NEXT: in-process: status 5
// CHECK-NEXT: orc-executor: same stdout, status 1
// CHECK-NEXT: llvm-jitlink-executor: same stdout, status 1
// CRT: Symbols not found: [ {{.*}}at_quick_exit
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void prepare(void) {
  puts("prepare");
  fflush(stdout);
}
static void parent(void) {}
static void child(void) { _exit(7); }
static void q1(void) {
  puts("quick_exit handler 1");
  fflush(stdout);
}
static void q2(void) {
  puts("quick_exit handler 2");
  fflush(stdout);
}
static void notRun(void) { puts("atexit handler (must not run)"); }

int main(void) {
  atexit(notRun);
  at_quick_exit(q1);
  at_quick_exit(q2);
  pthread_atfork(prepare, parent, child);
  pid_t P = fork();
  if (P == 0)
    return 1; /* the child handler exits first */
  int Status = 0;
  waitpid(P, &Status, 0);
  printf("parent: child exited %d\n", WEXITSTATUS(Status));
  fflush(stdout);
  quick_exit(5);
}
