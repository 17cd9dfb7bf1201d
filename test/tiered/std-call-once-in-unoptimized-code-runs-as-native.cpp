// Question: unoptimized C++ (clang -O0) that uses std::call_once, and
// std::promise / std::future (which use it), under orc-tiered: does it run as
// the native program?
//
// libstdc++'s call_once hands its callable over in two thread-locals. At -O0
// the callable's helpers are separate functions, first called inside
// call_once; compiled there by LLVM's lazy call-through on the calling thread,
// whose std::promise wipes those thread-locals after the compile, the helper
// read a null callable and called address 0 (SIGSEGV, every run). Every first
// call is now compiled on a thread made for it (orc-lazy still crashes:
// docs/CommandGuide/mini-lli.md).
//
// RUN: %clangxx -O0 %s -o %t.native -pthread
// RUN: %t.native > %t.expected
// RUN: %clangxx -S -emit-llvm -O0 %s -o %t.ll
// RUN: mini-lli -jit-kind=orc-tiered %t.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.ll > %t.up.out
// RUN: diff %t.expected %t.up.out
// RUN: FileCheck %s < %t.out
//
// CHECK:      once: 42 (initialised 1 time)
// CHECK-NEXT: future: 49

#include <cstdio>
#include <future>
#include <mutex>
#include <thread>

static std::once_flag Flag;
static int Value, Inits;

static void init() {
  Value = 42;
  ++Inits;
}

int main() {
  std::call_once(Flag, init);
  std::call_once(Flag, init);
  std::printf("once: %d (initialised %d time)\n", Value, Inits);
  std::promise<int> P;
  std::future<int> F = P.get_future();
  std::thread T([&P] { P.set_value(7 * 7); });
  std::printf("future: %d\n", F.get());
  T.join();
  return 0;
}
