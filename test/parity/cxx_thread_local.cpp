// C++ thread_local objects with constructors and destructors (dynamic TLS
// initialisation, __cxa_thread_atexit), used from std::threads that run one at a
// time so the output order is fixed, an exception thrown and caught inside a
// std::thread, and std::mutex and std::atomic across concurrent threads. (The
// main thread's own thread_local object, destroyed at exit: cxx_thread_local_main.cpp.)
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// std::thread cannot call: SIGSEGV (lli-22 fails earlier: it cannot resolve __dso_handle).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), JITLink
// refuses the local-exec TLS relocation of non-PIC code (R_X86_64_TPOFF32), with or
// without a runtime:
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.O0 --opt=-O0 %s -- 4 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t %s -- 4 | FileCheck %s
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

struct PerThread {
  std::string tag;
  int uses = 0;
  PerThread() : tag("fresh") { std::printf("  PerThread()\n"); }
  ~PerThread() { std::printf("  ~PerThread(%s, uses=%d)\n", tag.c_str(), uses); }
};

thread_local PerThread per_thread;
thread_local int plain_tls = 10;

struct Static {
  ~Static() { std::printf("~Static\n"); }
} static_object;

static void body(int id) {
  per_thread.tag = "thread" + std::to_string(id);
  for (int i = 0; i <= id; i++)
    per_thread.uses++;
  plain_tls += id;
  try {
    if (id % 2)
      throw std::runtime_error("odd " + std::to_string(id));
    std::printf("  thread %d even, tls %d\n", id, plain_tls);
  } catch (const std::exception &e) {
    std::printf("  thread %d caught '%s', tls %d\n", id, e.what(), plain_tls);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 2;
  for (int i = 1; i <= n; i++) {
    std::printf("start %d\n", i);
    std::thread t(body, i);
    t.join();
  }
  // CHECK:      start 1
  // CHECK-NEXT:   PerThread()
  // CHECK-NEXT:   thread 1 caught 'odd 1', tls 11
  // CHECK-NEXT:   ~PerThread(thread1, uses=2)
  // CHECK-NEXT: start 2
  // CHECK-NEXT:   PerThread()
  // CHECK-NEXT:   thread 2 even, tls 12
  // CHECK-NEXT:   ~PerThread(thread2, uses=3)
  // CHECK:      start 4
  // CHECK-NEXT:   PerThread()
  // CHECK-NEXT:   thread 4 even, tls 14
  // CHECK-NEXT:   ~PerThread(thread4, uses=5)

  std::mutex m;
  long guarded = 0;
  std::atomic<long> atomic_sum{0};
  std::vector<std::thread> pool;
  for (int i = 0; i < 4; i++)
    pool.emplace_back([&, i] {
      for (int k = 0; k < 5000; k++) {
        std::lock_guard<std::mutex> lock(m);
        guarded += i;
      }
      atomic_sum.fetch_add(plain_tls * 1000 + i, std::memory_order_relaxed);
    });
  for (auto &t : pool)
    t.join();
  std::printf("guarded %ld atomic %ld\n", guarded, atomic_sum.load());
  // CHECK-NEXT: guarded 30000 atomic 40006

  std::printf("main returns, tls %d\n", plain_tls);
  // CHECK-NEXT: main returns, tls 10
  // CHECK-NEXT: ~Static
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
