// Question: the program ends with modules still loaded (one opened from
// inside another: nested dlopen). Do their atexit handlers run among the
// program's in registration order, and their destructors after the program's
// exit-time work, the outer module (loaded first) first, as glibc's _dl_fini,
// exactly once? (exit-runs-module-handlers-in-registration-order.c compares
// more of this with the native program.) With a thread stuck inside a
// module, does the -shutdown-timeout report name the function and the module
// it is in?
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN_OUTER %s -o %t.outer.ll
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN_INNER %s -o %t.inner.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.outer.ll %t.inner.ll 2>&1 | FileCheck %s
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.outer.ll %t.inner.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -shutdown-timeout=0.3 %t.ll %t.outer.ll %t.inner.ll stuck 2>&1 | FileCheck %s --check-prefix=STUCK
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli %t.ll %t.outer.ll %t.inner.ll stuck 2>&1 | FileCheck %s --check-prefix=NODRAIN
//
// CHECK:      inner: ctor
// CHECK-NEXT: outer: ctor, inner says 7
// CHECK-NEXT: main: returning
// CHECK-NEXT: outer: atexit handler
// CHECK-NEXT: main: atexit handler
// CHECK-NEXT: outer: dtor
// CHECK-NEXT: inner: dtor
// CHECK-NOT:  {{.}}
//
// STUCK:      mini-lli: warning: shutdown timed out after 0.3 s
// STUCK:        thread {{[0-9]+}}: inside 'spin' of module '{{.*}}.inner.ll' (dlopen)
// STUCK:      ending the process with the program's status
//
// Without the option the process ends like the native one, the thread still
// spinning in the module (its code still mapped), with main's status:
// NODRAIN:      inner: dtor
// NODRAIN-NOT:  mini-lli:

#include <stdio.h>
#include <stdlib.h>

#ifdef PLUGIN_INNER
#include <stdatomic.h>
__attribute__((constructor)) static void ctor(void) { printf("inner: ctor\n"); }
__attribute__((destructor)) static void dtor(void) { printf("inner: dtor\n"); }
int seven(void) { return 7; }
void *spin(void *Arg) {
  atomic_store((atomic_int *)Arg, 1);
  for (;;)
    ;
}
#elif defined(PLUGIN_OUTER)
#include <dlfcn.h>
static void handler(void) { printf("outer: atexit handler\n"); }
void *Inner;
const char *InnerPath(void);
__attribute__((constructor)) static void ctor(void) {
  Inner = dlopen(InnerPath(), RTLD_NOW); /* nested dlopen */
  int (*Seven)(void) = (int (*)(void))dlsym(Inner, "seven");
  printf("outer: ctor, inner says %d\n", Seven ? Seven() : -1);
  atexit(handler);
}
__attribute__((destructor)) static void dtor(void) { printf("outer: dtor\n"); }
void *inner_handle(void) { return Inner; }
#else
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
static const char *Path;
const char *InnerPath(void) { return Path; }
static void handler(void) { printf("main: atexit handler\n"); }
int main(int Argc, char **Argv) {
  Path = Argv[2];
  atexit(handler);
  void *Outer = dlopen(Argv[1], RTLD_NOW);
  if (!Outer) {
    printf("%s\n", dlerror());
    return 1;
  }
  if (Argc > 3 && !strcmp(Argv[3], "stuck")) {
    void *(*Inner)(void) = (void *(*)(void))dlsym(Outer, "inner_handle");
    void *(*Spin)(void *) = (void *(*)(void *))dlsym(Inner(), "spin");
    static atomic_int Started;
    pthread_t T;
    pthread_create(&T, NULL, Spin, &Started);
    while (!atomic_load(&Started))
      ;
  }
  printf("main: returning\n");
  return 0;
}
#endif
