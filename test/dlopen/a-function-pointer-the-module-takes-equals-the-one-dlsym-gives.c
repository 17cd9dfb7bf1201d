// Question: the pointer dlsym gives for a module's function and the one the
// module itself takes (&f, handed out or compared inside it) are the same
// pointer, as with the same code built as a shared library?
//
// dlsym gave the function's entry stub and the module its escape stub: two
// pointers for one function (plugin registries that check "is this callback
// mine", or key maps by function pointers, broke). An exported function
// whose address escapes now has its escape stub for entry.
//
// RUN: %clang -shared -fPIC -O2 -DPLUGIN %s -o %t.plugin.so
// RUN: %clang -S -emit-llvm -O2 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -O2 %s -o %t.native -ldl
// RUN: %t.native %t.plugin.so > %t.expected
// RUN: %clang -S -emit-llvm -O2 %s -o %t.ll
// RUN: mini-lli %t.ll %t.plugin.ll | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.plugin.ll | diff %t.expected -
// RUN: mini-lli -jit-kind=orc-tiered %t.ll %t.plugin.ll | diff %t.expected -
// RUN: FileCheck %s < %t.expected
//
// CHECK:      dlsym == the module's own: 1
// CHECK-NEXT: the module knows dlsym's as its own: 1
// CHECK-NEXT: the module knows its own: 1
// CHECK-NEXT: calls: 8 8
#ifdef PLUGIN
int plug_f(int X) { return X + 1; }
int (*plug_addr(void))(int) { return plug_f; } /* the module's own &plug_f */
int plug_is_f(int (*P)(int)) { return P == plug_f; }
#else
#include <dlfcn.h>
#include <stdio.h>

typedef int (*Fn)(int);

int main(int Argc, char **Argv) {
  if (Argc < 2)
    return 2;
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  Fn F = (Fn)dlsym(H, "plug_f");
  Fn (*Addr)(void) = (Fn (*)(void))dlsym(H, "plug_addr");
  int (*IsF)(Fn) = (int (*)(Fn))dlsym(H, "plug_is_f");
  printf("dlsym == the module's own: %d\n", F == Addr());
  printf("the module knows dlsym's as its own: %d\n", IsF(F));
  printf("the module knows its own: %d\n", IsF(Addr()));
  printf("calls: %d %d\n", F(7), Addr()(7));
  dlclose(H);
  return 0;
}
#endif
