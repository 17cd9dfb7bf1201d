// POSIX threads started from JIT'd code: thread bodies, mutexes, condition
// variables, pthread_once, thread-specific data with a destructor, return
// values through pthread_join. All threads are joined before results print.
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 8 | FileCheck %s
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXT 16

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long shared_counter;

static void *count_up(void *arg) {
  long id = (long)(intptr_t)arg;
  long local = 0;
  for (long i = 0; i < 10000; i++) {
    pthread_mutex_lock(&lock);
    shared_counter++;
    pthread_mutex_unlock(&lock);
    local += i % (id + 1);
  }
  return (void *)(intptr_t)local;
}

// Bounded queue: one producer, several consumers.
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;
static int queue[64], qhead, qtail, qdone;
static long consumed_sum[MAXT];

static void *consumer(void *arg) {
  long id = (long)(intptr_t)arg;
  for (;;) {
    pthread_mutex_lock(&qlock);
    while (qhead == qtail && !qdone)
      pthread_cond_wait(&qcond, &qlock);
    if (qhead == qtail && qdone) {
      pthread_mutex_unlock(&qlock);
      return NULL;
    }
    int item = queue[qhead++ % 64];
    pthread_cond_broadcast(&qcond);
    pthread_mutex_unlock(&qlock);
    consumed_sum[id] += item;
  }
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static void init_once(void) { once_runs++; }

static pthread_key_t key;
static int key_destructor_runs;
static pthread_mutex_t dlock = PTHREAD_MUTEX_INITIALIZER;
static void key_destructor(void *p) {
  pthread_mutex_lock(&dlock);
  key_destructor_runs++;
  pthread_mutex_unlock(&dlock);
  free(p);
}
static void *uses_key(void *arg) {
  pthread_once(&once, init_once);
  int *p = malloc(sizeof *p);
  *p = (int)(intptr_t)arg;
  pthread_setspecific(key, p);
  return (void *)(intptr_t)(*(int *)pthread_getspecific(key) * 2);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  if (n < 1 || n > MAXT)
    return 2;
  pthread_t t[MAXT];

  for (long i = 0; i < n; i++)
    pthread_create(&t[i], NULL, count_up, (void *)(intptr_t)i);
  long total = 0;
  for (int i = 0; i < n; i++) {
    void *ret;
    pthread_join(t[i], &ret);
    total += (long)(intptr_t)ret;
  }
  // CHECK: counter 80000 (expected 80000), joined locals 139989
  printf("counter %ld (expected %d), joined locals %ld\n", shared_counter, n * 10000, total);

  for (long i = 0; i < n; i++)
    pthread_create(&t[i], NULL, consumer, (void *)(intptr_t)i);
  for (int item = 1; item <= 1000; item++) {
    pthread_mutex_lock(&qlock);
    while (qtail - qhead == 64)
      pthread_cond_wait(&qcond, &qlock);
    queue[qtail++ % 64] = item;
    pthread_cond_broadcast(&qcond);
    pthread_mutex_unlock(&qlock);
  }
  pthread_mutex_lock(&qlock);
  qdone = 1;
  pthread_cond_broadcast(&qcond);
  pthread_mutex_unlock(&qlock);
  long sum = 0;
  for (int i = 0; i < n; i++) {
    pthread_join(t[i], NULL);
    sum += consumed_sum[i];
  }
  // CHECK-NEXT: consumed sum 500500
  printf("consumed sum %ld\n", sum);

  pthread_key_create(&key, key_destructor);
  long twice = 0;
  for (long i = 0; i < n; i++)
    pthread_create(&t[i], NULL, uses_key, (void *)(intptr_t)(i + 1));
  for (int i = 0; i < n; i++) {
    void *ret;
    pthread_join(t[i], &ret);
    twice += (long)(intptr_t)ret;
  }
  // CHECK-NEXT: once ran 1 time(s), key destructors 8, tsd sum 72
  printf("once ran %d time(s), key destructors %d, tsd sum %ld\n", once_runs,
         key_destructor_runs, twice);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
