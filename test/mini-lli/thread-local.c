// Question: thread_local variables work in JIT'd code (emulated TLS): each
// thread sees its own copy with the initial value, including a thread_local
// defined in another module (-extra-module), and a native thread_local of the
// process (errno) is not disturbed. Same output as the native program.
//
// RUN: %clang -O1 %s %inputs/mini-lli/tls-def.c -o %t.native
// RUN: %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %clang -S -emit-llvm -O1 %inputs/mini-lli/tls-def.c -o %t.def.ll
// RUN: mini-lli -extra-module=%t.def.ll %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-lazy -extra-module=%t.def.ll %t.ll > %t.lazy
// RUN: diff %t.expected %t.lazy
// RUN: FileCheck %s < %t.out
//
// CHECK:      thread 1: local 2, shared 101, errno 34
// CHECK-NEXT: thread 2: local 3, shared 101, errno 34
// CHECK-NEXT: main: local 1, shared 100

#include <errno.h>
#include <pthread.h>
#include <stdio.h>

extern _Thread_local int shared_tls;
int bump_shared_tls(void);
static _Thread_local int local = 1;
struct Arg { int Id; char Out[64]; };

static void *body(void *P) {
  struct Arg *A = P;
  local += A->Id;
  errno = ERANGE;
  int S = bump_shared_tls();
  snprintf(A->Out, sizeof(A->Out), "thread %d: local %d, shared %d, errno %d",
           A->Id, local, S, errno);
  return NULL;
}

int main(void) {
  struct Arg A[2] = {{1, ""}, {2, ""}};
  pthread_t T[2];
  for (int I = 0; I < 2; ++I)
    pthread_create(&T[I], NULL, body, &A[I]);
  for (int I = 0; I < 2; ++I) {
    pthread_join(T[I], NULL);
    printf("%s\n", A[I].Out);
  }
  printf("main: local %d, shared %d\n", local, shared_tls);
  return 0;
}
