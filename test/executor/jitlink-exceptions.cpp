// C++ exceptions thrown and caught in JIT'd code: the EH frames are registered by the
// alloc action, and the C++ runtime is found although orc-executor is a C program.
// With -orc-runtime, static constructors and destructors run too.
// RUN: %clangxx -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o -args a | FileCheck %s
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%jit-orc-runtime -oop-executor=@EXE@ %t.o -args a \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ORCRT
// REQUIRES: jit-orc-runtime
// CHECK: caught: boom 2
// CHECK-NEXT: caught int 42
// CHECK-NEXT: unwound through 3 frames: 3
// ORCRT-NEXT: ~Global global
// CHECK-NEXT: status ref=3 ours=3
// CHECK-NEXT: PARITY OK
#include <cstdio>
#include <stdexcept>
#include <string>

struct Global {
  std::string S = "global";
  ~Global() { std::printf("~Global %s\n", S.c_str()); }
} G;

static int thrower(int X) {
  if (X > 1)
    throw std::runtime_error("boom " + std::to_string(X));
  return X;
}

static int deep(int N) {
  if (N == 0)
    throw N + 3;
  return deep(N - 1) + 1;
}

int main(int argc, char **argv) {
  try {
    thrower(argc + 1);
  } catch (const std::exception &E) {
    std::printf("caught: %s\n", E.what());
  }
  try {
    throw 42;
  } catch (int V) {
    std::printf("caught int %d\n", V);
  }
  try {
    deep(3);
  } catch (int V) {
    std::printf("unwound through 3 frames: %d\n", V);
  }
  std::fflush(stdout);
  return 3;
}
