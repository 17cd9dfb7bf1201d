// pthread_exit from nested C++ frames of a JIT'd thread: the destructors of the unwound
// frames run, the exit value reaches pthread_join, the thread's token is given back
// (the executor's drain finishes: exit status 0). Same output as the reference.
// RUN: %clangxx -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/parity.py --timeout 30 %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%orc-executor timeout 30 %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/status-wrapper.sh %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATUS
// CHECK: ~Guard inner
// CHECK-NEXT: ~Guard outer
// CHECK-NEXT: joined 7
// CHECK-NEXT: status ref=0 ours=0
// CHECK-NEXT: PARITY OK
// STATUS: executor exit status: 0
#include <cstdio>
#include <pthread.h>

struct Guard {
  const char *N;
  ~Guard() { std::printf("~Guard %s\n", N); }
};

static void leave() {
  Guard G{"inner"};
  pthread_exit((void *)7);
}

static void *body(void *) {
  Guard G{"outer"};
  leave();
  return nullptr;
}

int main() {
  pthread_t T;
  void *R;
  pthread_create(&T, nullptr, body, nullptr);
  pthread_join(T, &R);
  std::printf("joined %ld\n", (long)R);
  return 0;
}
