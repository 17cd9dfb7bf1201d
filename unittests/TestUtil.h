/*===- unittests/TestUtil.h - Small helpers shared by the unit tests ------===*/
/* cmocka needs these includes in this order; plus a one-shot latch for
 * handshakes between threads (so tests order events without sleeping). */

#ifndef ORC_RT_C_UNITTESTS_TESTUTIL_H
#define ORC_RT_C_UNITTESTS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdbool.h>

typedef struct {
  pthread_mutex_t M;
  pthread_cond_t C;
  bool Set;
} Latch;

static inline void latch_init(Latch *L) {
  pthread_mutex_init(&L->M, NULL);
  pthread_cond_init(&L->C, NULL);
  L->Set = false;
}

static inline void latch_set(Latch *L) {
  pthread_mutex_lock(&L->M);
  L->Set = true;
  pthread_cond_broadcast(&L->C);
  pthread_mutex_unlock(&L->M);
}

static inline void latch_wait(Latch *L) {
  pthread_mutex_lock(&L->M);
  while (!L->Set)
    pthread_cond_wait(&L->C, &L->M);
  pthread_mutex_unlock(&L->M);
}

static inline void latch_destroy(Latch *L) {
  pthread_cond_destroy(&L->C);
  pthread_mutex_destroy(&L->M);
}

#endif
