// Question: a module opened RTLD_GLOBAL whose symbols (data and functions)
// another loaded module bound -- does dlclose at count zero keep it loaded,
// as glibc does (its destructors do not run; the other module still reads its
// data and calls it; dlopen of it gives the same handle), and is it unloaded
// with that module, right after it? A dlclose of it again while it is kept
// fails with glibc's message. The same code built as shared libraries gives
// the expectation.
//
// RUN: %clang -shared -fPIC -O1 -DPLUGIN=1 %s -o %t.a.so
// RUN: %clang -shared -fPIC -O1 -DPLUGIN=2 %s -o %t.b.so
// RUN: %clang -O1 %s -o %t.native -ldl
// RUN: %t.native %t.a.so %t.b.so | sed -e 's|%t.a.so|A|' > %t.expected
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN=1 %s -o %t.a.ll
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN=2 %s -o %t.b.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.a.ll %t.b.ll | sed -e 's|%t.a.ll|A|' > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.a.ll %t.b.ll | sed -e 's|%t.a.ll|A|' > %t.lazy
// RUN: diff %t.expected %t.lazy
// RUN: FileCheck %s < %t.out
//
// CHECK:      a: ctor
// CHECK-NEXT: b: ctor
// CHECK-NEXT: a closed: 0
// CHECK-NEXT: again: -1 (A: shared object not open)
// CHECK-NEXT: b_get: 10
// CHECK-NEXT: reopened: same handle
// CHECK-NEXT: b: dtor
// CHECK-NEXT: a: dtor
// CHECK-NEXT: b closed
// CHECK-NEXT: a loaded after b closed: no
// CHECK-NOT:  {{.}}

#include <stdio.h>

#if PLUGIN == 1
int a_value = 5;
int a_twice(int X) { return 2 * X; }
__attribute__((constructor)) static void ctor(void) { printf("a: ctor\n"); }
__attribute__((destructor)) static void dtor(void) { printf("a: dtor\n"); }
#elif PLUGIN == 2
extern int a_value; /* from a, opened RTLD_GLOBAL */
int a_twice(int);
int b_get(void) { return a_twice(a_value); }
__attribute__((constructor)) static void ctor(void) { printf("b: ctor\n"); }
__attribute__((destructor)) static void dtor(void) { printf("b: dtor\n"); }
#else
#include <dlfcn.h>
int main(int Argc, char **Argv) {
  if (Argc < 3)
    return 2;
  void *A = dlopen(Argv[1], RTLD_NOW | RTLD_GLOBAL);
  void *B = A ? dlopen(Argv[2], RTLD_NOW) : NULL;
  if (!B) {
    printf("%s\n", dlerror());
    return 1;
  }
  printf("a closed: %d\n", dlclose(A));
  int R = dlclose(A);
  printf("again: %d (%s)\n", R, R ? dlerror() : "");
  printf("b_get: %d\n", ((int (*)(void))dlsym(B, "b_get"))());
  void *Again = dlopen(Argv[1], RTLD_NOW | RTLD_NOLOAD);
  printf("reopened: %s\n", Again == A ? "same handle" : "other");
  dlclose(Again);
  fflush(stdout);
  dlclose(B);
  printf("b closed\n");
  printf("a loaded after b closed: %s\n",
         dlopen(Argv[1], RTLD_NOW | RTLD_NOLOAD) ? "yes" : "no");
  return 0;
}
#endif
