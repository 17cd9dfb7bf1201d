// Many exit-time registrations: 1000 atexit handlers and 1000 __cxa_atexit
// entries (what C++ static objects use), interleaved, each recording its
// position; they must all run, once, in exact reverse order of registration.
// A fixed-size table in a driver's own atexit would lose some.
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), compiler-rt
// 22's runtime never runs atexit() handlers:
// XFAIL: parity-jitlink-compiler-rt
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

extern void *__dso_handle;
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

#define N 1000
static int order[2 * N], next_slot, registered;
static int expected_next = 2 * N - 1, in_order = 1;

static void record(int id) {
  if (id != expected_next)
    in_order = 0;
  expected_next--;
  if (next_slot < 2 * N)
    order[next_slot++] = id;
}
static void via_cxa(void *arg) { record((int)(long)arg); }

static int atexit_seq;
static void plain(void) {
  // atexit handlers cannot take an argument: the k-th one to run was registered
  // (N-1-k)-th among the plain ones, at overall position 2*(N-1-k).
  record(2 * (N - 1 - atexit_seq++));
}

static void report(void) {
  // Registered first, so it runs last.
  printf("handlers run: %d of %d, in exact reverse order: %d\n", next_slot, registered, in_order);
  fflush(stdout);
}

int main(void) {
  atexit(report);
  for (int i = 0; i < N; i++) {
    atexit(plain);
    __cxa_atexit(via_cxa, (void *)(long)(2 * i + 1), &__dso_handle);
    registered += 2;
  }
  printf("registered %d\n", registered);
  return 0;
}
// CHECK:      registered 2000
// CHECK-NEXT: handlers run: 2000 of 2000, in exact reverse order: 1
// CHECK-NEXT: parity: exit status 0
