// Question: do a module's constructors, destructors (with and without
// priorities) and the atexit / __cxa_atexit handlers it registered run at
// dlopen / dlclose in the order glibc runs them for the same code built as a
// shared library? The native program's output is the expectation.
//
// RUN: %clang -shared -fPIC -O1 -DPLUGIN %s -o %t.plugin.so
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -O1 %s -o %t.native -ldl
// RUN: %t.native %t.plugin.so > %t.expected
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.plugin.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
//
// CHECK:      plugin: ctor 101
// CHECK-NEXT: plugin: ctor default
// CHECK-NEXT: main: loaded
// CHECK-NEXT: main: closing
// CHECK-NEXT: plugin: dtor default
// CHECK-NEXT: plugin: handler 2 (arg)
// CHECK-NEXT: plugin: handler 1
// CHECK-NEXT: plugin: dtor 200
// CHECK-NEXT: main: closed
// CHECK-NEXT: main: exit handler

#include <stdio.h>
#include <stdlib.h>

#ifdef PLUGIN
extern void *__dso_handle;
int __cxa_atexit(void (*)(void *), void *, void *);
static void handler1(void) { printf("plugin: handler 1\n"); }
static void handler2(void *A) { printf("plugin: handler 2 (%s)\n", (char *)A); }
__attribute__((constructor(101))) static void c101(void) {
  printf("plugin: ctor 101\n");
}
__attribute__((constructor)) static void c(void) {
  printf("plugin: ctor default\n");
  atexit(handler1);
  __cxa_atexit(handler2, "arg", &__dso_handle);
}
__attribute__((destructor)) static void d(void) {
  printf("plugin: dtor default\n");
}
__attribute__((destructor(200))) static void d200(void) {
  printf("plugin: dtor 200\n");
}
int plugin_present;
#else
#include <dlfcn.h>
static void exitHandler(void) { printf("main: exit handler\n"); }
int main(int Argc, char **Argv) {
  (void)Argc;
  atexit(exitHandler);
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H)
    return 1;
  printf("main: loaded\n");
  printf("main: closing\n");
  dlclose(H);
  printf("main: closed\n");
  return 0;
}
#endif
