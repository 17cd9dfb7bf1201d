// Concurrency from the C++ library in JIT'd code without std::call_once:
// std::thread, std::mutex, std::condition_variable with a shared queue, and
// std::unique_lock/lock_guard. (std::call_once, std::async and std::promise:
// cxx_call_once.cpp.)
// Under -force-interpreter: a std::thread's body is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 aborts earlier on llvm.umax, which
// mini-lli lowers).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t --timeout 60 %s | FileCheck %s
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

int main() {
  std::mutex m;
  std::condition_variable cv;
  std::queue<int> q;
  bool finished = false;
  long consumed = 0;
  std::vector<std::thread> consumers;
  for (int c = 0; c < 3; c++)
    consumers.emplace_back([&] {
      for (;;) {
        std::unique_lock<std::mutex> lk(m);
        cv.wait(lk, [&] { return !q.empty() || finished; });
        if (q.empty())
          return;
        consumed += q.front();
        q.pop();
      }
    });
  for (int i = 1; i <= 1000; i++) {
    std::lock_guard<std::mutex> lk(m);
    q.push(i);
    cv.notify_one();
  }
  {
    std::lock_guard<std::mutex> lk(m);
    finished = true;
  }
  cv.notify_all();
  for (auto &t : consumers)
    t.join();
  // CHECK: condition_variable queue consumed 500500 by 3 threads
  std::printf("condition_variable queue consumed %ld by %zu threads\n", consumed, consumers.size());
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
