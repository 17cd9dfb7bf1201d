// A program using a real shared library (Inputs/parity/shared_lib.c built into
// libshared_lib.so; natively linked, for the JIT loaded with -dlopen): the
// library's constructor runs before the program's, the program reads and
// writes the library's global, the library calls back into JIT'd code, and at
// exit the program's handlers, the library's handler (registered with atexit in
// the middle) and the destructors run in the native order.
//
// Stock lli-22 (and mini-lli, today) keep the JIT'd program's atexit handlers
// in a list of their own, run when main returns, so the library's handler --
// registered with libc's atexit -- runs only at process exit, after the
// program's handlers and destructors instead of between them. Known mini-lli
// limitation (docs/CommandGuide/mini-lli.md); the fix is to end the program
// through libc's exit so both lists run interleaved, as mini-lli's remote run
// (-remote-mcjit) does:
// XFAIL: parity-lli, parity-mini-lli && !parity-remote
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with either
// runtime the program's handlers run when run_program closes the main JITDylib, before
// the library's handler, and the program's destructor never runs (.fini_array
// withheld):
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --shared-lib %inputs/parity/shared_lib.c %s -- 6 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

extern int shlib_counter;
int shlib_apply(int (*fn)(int), int x);
void shlib_register_exit_handler(void);

static int triple(int x) { return 3 * x; }
static void first(void) { printf("program handler registered first\n"); }
static void last(void) { printf("program handler registered last\n"); }

__attribute__((constructor)) static void ctor(void) {
  printf("program constructor sees counter %d\n", shlib_counter);
}
__attribute__((destructor)) static void dtor(void) { printf("program destructor\n"); }

int main(int argc, char **argv) {
  int x = argc > 1 ? atoi(argv[1]) : 1;
  atexit(first);
  shlib_register_exit_handler();
  atexit(last);
  shlib_counter += x;
  printf("library applies our callback: %d, counter %d\n", shlib_apply(triple, x), shlib_counter);
  return 0;
}
// CHECK:      library constructor
// CHECK-NEXT: program constructor sees counter 100
// CHECK-NEXT: library applies our callback: 18, counter 107
// CHECK-NEXT: program handler registered last
// CHECK-NEXT: library handler (counter 107)
// CHECK-NEXT: program handler registered first
// CHECK-NEXT: program destructor
// CHECK-NEXT: library destructor
// CHECK-NEXT: parity: exit status 0
