// Question: under -jit-kind=mcjit, where a module cannot get a JITDylib, stubs
// and a task group of its own, does dlopen of an IR module fail cleanly (NULL,
// one dlerror line naming the file and the reason) while the program goes on?
// Under orc it loads.
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: echo 'define i32 @three() { ret i32 3 }' > %t.plugin.ll
// RUN: mini-lli -jit-kind=mcjit %t.ll %t.plugin.ll 2>&1 | FileCheck %s --check-prefix=MCJIT
// RUN: mini-lli %t.ll %t.plugin.ll 2>&1 | FileCheck %s --check-prefix=ORC
//
// MCJIT: dlopen: NULL: {{.*}}.plugin.ll: LLVM IR modules can be dlopen'ed only under -jit-kind=orc or orc-lazy
// MCJIT-NEXT: still running
// ORC: three() = 3
// ORC-NEXT: still running

#include <dlfcn.h>
#include <stdio.h>

int main(int Argc, char **Argv) {
  (void)Argc;
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H) {
    printf("dlopen: NULL: %s\n", dlerror());
  } else {
    int (*Three)(void) = (int (*)(void))dlsym(H, "three");
    printf("three() = %d\n", Three ? Three() : -1);
    dlclose(H);
  }
  printf("still running\n");
  return 0;
}
