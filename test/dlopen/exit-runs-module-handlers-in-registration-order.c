// Question: at exit, with modules still loaded, do the atexit / __cxa_atexit
// handlers the modules registered run in one list with the program's, newest
// first across all of them (as glibc's exit runs them: a module's handler
// registered between two of main's runs between them), then the program's
// destructors, then the modules' destructors in glibc's _dl_fini order (the
// order they were loaded, except that a module whose symbols another one
// uses, through RTLD_GLOBAL, comes after it)? A module closed before exit ran
// its handlers at dlclose. The same code built as shared libraries gives the
// expectation, for a return from main and for exit().
//
// RUN: %clang -shared -fPIC -O1 -DPLUGIN=1 %s -o %t.a.so
// RUN: %clang -shared -fPIC -O1 -DPLUGIN=2 %s -o %t.b.so
// RUN: %clang -shared -fPIC -O1 -DPLUGIN=3 %s -o %t.c.so
// RUN: %clang -shared -fPIC -O1 -DPLUGIN=4 %s -o %t.d.so
// RUN: %clang -O1 %s -o %t.native -ldl
// RUN: %t.native %t.a.so %t.b.so %t.c.so %t.d.so > %t.expected
// RUN: %t.native %t.a.so %t.b.so %t.c.so %t.d.so exit > %t.expected.exit
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN=1 %s -o %t.a.ll
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN=2 %s -o %t.b.ll
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN=3 %s -o %t.c.ll
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN=4 %s -o %t.d.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.a.ll %t.b.ll %t.c.ll %t.d.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.a.ll %t.b.ll %t.c.ll %t.d.ll > %t.lazy
// RUN: diff %t.expected %t.lazy
// RUN: mini-lli %t.ll %t.a.ll %t.b.ll %t.c.ll %t.d.ll exit > %t.exit
// RUN: diff %t.expected.exit %t.exit
// RUN: FileCheck %s < %t.out
//
// CHECK:      a: ctor
// CHECK-NEXT: b: ctor
// CHECK-NEXT: c: ctor, a_value 5
// CHECK-NEXT: d: ctor
// CHECK-NEXT: d: dtor
// CHECK-NEXT: d: handler (ctor)
// CHECK-NEXT: main: returning
// CHECK-NEXT: main: handler 3
// CHECK-NEXT: a: handler (work)
// CHECK-NEXT: main: handler 2
// CHECK-NEXT: c: handler (ctor)
// CHECK-NEXT: b: cxa handler (arg)
// CHECK-NEXT: b: handler (ctor)
// CHECK-NEXT: a: handler (ctor)
// CHECK-NEXT: main: handler 1
// CHECK-NEXT: main: dtor
// CHECK-NEXT: b: dtor
// CHECK-NEXT: b: dtor 200
// CHECK-NEXT: c: dtor
// CHECK-NEXT: a: dtor
// CHECK-NOT:  {{.}}

#include <stdio.h>
#include <stdlib.h>

#ifdef PLUGIN
#define NAME (PLUGIN == 1 ? "a" : PLUGIN == 2 ? "b" : PLUGIN == 3 ? "c" : "d")
extern void *__dso_handle;
int __cxa_atexit(void (*)(void *), void *, void *);
static void ctorHandler(void) { printf("%s: handler (ctor)\n", NAME); }
static void workHandler(void) { printf("%s: handler (work)\n", NAME); }
__attribute__((unused)) static void cxaHandler(void *A) {
  printf("%s: cxa handler (%s)\n", NAME, (char *)A);
}
#if PLUGIN == 1
int a_value = 5;
#elif PLUGIN == 3
extern int a_value; /* from a, opened RTLD_GLOBAL */
#endif
__attribute__((constructor)) static void ctor(void) {
#if PLUGIN == 3
  printf("%s: ctor, a_value %d\n", NAME, a_value);
#else
  printf("%s: ctor\n", NAME);
#endif
  atexit(ctorHandler);
#if PLUGIN == 2
  __cxa_atexit(cxaHandler, "arg", &__dso_handle);
#endif
}
__attribute__((destructor)) static void dtor(void) { printf("%s: dtor\n", NAME); }
#if PLUGIN == 2
__attribute__((destructor(200))) static void dtor200(void) {
  printf("%s: dtor 200\n", NAME);
}
#endif
void work(void) { atexit(workHandler); }
#else
#include <dlfcn.h>
#include <string.h>
static void handler1(void) { printf("main: handler 1\n"); }
static void handler2(void) { printf("main: handler 2\n"); }
static void handler3(void) { printf("main: handler 3\n"); }
__attribute__((destructor)) static void dtor(void) { printf("main: dtor\n"); }
static void *open(const char *Path, int Flags) {
  void *H = dlopen(Path, Flags);
  if (!H) {
    printf("%s\n", dlerror());
    exit(1);
  }
  return H;
}
int main(int Argc, char **Argv) {
  if (Argc < 5)
    return 2;
  atexit(handler1);
  void *A = open(Argv[1], RTLD_NOW | RTLD_GLOBAL);
  open(Argv[2], RTLD_NOW);
  open(Argv[3], RTLD_NOW);
  void *D = open(Argv[4], RTLD_NOW);
  dlclose(D); /* its handler runs now, not at exit */
  atexit(handler2);
  ((void (*)(void))dlsym(A, "work"))();
  atexit(handler3);
  printf("main: returning\n");
  fflush(stdout);
  if (Argc > 5 && !strcmp(Argv[5], "exit"))
    exit(0);
  return 0;
}
#endif
