// Question: in an executor process, do C++ exceptions unwind through JIT'd
// frames (the .eh_frame registered by the executor) and do static objects
// live and die as natively?
//
// RUN: %clangxx -O1 %s -o %t.native
// RUN: %clangxx -S -emit-llvm -O1 %s -o %t.ll
// RUN: %t.native > %t.expected
// RUN: mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%orc-executor %t.ll > %t.orc
// RUN: diff %t.expected %t.orc
// RUN: mini-lli -jit-kind=mcjit -remote-mcjit -disable-lazy-compilation -mcjit-remote-process=%lli-child-target %t.ll > %t.lct
// RUN: diff %t.expected %t.lct
// RUN: FileCheck %s < %t.expected
//
// CHECK:      S()
// CHECK-NEXT: caught boom 3
// CHECK-NEXT: ~S()

#include <cstdio>
#include <stdexcept>
#include <string>

struct S {
  S() { std::puts("S()"); }
  ~S() { std::puts("~S()"); }
} Static;

__attribute__((noinline)) int f(int X) {
  if (X)
    throw std::runtime_error("boom " + std::to_string(X));
  return 1;
}

int main(int argc, char **) {
  try {
    f(argc + 2);
  } catch (std::exception &E) {
    std::printf("caught %s\n", E.what());
  }
  return 0;
}
