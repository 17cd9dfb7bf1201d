// Question: a program that gives stdout a buffer of its own (setvbuf) and
// registers an on_exit handler, then returns from main or calls exit: is all
// its output written, and does the handler run with the status, as natively?
//
// Both ended up in the program's memory after the JIT had freed it: the
// buffer's output was lost (nothing printed), and glibc's exit called the
// handler in freed code (SIGSEGV). Now on_exit is the driver's, run among
// the atexit handlers, and stdio is flushed before the program's memory
// goes.
//
// RUN: %clang -O1 %s -o %t.native
// RUN: %python %inputs/mini-lli/expect-status.py 7 %t.native > %t.return.expected
// RUN: %python %inputs/mini-lli/expect-status.py 5 %t.native exit > %t.exit.expected
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 7 mini-lli %t.ll > %t.out
// RUN: diff %t.return.expected %t.out
// RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli %t.ll exit > %t.out
// RUN: diff %t.exit.expected %t.out
// RUN: %python %inputs/mini-lli/expect-status.py 5 mini-lli -jit-kind=orc-lazy %t.ll exit > %t.out
// RUN: diff %t.exit.expected %t.out
// RUN: %python %inputs/mini-lli/expect-status.py 7 mini-lli -jit-kind=orc-tiered %t.ll > %t.out
// RUN: diff %t.return.expected %t.out
// RUN: %python %inputs/mini-lli/expect-status.py 7 mini-lli -jit-kind=mcjit %t.ll > %t.out
// RUN: diff %t.return.expected %t.out
// RUN: FileCheck %s < %t.exit.expected
//
// CHECK:      main
// CHECK-NEXT: on_exit handler: status 5, arg handler-arg
// CHECK-NEXT: atexit handler
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char Buffer[4096];

static void onExit(int Status, void *Arg) {
  printf("on_exit handler: status %d, arg %s\n", Status, (const char *)Arg);
}
static void atExit(void) { printf("atexit handler\n"); }

int main(int Argc, char **Argv) {
  setvbuf(stdout, Buffer, _IOFBF, sizeof(Buffer));
  atexit(atExit);
  on_exit(onExit, "handler-arg");
  printf("main\n");
  if (Argc > 1 && !strcmp(Argv[1], "exit"))
    exit(5);
  return 7;
}
