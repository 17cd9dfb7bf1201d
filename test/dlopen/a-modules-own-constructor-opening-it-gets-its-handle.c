// Question: does a module's constructor that dlopens the module's own file
// get the handle being loaded -- one copy, its constructor run once, its
// reference counted -- as glibc gives for a shared library (whose link map
// has the object before its constructors run)? The native program's output
// is the expectation.
//
// RUN: %clang -shared -fPIC -O1 -DPLUGIN %s -o %t.plugin.so
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -O1 %s -o %t.native -ldl
// RUN: env SELF=%t.plugin.so %t.native %t.plugin.so > %t.expected
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: env SELF=%t.plugin.ll mini-lli %t.ll %t.plugin.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: env SELF=%t.plugin.ll mini-lli -jit-kind=orc-lazy %t.ll %t.plugin.ll | diff %t.expected -
// RUN: FileCheck %s < %t.out
//
// CHECK:      plugin: ctor 1, own dlopen found it: 1
// CHECK-NEXT: main: constructors run: 1
// CHECK-NEXT: main: the constructor's handle is main's: 1
// CHECK-NEXT: main: after one dlclose, still loaded: 1
// CHECK-NEXT: plugin: dtor
// CHECK-NEXT: main: after the last, loaded: 0

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef PLUGIN
int Constructed;
void *OwnHandle;
__attribute__((constructor)) static void ctor(void) {
  ++Constructed;
  OwnHandle = dlopen(getenv("SELF"), RTLD_NOW);
  printf("plugin: ctor %d, own dlopen found it: %d\n", Constructed,
         OwnHandle && dlsym(OwnHandle, "Constructed") == (void *)&Constructed);
}
__attribute__((destructor)) static void dtor(void) { printf("plugin: dtor\n"); }
#else
int main(int Argc, char **Argv) {
  (void)Argc;
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H) {
    printf("main: %s\n", dlerror());
    return 1;
  }
  printf("main: constructors run: %d\n", *(int *)dlsym(H, "Constructed"));
  printf("main: the constructor's handle is main's: %d\n",
         *(void **)dlsym(H, "OwnHandle") == H);
  dlclose(H);
  printf("main: after one dlclose, still loaded: %d\n",
         dlopen(Argv[1], RTLD_NOW | RTLD_NOLOAD) == H);
  dlclose(H); /* the NOLOAD reference */
  dlclose(H); /* the constructor's */
  printf("main: after the last, loaded: %d\n",
         dlopen(Argv[1], RTLD_NOW | RTLD_NOLOAD) != NULL);
  return 0;
}
#endif
