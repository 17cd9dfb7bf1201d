// Question: under orc-tiered a function's address is its front (8 bytes, 8
// apart: TierFronts.h), which follows its tier-ups. Does a function whose
// address means more than where to call it keep the address the program
// expects: the alignment it asks for (a program keeps tags in the low bits),
// and the type data that -fsanitize=kcfi and -fsanitize=function place just
// before the entry and check through the pointer before an indirect call?
//
// Found by running unseen programs: the tagged call ran the neighbouring
// front's function, every kcfi-checked indirect call trapped, and a call the
// function sanitizer must stop ran. Such a function whose address escapes
// gets no front (compile/LazySplit.c): its address is its code's, as under
// -jit-kind=orc-lazy, and it stays at tier 0. Prefix data in IR:
// a-function-with-prefix-data-keeps-it-before-its-address.ll.
//
// RUN: %clang -O2 %s -o %t.native
// RUN: %t.native > %t.expected
// RUN: FileCheck %s < %t.expected
// RUN: %clang -O2 -c -emit-llvm %s -o %t.bc
// RUN: mini-lli -jit-kind=orc-tiered %t.bc | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.bc | diff %t.expected -
// RUN: %clang -O0 -Xclang -disable-O0-optnone -c -emit-llvm %s -o %t.O0.bc
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.O0.bc | diff %t.expected -
//
// kcfi: the indirect calls check the callee's type hash (no tags: kcfi's
// own native build of aligned functions traps).
// RUN: %clang -O2 -fsanitize=kcfi -DUNTAGGED %s -o %t.kcfi.native
// RUN: %t.kcfi.native > %t.kcfi.expected
// RUN: FileCheck %s --check-prefix=UNTAGGED < %t.kcfi.expected
// RUN: %clang -O2 -fsanitize=kcfi -DUNTAGGED -c -emit-llvm %s -o %t.kcfi.bc
// RUN: mini-lli -jit-kind=orc-tiered %t.kcfi.bc | diff %t.kcfi.expected -
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.kcfi.bc | diff %t.kcfi.expected -
//
// The function sanitizer stops a call through a pointer of the wrong type,
// as natively (a trap: the process ends on SIGILL; untagged, as for kcfi).
// RUN: %clang -O2 -fsanitize=function -fsanitize-trap=function -DUNTAGGED -DMISMATCH %s -o %t.san.native
// RUN: not --crash %t.san.native | FileCheck %s --check-prefix=TRAP
// RUN: %clang -O2 -fsanitize=function -fsanitize-trap=function -DUNTAGGED -DMISMATCH -c -emit-llvm %s -o %t.san.bc
// RUN: not --crash mini-lli -jit-kind=orc-tiered %t.san.bc | FileCheck %s --check-prefix=TRAP
//
// CHECK: aligned: yes, sum 300040000
// UNTAGGED: sum 299980000
// TRAP: calling a long (long) as an int (int)
// TRAP-NOT: not stopped

#include <stdint.h>
#include <stdio.h>

typedef int (*Fn)(int);

#ifdef UNTAGGED
#define ALIGN 1
#else
#define ALIGN 64
#endif

__attribute__((aligned(ALIGN), noinline)) int inc(int X) { return X + 1; }
__attribute__((aligned(ALIGN), noinline)) int dbl(int X) { return X * 2; }
__attribute__((aligned(ALIGN), noinline)) int neg(int X) { return -X; }

static Fn Table[3] = {inc, dbl, neg};

/* P: a function's address with a tag in its low bits (none if UNTAGGED). */
__attribute__((noinline)) int callTagged(uintptr_t P, int X) {
  return ((Fn)(P & ~(uintptr_t)(ALIGN - 1)))(X) + (int)(P & (ALIGN - 1));
}

#ifdef MISMATCH
__attribute__((noinline)) long takesLong(long X) { return X + 1; }
#endif

int main(void) {
  long Sum = 0;
  uintptr_t Low = 0;
  for (int I = 0; I < 30000; ++I) { /* hot enough for callTagged to tier up */
    Fn F = Table[I % 3];
    Low |= (uintptr_t)F & (ALIGN - 1);
    Sum += callTagged((uintptr_t)F | (uintptr_t)((I % 3 + 1) & (ALIGN - 1)), I);
  }
#ifndef UNTAGGED
  printf("aligned: %s, ", Low ? "no" : "yes");
#endif
  printf("sum %ld\n", Sum);
#ifdef MISMATCH
  Fn Bad = (Fn)(void *)takesLong;
  printf("calling a long (long) as an int (int)\n");
  fflush(stdout);
  printf("not stopped: %d\n", Bad(41));
#endif
  return 0;
}
