// With --shutdown-timeout=forever, the controller goes away while a thread of the
// JIT'd program never ends, so orc-executor drains for ever. SIGTERM or SIGINT then
// ends it at once (default dispositions, as for the native program), and the program's
// output (buffered: stdout is a file) was flushed before the drain, not lost.
// RUN: %clang -c -O0 %s -o %t.o
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_PIDFILE=%t.pid \
// RUN:   ORC_EXECUTOR_OPTIONS=--shutdown-timeout=forever \
// RUN:   %python %inputs/executor/signal-during-drain.py SIGTERM %t.pid %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/pid-wrapper.sh %t.o | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%orc-executor ORC_EXECUTOR_PIDFILE=%t.pid \
// RUN:   ORC_EXECUTOR_OPTIONS=--shutdown-timeout=forever \
// RUN:   %python %inputs/executor/signal-during-drain.py SIGINT %t.pid %llvm-jitlink \
// RUN:   -oop-executor=%inputs/executor/pid-wrapper.sh %t.o | FileCheck %s
// CHECK: main done
// CHECK-NEXT: executor ended after the signal
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int Started;

static void *forever(void *P) {
  (void)P;
  atomic_store(&Started, 1);
  for (;;)
    sleep(1);
  return NULL;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, NULL, forever, NULL);
  while (!atomic_load(&Started))
    usleep(1000);
  printf("main done\n");
  return 0;
}
