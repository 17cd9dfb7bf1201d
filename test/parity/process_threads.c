// The number of threads in the process, as a program can see it in
// /proc/self/task: 1 when main starts, N+1 while N threads it started run, and
// back to 1 after it joined them.
//
// Under a TSan build of the driver, TSan's own background thread is in the
// process too:
// UNSUPPORTED: thread-sanitizer
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with an
// executor the executor's own threads are in the process when main starts:
// XFAIL: parity-jitlink-oop
// and likewise in an executor process (-remote-mcjit):
// XFAIL: parity-remote
// in process llvm-jitlink's own threads may or may not still be alive when main starts
// (intermittent):
// UNSUPPORTED: parity-jitlink-in-process
// Under mini-lli -jit-kind=orc-tiered, the compile thread, started by the first hot
// function (whenever that is), is in the process too:
// UNSUPPORTED: parity-tiered
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int count_threads(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  if (!d)
    return -1;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] != '.')
      n++;
  closedir(d);
  return n;
}

static pthread_barrier_t barrier;
static void *worker(void *arg) {
  (void)arg;
  pthread_barrier_wait(&barrier); // counted while all are alive
  pthread_barrier_wait(&barrier);
  return NULL;
}

int main(void) {
  int at_start = count_threads();
  pthread_barrier_init(&barrier, NULL, 4);
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  pthread_barrier_wait(&barrier);
  int running = count_threads();
  pthread_barrier_wait(&barrier);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  // pthread_join returns once the kernel clears the thread's tid, which is a
  // moment before its task leaves /proc/self/task (seen natively under load):
  // give a joined thread up to 2 s to go. A thread that stays still counts.
  int after = count_threads();
  for (int i = 0; i < 2000 && after > at_start; i++) {
    usleep(1000);
    after = count_threads();
  }
  // CHECK: threads: at start 1, with 3 workers 4, after join 1
  printf("threads: at start %d, with 3 workers %d, after join %d\n", at_start, running, after);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
