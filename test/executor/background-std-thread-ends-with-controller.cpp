// JIT'd C++ main returns while a detached std::thread never ends. libstdc++ creates
// the thread with pthread_create, which orc-executor exports for every library: the
// thread is a managed thread of the JIT'd program, so no memory is released under it,
// and by default the executor ends with the controller, as the native program ends
// with main: same stdout (a pipe) and status; executor status 0. With
// --shutdown-timeout the drain waits for that thread (and gives up after 1 s here).
// (llvm-jitlink-executor releases the memory under the thread and often dies with
// SIGSEGV, losing the output.)
// RUN: %clangxx -O0 %s -o %t.native
// RUN: %clangxx -c -O0 %s -o %t.o
// RUN: %python %inputs/fuzz/expect.py 4 %t.native | FileCheck %s
// RUN: %python %inputs/fuzz/expect.py 4 %llvm-jitlink -oop-executor=%orc-executor %t.o \
// RUN:   | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%orc-executor %python %inputs/fuzz/expect.py 4 %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATUS
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_OPTIONS=--shutdown-timeout=1 \
// RUN:   %python %inputs/fuzz/expect.py 4 %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DRAIN
// CHECK: main done
// CHECK-NOT: {{.}}
// STATUS: main done
// STATUS-NEXT: executor exit status: 0
// DRAIN: main done
// DRAIN-NEXT: orc-executor: error: shutdown timed out after 1000 ms: JIT'd code is still running
// DRAIN-NEXT: executor exit status: 1
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

static std::atomic<long> Ticks;

int main() {
  std::thread([] {
    for (;;) {
      Ticks.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }).detach();
  while (Ticks.load() < 3)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::printf("main done\n");
  return 4;
}
