// C++ under our runtime: exceptions thrown and caught across JIT'd frames (the
// runtime registers each object's .eh_frame with the unwinder), static objects
// constructed before main and destroyed after it in reverse order (__cxa_atexit),
// in process and with both executors; compiler-rt's runtime prints the same.
// REQUIRES: orc-rt-platform, jit-orc-runtime
// RUN: %clangxx -c -O0 %s -o %t.o
// RUN: %python %inputs/platform/modes.py %orc-executor %llvm-jitlink-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ %t.o -args a | FileCheck %s
// RUN: not %llvm-jitlink -orc-runtime=%jit-orc-runtime %t.o -args a \
// RUN:   | FileCheck %s --check-prefix=CRT
// CHECK: Noisy(first)
// CHECK-NEXT: Noisy(second)
// CHECK-NEXT: caught: boom 2
// CHECK-NEXT: caught int 42
// CHECK-NEXT: unwound through 3 frames: 3
// CHECK-NEXT: rethrown: inner
// CHECK-NEXT: ~Noisy(second)
// CHECK-NEXT: ~Noisy(first)
// CHECK-NEXT: in-process: status 3
// CHECK-NEXT: orc-executor: same stdout, status 3
// CHECK-NEXT: llvm-jitlink-executor: same stdout, status 3
// CRT: rethrown: inner
// CRT-NEXT: ~Noisy(second)
// CRT-NEXT: ~Noisy(first)
#include <cstdio>
#include <stdexcept>
#include <string>

struct Noisy {
  std::string Name;
  explicit Noisy(const char *N) : Name(N) {
    std::printf("Noisy(%s)\n", Name.c_str());
  }
  ~Noisy() { std::printf("~Noisy(%s)\n", Name.c_str()); }
};
Noisy First("first");
Noisy Second("second");

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

static void rethrower() {
  try {
    throw std::logic_error("inner");
  } catch (...) {
    throw;
  }
}

int main(int argc, char **argv) {
  (void)argv;
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
  try {
    rethrower();
  } catch (const std::logic_error &E) {
    std::printf("rethrown: %s\n", E.what());
  }
  std::fflush(stdout);
  return 3;
}
