// C11 <threads.h> from JIT'd code: thrd_create/thrd_join with return values,
// mtx_t, cnd_t, call_once, tss_t with a destructor. All threads are joined
// before anything is printed. (thrd_exit and pthread_exit: thread_exit.c.)
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// thrd_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 5 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>

static mtx_t m;
static cnd_t c;
static int turn, trace[64], ntrace;

static once_flag once = ONCE_FLAG_INIT;
static int once_count;
static void init_once(void) { once_count++; }

static tss_t key;
static int tss_dtor_count;
static void tss_dtor(void *p) {
  mtx_lock(&m);
  tss_dtor_count += *(int *)p;
  mtx_unlock(&m);
  free(p);
}

// Threads take turns in id order, recording the order they ran in.
static int taker(void *arg) {
  int id = *(int *)arg;
  call_once(&once, init_once);
  int *mine = malloc(sizeof *mine);
  *mine = id;
  tss_set(key, mine);
  for (int round = 0; round < 3; round++) {
    mtx_lock(&m);
    while (turn % 5 != id)
      cnd_wait(&c, &m);
    trace[ntrace++] = id;
    turn++;
    cnd_broadcast(&c);
    mtx_unlock(&m);
  }
  if (id == 4)
    return 100 + *(int *)tss_get(key);
  return id * id;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  if (n != 5)
    return 2;
  mtx_init(&m, mtx_plain);
  cnd_init(&c);
  tss_create(&key, tss_dtor);
  thrd_t t[5];
  int ids[5];
  for (int i = 0; i < 5; i++) {
    ids[i] = i;
    if (thrd_create(&t[i], taker, &ids[i]) != thrd_success)
      return 3;
  }
  int results[5];
  for (int i = 0; i < 5; i++)
    thrd_join(t[i], &results[i]);
  printf("results:");
  for (int i = 0; i < 5; i++)
    printf(" %d", results[i]);
  printf("\norder:");
  for (int i = 0; i < ntrace; i++)
    printf(" %d", trace[i]);
  printf("\nonce %d, tss destructors saw sum %d\n", once_count, tss_dtor_count);
  // CHECK:      results: 0 1 4 9 104
  // CHECK-NEXT: order: 0 1 2 3 4 0 1 2 3 4 0 1 2 3 4
  // CHECK-NEXT: once 1, tss destructors saw sum 10
  // CHECK-NEXT: parity: exit status 0
  tss_delete(key);
  cnd_destroy(&c);
  mtx_destroy(&m);
  return 0;
}
