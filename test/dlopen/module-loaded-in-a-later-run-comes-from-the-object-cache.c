// Question: with -object-cache-dir, is a dlopen'ed module stored with the
// program's modules, and does a later run link it from the cache instead of
// compiling it again -- with its constructors, destructors, atexit handlers,
// exports (data and functions, through their stubs) and escaping static
// functions all intact? Is a corrupt entry a miss, compiled and written again?
//
// -passes=print prints every module that is compiled. The proof that the warm
// run uses the cached code: the string in the cached object is edited
// (objcache.py fixes up the checksum) and the run prints the edited string.
//
// RUN: rm -rf %t.cache
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -passes=print -object-cache-dir=%t.cache %t.ll %t.plugin.ll 2> %t.cold.err | FileCheck %s
// RUN: grep -c "define.*@plugin_work" %t.cold.err | FileCheck %s --check-prefix=ONCE
// RUN: %python %inputs/mini-lli/objcache.py count %t.cache | FileCheck %s --check-prefix=TWO
//
// RUN: mini-lli -passes=print -object-cache-dir=%t.cache %t.ll %t.plugin.ll 2> %t.warm.err | FileCheck %s
// RUN: not grep "define" %t.warm.err
// RUN: %python %inputs/mini-lli/objcache.py count %t.cache | FileCheck %s --check-prefix=TWO
//
// RUN: %python %inputs/mini-lli/objcache.py patch %t.cache "plugin: work" "PLUGIN: WORK" | FileCheck %s --check-prefix=PATCH
// RUN: mini-lli -passes=print -object-cache-dir=%t.cache %t.ll %t.plugin.ll | FileCheck %s --check-prefix=EDITED
//
// Corrupt entries: compiled again, right, and written again whole.
// RUN: %python %inputs/mini-lli/objcache.py corrupt %t.cache
// RUN: mini-lli -passes=print -object-cache-dir=%t.cache %t.ll %t.plugin.ll 2> %t.corrupt.err | FileCheck %s
// RUN: grep -c "define.*@plugin_work" %t.corrupt.err | FileCheck %s --check-prefix=ONCE
// RUN: %python %inputs/mini-lli/objcache.py objects %t.cache | FileCheck %s --check-prefix=VALID
// RUN: %python %inputs/mini-lli/objcache.py truncate %t.cache 200
// RUN: mini-lli -passes=print -object-cache-dir=%t.cache %t.ll %t.plugin.ll 2> /dev/null | FileCheck %s
//
// The program's own copy of the same file, as an input, is another entry
// (prepared differently): it does not take the dlopen'ed module's.
// RUN: mini-lli -passes=print -object-cache-dir=%t.cache -extra-module=%t.plugin.ll %t.ll %t.plugin.ll 2> /dev/null | FileCheck %s --check-prefix=BOTH
// RUN: %python %inputs/mini-lli/objcache.py count %t.cache | FileCheck %s --check-prefix=THREE
//
// CHECK:      plugin: ctor
// CHECK-NEXT: plugin: work 1 (value 42)
// CHECK-NEXT: callback 7
// CHECK-NEXT: plugin: dtor
// CHECK-NEXT: plugin: atexit handler
// CHECK-NEXT: closed
// BOTH:       plugin: work 1 (value 42)
// BOTH:       closed
// ONCE:       {{^1$}}
// TWO:        entries: 2, temporary files: 0
// THREE:      entries: 3, temporary files: 0
// PATCH:      patched 1 occurrence(s)
// EDITED:     PLUGIN: WORK 1 (value 42)
// VALID:      objects: {{[1-9]}}
// VALID:      objects: {{[1-9]}}

#include <stdio.h>
#include <stdlib.h>

#ifdef PLUGIN
static int Calls;
int plugin_value = 42;
static void handler(void) { printf("plugin: atexit handler\n"); }
__attribute__((constructor)) static void ctor(void) {
  printf("plugin: ctor\n");
  atexit(handler);
}
__attribute__((destructor)) static void dtor(void) { printf("plugin: dtor\n"); }
static void callback(int X) { printf("callback %d\n", X); }
int plugin_work(void (**Callback)(int)) {
  printf("plugin: work %d (value %d)\n", ++Calls, plugin_value);
  *Callback = callback;
  return 0;
}
#else
#include <dlfcn.h>
int main(int Argc, char **Argv) {
  if (Argc < 2)
    return 2;
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H) {
    printf("%s\n", dlerror());
    return 1;
  }
  int (*Work)(void (**)(int)) =
      (int (*)(void (**)(int)))dlsym(H, "plugin_work");
  int *Value = (int *)dlsym(H, "plugin_value");
  void (*Callback)(int) = NULL;
  if (!Work || !Value || Work(&Callback) || *Value != 42)
    return 1;
  Callback(7);
  fflush(stdout);
  dlclose(H);
  printf("closed\n");
  return 0;
}
#endif
