// Question: a module function calls dlclose on its own module (count to zero)
// and then goes on running module code: does it finish in intact code, and
// is the module freed only after it returned? And is a later call through
// the old pointer the stale-call error?
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -trace-shutdown %t.ll %t.plugin.ll 2>&1 | FileCheck %s
// RUN: mini-lli -trace-shutdown -jit-kind=orc-lazy %t.ll %t.plugin.ll 2>&1 | FileCheck %s
//
// CHECK:      plugin: dtor
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': destructors done; new entries denied
// CHECK-NEXT: plugin: dlclose(self) returned 0; still running: 120
// CHECK-DAG:  mini-lli: dlclose: '{{.*}}': last token back; code and data freed
// CHECK-DAG:  main: close_self returned 120
// CHECK:      main: reopened, close_self again
// CHECK:      main: 120

#include <stdio.h>

#ifdef PLUGIN
#include <dlfcn.h>
static int fact(int N) { return N <= 1 ? 1 : N * fact(N - 1); }
__attribute__((destructor)) static void dtor(void) { printf("plugin: dtor\n"); }
int close_self(void *Self) {
  int R = dlclose(Self);
  int F = fact(5);
  printf("plugin: dlclose(self) returned %d; still running: %d\n", R, F);
  fflush(stdout);
  return F;
}
#else
#include <dlfcn.h>
int main(int Argc, char **Argv) {
  (void)Argc;
  void *H = dlopen(Argv[1], RTLD_LAZY);
  int (*F)(void *) = (int (*)(void *))dlsym(H, "close_self");
  printf("main: close_self returned %d\n", F(H));
  H = dlopen(Argv[1], RTLD_LAZY);
  printf("main: reopened, close_self again\n");
  F = (int (*)(void *))dlsym(H, "close_self");
  printf("main: %d\n", F(H));
  return 0;
}
#endif
