// Question: a call through a pointer into a module that has been unloaded:
// does the program end with one line naming the function and the module and
// status 1 (never a jump into freed memory)? Natively this is a SIGSEGV.
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli %t.ll %t.plugin.ll > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -jit-kind=orc-lazy %t.ll %t.plugin.ll 2>&1 | FileCheck %s
//
// CHECK:      main: answer 42
// CHECK-NEXT: main: unloaded; calling the old pointer
// CHECK-NEXT: mini-lli: error: call to 'answer' in module '{{.*}}.plugin.ll', which has been unloaded (dlclose)
// CHECK-NOT:  main: after

#include <stdio.h>

#ifdef PLUGIN
int answer(void) { return 42; }
#else
#include <dlfcn.h>
int main(int Argc, char **Argv) {
  (void)Argc;
  void *H = dlopen(Argv[1], RTLD_NOW);
  int (*F)(void) = (int (*)(void))dlsym(H, "answer");
  printf("main: answer %d\n", F());
  dlclose(H);
  printf("main: unloaded; calling the old pointer\n");
  fflush(stdout);
  printf("main: after %d\n", F());
  return 0;
}
#endif
