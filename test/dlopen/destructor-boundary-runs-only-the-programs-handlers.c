// Question: natively crtbegin's __cxa_finalize(the program's __dso_handle) runs
// between the program's default-priority and prioritized destructors, and runs
// only the program's handlers registered meanwhile; a handler a dlopen'ed
// module registers then waits for that module's own finalization, after the
// program's destructors, where the module's crtbegin runs it (after the
// module's default-priority destructors). Does mini-lli keep that order? The
// native program's output is the expectation.
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
// CHECK:      main: loaded
// CHECK-NEXT: main: dtor default
// CHECK-NEXT: main: handler registered by a destructor
// CHECK-NEXT: main: dtor 101
// CHECK-NEXT: plugin: dtor
// CHECK-NEXT: plugin: handler registered by main's destructor
// CHECK-NOT:  {{.}}

#include <stdio.h>
#include <stdlib.h>

#ifdef PLUGIN
static void handler(void) {
  printf("plugin: handler registered by main's destructor\n");
}
void plugin_register(void) { atexit(handler); }
__attribute__((destructor)) static void dtor(void) { printf("plugin: dtor\n"); }
#else
#include <dlfcn.h>

static void *Plugin;
static void handler(void) {
  printf("main: handler registered by a destructor\n");
}
__attribute__((destructor)) static void dtorDefault(void) {
  printf("main: dtor default\n");
  void (*Register)(void) = (void (*)(void))dlsym(Plugin, "plugin_register");
  Register(); /* the plugin's handler, with the plugin's __dso_handle */
  atexit(handler);
}
__attribute__((destructor(101))) static void dtor101(void) {
  printf("main: dtor 101\n");
}

int main(int argc, char **argv) {
  if (argc < 2 || !(Plugin = dlopen(argv[1], RTLD_NOW)))
    return 1;
  printf("main: loaded\n");
  return 0;
}
#endif
