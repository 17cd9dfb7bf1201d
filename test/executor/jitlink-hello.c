// llvm-jitlink -oop-executor: args reach main (no program name), libc calls work,
// and stdout + exit status equal those of llvm-jitlink-executor.
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o -args first "with space" "" last \
// RUN:   | FileCheck %s
// CHECK: argc=4
// CHECK-NEXT: argv[0]=<first>
// CHECK-NEXT: argv[1]=<with space>
// CHECK-NEXT: argv[2]=<>
// CHECK-NEXT: argv[3]=<last>
// CHECK-NEXT: argv[4]=NULL
// CHECK-NEXT: snprintf=<x=42 s=abc> strlen=10
// CHECK-NEXT: qsort=1 2 3 5 8
// CHECK-NEXT: malloc ok
// CHECK-NEXT: status ref=7 ours=7
// CHECK-NEXT: PARITY OK
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *A, const void *B) { return *(const int *)A - *(const int *)B; }

int main(int argc, char **argv) {
  printf("argc=%d\n", argc);
  for (int I = 0; I < argc; ++I)
    printf("argv[%d]=<%s>\n", I, argv[I]);
  printf("argv[%d]=%s\n", argc, argv[argc] ? "non-NULL" : "NULL");
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "x=%d s=%s", 42, "abc");
  printf("snprintf=<%s> strlen=%zu\n", Buf, strlen(Buf));
  int V[] = {5, 3, 8, 1, 2};
  qsort(V, 5, sizeof(int), cmp);
  printf("qsort=%d %d %d %d %d\n", V[0], V[1], V[2], V[3], V[4]);
  char *P = malloc(1 << 20);
  memset(P, 1, 1 << 20);
  puts(P[12345] == 1 ? "malloc ok" : "malloc bad");
  free(P);
  return 7;
}
