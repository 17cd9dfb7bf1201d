// Question: a C++ module -- a static object with a constructor and a
// destructor (registered with __cxa_atexit and the module's __dso_handle), a
// class whose virtual functions the host calls through the vtable (vtable
// slots escape, so they are stubs), an exception thrown and caught inside the
// module -- does it behave as the same code built as a shared library?
//
// RUN: %clangxx -shared -fPIC -O1 -DPLUGIN %s -o %t.plugin.so
// RUN: %clangxx -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clangxx -O1 %s -o %t.native -ldl
// RUN: %t.native %t.plugin.so > %t.expected
// RUN: %clangxx -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.plugin.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.plugin.ll > %t.lazy.out
// RUN: diff %t.expected %t.lazy.out
// RUN: FileCheck %s < %t.out
//
// CHECK:      plugin: plugin-logger up
// CHECK-NEXT: area 49
// CHECK-NEXT: plugin: caught div by zero
// CHECK-NEXT: div 5 -1
// CHECK-NEXT: plugin: plugin-logger down
// CHECK-NEXT: closed

#include <cstdio>
#include <string>
#include <stdexcept>
struct Shape { virtual ~Shape() {} virtual int area() const = 0; };
#ifdef PLUGIN
struct Logger { std::string Name; Logger() : Name("plugin-logger") { std::printf("plugin: %s up\n", Name.c_str()); } ~Logger() { std::printf("plugin: %s down\n", Name.c_str()); } };
static Logger L;
struct Square : Shape { int S; Square(int S) : S(S) {} int area() const override { return S * S; } };
extern "C" Shape *make_square(int S) { return new Square(S); }
extern "C" int safe_div(int A, int B) { try { if (!B) throw std::runtime_error("div by zero"); return A / B; } catch (const std::exception &E) { std::printf("plugin: caught %s\n", E.what()); return -1; } }
#else
#include <dlfcn.h>
int main(int, char **Argv) {
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H) { std::printf("%s\n", dlerror()); return 1; }
  auto Make = (Shape *(*)(int))dlsym(H, "make_square");
  Shape *Sq = Make(7);
  std::printf("area %d\n", Sq->area());
  delete Sq;
  auto Div = (int (*)(int, int))dlsym(H, "safe_div");
  std::printf("div %d %d\n", Div(10, 2), Div(1, 0));
  dlclose(H);
  std::printf("closed\n");
}
#endif
