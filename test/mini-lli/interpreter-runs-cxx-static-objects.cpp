// Question: under -force-interpreter, do C++ objects with static storage
// duration work as in the native program: constructed before main (a global
// std::map, whose insertion calls libstdc++ with a bool argument) and on first
// use (a function-local static), destroyed through __cxa_atexit in reverse
// order of construction, interleaved with a C atexit handler, before the C
// destructors? (LLVM's interpreter alone cannot: __dso_handle is not in the
// process, glibc's __cxa_atexit would get an interpreted function, and a bool
// argument to an external function crashes it; lli-22 stops at __dso_handle.
// mini-lli's rewrites: lib/jit/interpreter/InterpreterEngine.c.)
//
// RUN: %clangxx -O1 %s -o %t.native
// RUN: %t.native > %t.expected
// RUN: %clangxx -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -force-interpreter %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: FileCheck %s < %t.out
//
// CHECK:      ctor global
// CHECK-NEXT: map 2
// CHECK-NEXT: ctor local
// CHECK-NEXT: dtor local
// CHECK-NEXT: handler
// CHECK-NEXT: dtor global
// CHECK-NEXT: c destructor
// CHECK-NOT:  {{.}}

#include <cstdio>
#include <cstdlib>
#include <map>

struct Named {
  const char *N;
  explicit Named(const char *N) : N(N) { std::printf("ctor %s\n", N); }
  ~Named() { std::printf("dtor %s\n", N); }
};

Named Global("global");
std::map<int, int> Map = {{1, 2}, {3, 4}};

static Named &local() {
  static Named L("local");
  return L;
}
static void handler() { std::puts("handler"); }
__attribute__((destructor)) static void cDestructor() {
  std::puts("c destructor");
}

int main() {
  std::printf("map %zu\n", Map.size());
  std::atexit(handler);
  local();
  return 0;
}
