// Question: a C++ exception thrown in a module and caught by the host, so it
// unwinds through the module's stub (first call and warm calls): is it caught
// as with the same code built as a shared library, and is the module unloaded
// at its dlclose (the unwound frame's token comes back at the thread's next
// call through a stub, or at its dlclose, not only at shutdown)?
//
// RUN: %clangxx -shared -fPIC -O1 -DPLUGIN %s -o %t.plugin.so
// RUN: %clangxx -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clangxx -O1 %s -o %t.native -ldl
// RUN: %t.native %t.plugin.so > %t.expected
// RUN: %clangxx -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -trace-shutdown %t.ll %t.plugin.ll > %t.out 2> %t.err
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=TRACE < %t.err
// RUN: env ORC_RT_C_TOKEN_MODE=fallback mini-lli %t.ll %t.plugin.ll > %t.fallback.out
// RUN: diff %t.expected %t.fallback.out
//
// CHECK:      got 0
// CHECK-NEXT: caught too big: 3
// CHECK-NEXT: got 1
// CHECK-NEXT: caught too big: 4
// CHECK-NEXT: closed
//
// TRACE:      mini-lli: dlclose: '{{.*}}': destructors done; new entries denied
// TRACE-NEXT: mini-lli: dlclose: '{{.*}}': last token back; code and data freed
// TRACE-NEXT: mini-lli: shutdown: requested

#include <cstdio>
#include <stdexcept>
#include <string>

#ifdef PLUGIN
extern "C" int checked(int X) {
  if (X > 2)
    throw std::runtime_error("too big: " + std::to_string(X));
  return X;
}
#else
#include <dlfcn.h>
int main(int, char **Argv) {
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H) {
    std::printf("%s\n", dlerror());
    return 1;
  }
  auto F = (int (*)(int))dlsym(H, "checked");
  for (int X : {0, 3, 1, 4}) {
    try {
      std::printf("got %d\n", F(X));
    } catch (const std::exception &E) {
      std::printf("caught %s\n", E.what());
    }
  }
  dlclose(H);
  std::printf("closed\n");
  return 0;
}
#endif
