// Question: reference counts and dlopen flags as glibc: the same file gives
// the same handle until its count drops to zero; RTLD_NOLOAD only finds a
// loaded module; RTLD_NODELETE keeps it (no destructors, no second
// constructor); RTLD_GLOBAL makes its symbols visible to modules loaded later
// and to dlsym(RTLD_DEFAULT) (through its stubs), RTLD_LOCAL does not; a mode
// without RTLD_LAZY/RTLD_NOW is an error; .bc of the same code works alike.
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN_A %s -o %t.a.ll
// RUN: %clang -c -emit-llvm -O1 -DPLUGIN_A %s -o %t.a.bc
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN_B %s -o %t.b.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.a.ll %t.b.ll 2>&1 | FileCheck %s
// RUN: mini-lli %t.ll %t.a.bc %t.b.ll 2>&1 | FileCheck %s
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.a.ll %t.b.ll 2>&1 | FileCheck %s
//
// CHECK:      a: ctor
// CHECK-NEXT: same handle: 1
// CHECK-NEXT: after one dlclose, still loaded: 1
// CHECK-NEXT: a: dtor
// CHECK-NEXT: after the last dlclose, NOLOAD finds: 0
// CHECK-NEXT: NOLOAD of an unloaded module: 0
// CHECK-NEXT: invalid mode: {{.*}}.a.{{ll|bc}}: invalid mode for dlopen(): Invalid argument
// CHECK-NEXT: a: ctor
// CHECK-NEXT: b with a LOCAL: {{.*}}.b.ll: Symbols not found: [ a_value ]{{$}}
// CHECK-NEXT: a: dtor
// CHECK-NEXT: a: ctor
// CHECK-NEXT: b with a GLOBAL: b_value = a_value + 1 = 43
// CHECK-NEXT: RTLD_DEFAULT finds a_value: 1
// CHECK-NEXT: a: dtor
// CHECK-NEXT: a: ctor
// CHECK-NEXT: NODELETE: dlclose 0, still callable: 42
// CHECK-NEXT: NODELETE: reopened, same handle, no second ctor: 1
// CHECK-NEXT: main: done
// CHECK-NEXT: a: dtor

#include <stdio.h>

#ifdef PLUGIN_A
__attribute__((constructor)) static void ctor(void) { printf("a: ctor\n"); }
__attribute__((destructor)) static void dtor(void) { printf("a: dtor\n"); }
int a_value(void) { return 42; }
#elif defined(PLUGIN_B)
int a_value(void);
int b_value(void) { return a_value() + 1; }
#else
#include <dlfcn.h>
int main(int Argc, char **Argv) {
  (void)Argc;
  const char *A = Argv[1], *B = Argv[2];
  void *H1 = dlopen(A, RTLD_NOW);
  void *H2 = dlopen(A, RTLD_LAZY);
  printf("same handle: %d\n", H1 && H1 == H2);
  dlclose(H2);
  printf("after one dlclose, still loaded: %d\n",
         dlopen(A, RTLD_NOW | RTLD_NOLOAD) == H1);
  dlclose(H1); /* the NOLOAD reference */
  dlclose(H1);
  printf("after the last dlclose, NOLOAD finds: %d\n",
         dlopen(A, RTLD_NOW | RTLD_NOLOAD) != NULL);
  printf("NOLOAD of an unloaded module: %d\n",
         dlopen(A, RTLD_NOW | RTLD_NOLOAD) != NULL);
  printf("invalid mode: %s\n", dlopen(A, 0) ? "loaded?" : dlerror());

  void *HA = dlopen(A, RTLD_NOW | RTLD_LOCAL);
  void *HB = dlopen(B, RTLD_NOW);
  printf("b with a LOCAL: %s\n", HB ? "loaded?" : dlerror());
  dlclose(HA);
  HA = dlopen(A, RTLD_NOW | RTLD_GLOBAL);
  HB = dlopen(B, RTLD_NOW);
  if (!HB) {
    printf("b with a GLOBAL: %s\n", dlerror());
    return 1;
  }
  int (*BV)(void) = (int (*)(void))dlsym(HB, "b_value");
  printf("b with a GLOBAL: b_value = a_value + 1 = %d\n", BV());
  printf("RTLD_DEFAULT finds a_value: %d\n",
         dlsym(RTLD_DEFAULT, "a_value") == dlsym(HA, "a_value"));
  dlclose(HB);
  /* a_dtor runs here: B's reference to A's stub does not keep A. */
  fflush(stdout);
  dlclose(HA);

  void *HN = dlopen(A, RTLD_NOW | RTLD_NODELETE);
  int (*AV)(void) = (int (*)(void))dlsym(HN, "a_value");
  printf("NODELETE: dlclose %d, still callable: %d\n", dlclose(HN), AV());
  printf("NODELETE: reopened, same handle, no second ctor: %d\n",
         dlopen(A, RTLD_NOW) == HN);
  printf("main: done\n");
  return 0;
}
#endif
