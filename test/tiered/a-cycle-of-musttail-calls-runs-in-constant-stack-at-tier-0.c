// Question: two functions call each other with musttail (as a threaded
// interpreter's handlers do) ten million times: does the program run in
// constant stack at tier 0 too, as the native program and `-O0` code do?
//
// A stub keeps a frame for each call it takes, so a cycle of musttail calls
// behind tier-0 stubs grew the stack at every call and overflowed it
// (SIGSEGV) whenever tier 1 came late -- every time with tier-up off. A
// function that makes a musttail call is now reached without a stub (every
// function in such a cycle makes one), as functions a stub cannot enter are.
//
// RUN: %clang -O2 %s -o %t.native
// RUN: %t.native > %t.expected
// RUN: %clang -S -emit-llvm -O2 %s -o %t.ll
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=2000000000 %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-tiered %t.ll > %t.default.out
// RUN: diff %t.expected %t.default.out
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.O0.ll
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=2000000000 %t.O0.ll > %t.O0.out
// RUN: diff %t.expected %t.O0.out
// RUN: FileCheck %s < %t.out
//
// CHECK: ping-pong 10000000 calls: 9999998

#include <stdio.h>
#include <stdlib.h>

long ping(long N, long A);
long pong(long N, long A);

__attribute__((noinline)) long ping(long N, long A) {
  if (N == 0)
    return A;
  __attribute__((musttail)) return pong(N - 1, A + 2);
}

__attribute__((noinline)) long pong(long N, long A) {
  if (N == 0)
    return A;
  __attribute__((musttail)) return ping(N - 1, A);
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? atol(Argv[1]) : 10000000;
  printf("ping-pong %ld calls: %ld\n", N, ping(N, 0) - 2);
  return 0;
}
