// Question: run in an executor process, does the program keep the native
// program's lifecycle -- constructors, argv, atexit handlers interleaved with
// C++-style handlers, destructors last, and the exit status -- both when main
// returns and when it calls exit()? (lli-22 runs no constructors or destructors
// remotely and passes argc 0; mini-lli ends the executor through exit(main's
// value) on main's thread, as __libc_start_main does.)
//
// RUN: %clang -O0 %s -o %t.native
// RUN: %clang -S -emit-llvm -O0 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 7 %t.native a > %t.return
// RUN: %python %inputs/mini-lli/expect-status.py 7 mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%orc-executor %t.ll a > %t.orc
// RUN: diff %t.return %t.orc
// RUN: %python %inputs/mini-lli/expect-status.py 7 mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%lli-child-target %t.ll a > %t.lct
// RUN: diff %t.return %t.lct
// RUN: %python %inputs/mini-lli/expect-status.py 5 %t.native a 5 > %t.exit
// RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%orc-executor %t.ll a 5 > %t.orc-exit
// RUN: diff %t.exit %t.orc-exit
// RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%lli-child-target %t.ll a 5 > %t.lct-exit
// RUN: diff %t.exit %t.lct-exit
// RUN: FileCheck %s < %t.return
//
// CHECK:      ctor
// CHECK-NEXT: main argc=2 argv1=a environ=1
// CHECK-NEXT: handler 2
// CHECK-NEXT: handler 1
// CHECK-NEXT: dtor
// CHECK-NOT:  {{.}}

#include <stdio.h>
#include <stdlib.h>

static void handler1(void) { printf("handler 1\n"); }
static void handler2(void) { printf("handler 2\n"); }

__attribute__((constructor)) static void ctor(void) {
  printf("ctor\n");
  atexit(handler1);
}
__attribute__((destructor)) static void dtor(void) { printf("dtor\n"); }

int main(int argc, char **argv, char **envp) {
  printf("main argc=%d argv1=%s environ=%d\n", argc, argv[1],
         envp && *envp && getenv("PATH") != NULL);
  atexit(handler2);
  if (argc > 2)
    exit(atoi(argv[2]));
  return 7;
}
