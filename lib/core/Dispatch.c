/*===- lib/core/Dispatch.c - Tasks and the caller-drained task queue ------===*/

#include "orc-rt-c/Dispatch.h"
#include "core/TaskList.h"
#include "support/FaultInjection.h"

#include <pthread.h>
#include <stdlib.h>

struct orc_rt_OpaqueTask {
  orc_rt_TaskRunFn Run;
  orc_rt_TaskCancelFn Cancel;
  void *Ctx;
  struct orc_rt_OpaqueTask *Next; /* intrusive link for queues */
};

orc_rt_TaskRef orc_rt_Task_create(orc_rt_TaskRunFn Run,
                                  orc_rt_TaskCancelFn Cancel, void *Ctx) {
  orc_rt_TaskRef T = orc_rt_internal_malloc(sizeof(*T));
  if (!T)
    return NULL;
  T->Run = Run;
  T->Cancel = Cancel;
  T->Ctx = Ctx;
  T->Next = NULL;
  return T;
}

void orc_rt_Task_run(orc_rt_TaskRef T) {
  orc_rt_TaskRunFn Run = T->Run;
  void *Ctx = T->Ctx;
  free(T);
  Run(Ctx);
}

void orc_rt_Task_destroy(orc_rt_TaskRef T) {
  orc_rt_TaskCancelFn Cancel = T->Cancel;
  void *Ctx = T->Ctx;
  free(T);
  if (Cancel)
    Cancel(Ctx);
}

/* The intrusive FIFO shared by the queue and the thread pool. */
void orc_rt_internal_TaskList_push(orc_rt_internal_TaskList *L,
                                   orc_rt_TaskRef T) {
  T->Next = NULL;
  *L->Tail = T;
  L->Tail = &T->Next;
  ++L->Size;
}

orc_rt_TaskRef orc_rt_internal_TaskList_pop(orc_rt_internal_TaskList *L) {
  orc_rt_TaskRef T = L->Head;
  if (!T)
    return NULL;
  L->Head = T->Next;
  if (!L->Head)
    L->Tail = &L->Head;
  --L->Size;
  return T;
}

struct orc_rt_OpaqueTaskQueue {
  pthread_mutex_t Lock; /* guards Tasks */
  orc_rt_internal_TaskList Tasks;
};

orc_rt_TaskQueueRef orc_rt_TaskQueue_create(void) {
  orc_rt_TaskQueueRef Q = orc_rt_internal_malloc(sizeof(*Q));
  if (!Q)
    return NULL;
  pthread_mutex_init(&Q->Lock, NULL);
  orc_rt_internal_TaskList_init(&Q->Tasks);
  return Q;
}

void orc_rt_TaskQueue_dispatch(orc_rt_TaskRef T, void *Ctx) {
  orc_rt_TaskQueueRef Q = Ctx;
  pthread_mutex_lock(&Q->Lock);
  orc_rt_internal_TaskList_push(&Q->Tasks, T);
  pthread_mutex_unlock(&Q->Lock);
}

bool orc_rt_TaskQueue_runOne(orc_rt_TaskQueueRef Q) {
  pthread_mutex_lock(&Q->Lock);
  orc_rt_TaskRef T = orc_rt_internal_TaskList_pop(&Q->Tasks);
  pthread_mutex_unlock(&Q->Lock);
  if (!T)
    return false;
  orc_rt_Task_run(T);
  return true;
}

size_t orc_rt_TaskQueue_runAll(orc_rt_TaskQueueRef Q) {
  size_t N = 0;
  while (orc_rt_TaskQueue_runOne(Q))
    ++N;
  return N;
}

size_t orc_rt_TaskQueue_size(orc_rt_TaskQueueRef Q) {
  pthread_mutex_lock(&Q->Lock);
  size_t N = Q->Tasks.Size;
  pthread_mutex_unlock(&Q->Lock);
  return N;
}

void orc_rt_TaskQueue_destroy(orc_rt_TaskQueueRef Q) {
  if (!Q)
    return;
  orc_rt_TaskRef T;
  /* A Cancel function may dispatch again; keep draining until the
   * queue is empty. */
  for (;;) {
    pthread_mutex_lock(&Q->Lock);
    T = orc_rt_internal_TaskList_pop(&Q->Tasks);
    pthread_mutex_unlock(&Q->Lock);
    if (!T)
      break;
    orc_rt_Task_destroy(T);
  }
  pthread_mutex_destroy(&Q->Lock);
  free(Q);
}
