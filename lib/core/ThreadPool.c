/*===- lib/core/ThreadPool.c - Fixed-size worker pool ---------------------===*/
/* N workers take tasks from one locked FIFO. Stopping lets the workers
 * drain what is queued, destroys anything dispatched after the stop began,
 * and joins them. */

#include "core/TaskList.h"
#include "orc-rt-c/Dispatch.h"
#include "support/FaultInjection.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct orc_rt_OpaqueThreadPool {
  pthread_mutex_t Lock; /* guards Tasks and Stopping */
  pthread_cond_t Wake;  /* signalled on a new task and when stopping begins */
  orc_rt_internal_TaskList Tasks;
  bool Stopping;
  unsigned NumThreads;
  pthread_t *Threads;
};

static void *workerMain(void *Arg) {
  orc_rt_ThreadPoolRef P = Arg;
  pthread_mutex_lock(&P->Lock);
  for (;;) {
    orc_rt_TaskRef T = orc_rt_internal_TaskList_pop(&P->Tasks);
    if (T) {
      pthread_mutex_unlock(&P->Lock);
      orc_rt_Task_run(T);
      pthread_mutex_lock(&P->Lock);
      continue;
    }
    if (P->Stopping)
      break;
    pthread_cond_wait(&P->Wake, &P->Lock);
  }
  pthread_mutex_unlock(&P->Lock);
  return NULL;
}

static void stopAndJoin(orc_rt_ThreadPoolRef P, unsigned Started) {
  pthread_mutex_lock(&P->Lock);
  P->Stopping = true;
  pthread_cond_broadcast(&P->Wake);
  pthread_mutex_unlock(&P->Lock);
  for (unsigned I = 0; I != Started; ++I)
    pthread_join(P->Threads[I], NULL);
  /* With no worker left (all joined, or none started), destroy what remains. */
  orc_rt_TaskRef T;
  while ((T = orc_rt_internal_TaskList_pop(&P->Tasks)))
    orc_rt_Task_destroy(T);
  pthread_cond_destroy(&P->Wake);
  pthread_mutex_destroy(&P->Lock);
  free(P->Threads);
  free(P);
}

orc_rt_ErrorRef orc_rt_ThreadPool_create(orc_rt_ThreadPoolRef *Result,
                                         unsigned NumThreads) {
  if (NumThreads == 0)
    return orc_rt_Error_create("thread pool needs at least one thread");
  orc_rt_ThreadPoolRef P = orc_rt_internal_calloc(1, sizeof(*P));
  pthread_t *Threads = orc_rt_internal_calloc(NumThreads, sizeof(pthread_t));
  if (!P || !Threads) {
    free(P);
    free(Threads);
    return orc_rt_Error_create("out of memory creating a thread pool");
  }
  pthread_mutex_init(&P->Lock, NULL);
  pthread_cond_init(&P->Wake, NULL);
  orc_rt_internal_TaskList_init(&P->Tasks);
  P->Threads = Threads;
  P->NumThreads = NumThreads;
  for (unsigned I = 0; I != NumThreads; ++I) {
    int EC =
        orc_rt_internal_pthread_create(&P->Threads[I], NULL, workerMain, P);
    if (EC) {
      stopAndJoin(P, I);
      return orc_rt_Error_createf(
          "cannot start thread pool worker %u of %u: %s", I + 1, NumThreads,
          strerror(EC));
    }
  }
  *Result = P;
  return NULL;
}

void orc_rt_ThreadPool_dispatch(orc_rt_TaskRef T, void *Ctx) {
  orc_rt_ThreadPoolRef P = Ctx;
  pthread_mutex_lock(&P->Lock);
  if (P->Stopping) {
    pthread_mutex_unlock(&P->Lock);
    orc_rt_Task_destroy(T);
    return;
  }
  orc_rt_internal_TaskList_push(&P->Tasks, T);
  pthread_cond_signal(&P->Wake);
  pthread_mutex_unlock(&P->Lock);
}

void orc_rt_ThreadPool_destroy(orc_rt_ThreadPoolRef P) {
  if (P)
    stopAndJoin(P, P->NumThreads);
}
