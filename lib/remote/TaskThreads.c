/*===- lib/remote/TaskThreads.c - A dispatcher with a thread per task -----===*/
/* Each task runs on its own detached thread, so tasks may block on each other
 * (a call waiting for the controller while the controller's answer needs
 * another call). Lock guards Running; AllDone is signalled when it drops to
 * zero, and waitAndDestroy waits for that, which orders every task's last write
 * before the free. */

#include "orc-rt-c/RemoteExecutor.h"
#include "support/FaultInjection.h"

#include <pthread.h>
#include <stdlib.h>

struct orc_rt_OpaqueTaskThreads {
  pthread_mutex_t Lock;
  pthread_cond_t AllDone;
  size_t Running;
};

typedef struct {
  orc_rt_TaskThreadsRef TT;
  orc_rt_TaskRef T;
} Start;

orc_rt_TaskThreadsRef orc_rt_TaskThreads_create(void) {
  orc_rt_TaskThreadsRef TT = orc_rt_internal_calloc(1, sizeof(*TT));
  if (!TT)
    return NULL;
  pthread_mutex_init(&TT->Lock, NULL);
  pthread_cond_init(&TT->AllDone, NULL);
  return TT;
}

static void finished(orc_rt_TaskThreadsRef TT) {
  pthread_mutex_lock(&TT->Lock);
  if (--TT->Running == 0)
    pthread_cond_broadcast(&TT->AllDone);
  pthread_mutex_unlock(&TT->Lock);
}

static void *threadMain(void *P) {
  Start S = *(Start *)P;
  free(P);
  orc_rt_Task_run(S.T);
  finished(S.TT);
  return NULL;
}

void orc_rt_TaskThreads_dispatch(orc_rt_TaskRef T, void *Ctx) {
  orc_rt_TaskThreadsRef TT = Ctx;
  Start *S = orc_rt_internal_malloc(sizeof(*S));
  if (!S) {
    orc_rt_Task_destroy(T);
    return;
  }
  *S = (Start){TT, T};
  pthread_mutex_lock(&TT->Lock);
  ++TT->Running;
  pthread_mutex_unlock(&TT->Lock);
  pthread_attr_t A;
  pthread_attr_init(&A);
  pthread_attr_setdetachstate(&A, PTHREAD_CREATE_DETACHED);
  pthread_t Th;
  int EC = orc_rt_internal_pthread_create(&Th, &A, threadMain, S);
  pthread_attr_destroy(&A);
  if (EC) {
    free(S);
    orc_rt_Task_destroy(T);
    finished(TT);
  }
}

void orc_rt_TaskThreads_waitAndDestroy(orc_rt_TaskThreadsRef TT) {
  if (!TT)
    return;
  pthread_mutex_lock(&TT->Lock);
  while (TT->Running)
    pthread_cond_wait(&TT->AllDone, &TT->Lock);
  pthread_mutex_unlock(&TT->Lock);
  pthread_cond_destroy(&TT->AllDone);
  pthread_mutex_destroy(&TT->Lock);
  free(TT);
}
