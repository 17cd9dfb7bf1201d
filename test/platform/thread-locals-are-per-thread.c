// __thread / _Thread_local variables (general-dynamic TLS, -fPIC) under our runtime:
// each thread starts from the initial values (.tdata) and zeros (.tbss) and sees
// only its own copy; main's copy is untouched by the workers. In process and with
// both executors.
// REQUIRES: orc-rt-platform
// RUN: %clang -c -O0 -fPIC %s -o %t.o
// RUN: %python %inputs/platform/modes.py %orc-executor %llvm-jitlink-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ %t.o | FileCheck %s
// A static (local-dynamic) TLS variable is refused by JITLink itself, before any
// runtime is involved:
// RUN: %clang -c -O0 -fPIC -DLOCAL_DYNAMIC %s -o %t-ld.o
// RUN: not %llvm-jitlink -orc-runtime=%orc-rt-platform %t-ld.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LD
// CHECK: thread 0: Counter=1100 Zero=1000 Big[63]=7
// CHECK-NEXT: thread 1: Counter=1101 Zero=1001 Big[63]=7
// CHECK-NEXT: thread 2: Counter=1102 Zero=1002 Big[63]=7
// CHECK-NEXT: thread 3: Counter=1103 Zero=1003 Big[63]=7
// CHECK-NEXT: main: Counter=100 Zero=0 Name='' Big[63]=7
// CHECK-NEXT: in-process: status 0
// CHECK-NEXT: orc-executor: same stdout, status 0
// CHECK-NEXT: llvm-jitlink-executor: same stdout, status 0
// LD: Unsupported x86-64 relocation type R_X86_64_TLSLD
#include <pthread.h>
#include <stdio.h>

__thread int Counter = 100;
__thread char Name[32];
_Thread_local long Zero;
__thread int Big[64] = {[63] = 7};
#ifdef LOCAL_DYNAMIC
static __thread int Hidden;
int *hidden(void) { return &Hidden; }
#endif

static void *worker(void *P) {
  long Id = (long)P;
  for (long I = 0; I < 1000 + Id; ++I) {
    ++Counter;
    ++Zero;
  }
  snprintf(Name, sizeof Name, "thread %ld", Id);
  printf("%s: Counter=%d Zero=%ld Big[63]=%d\n", Name, Counter, Zero, Big[63]);
  return NULL;
}

int main(void) {
  for (long I = 0; I < 4; ++I) {
    pthread_t T;
    pthread_create(&T, NULL, worker, (void *)I);
    pthread_join(T, NULL);
  }
  printf("main: Counter=%d Zero=%ld Name='%s' Big[63]=%d\n", Counter, Zero, Name,
         Big[63]);
  return 0;
}
