/*===- lib/core/ManagedThread.c - Threads whose body is managed code ------===*/

#include "orc-rt-c/ManagedThread.h"
#include "core/Session.h"
#include "core/TaskGroup.h"
#include "support/FaultInjection.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

char orc_rt_ManagedThreadDeniedTag;

typedef struct {
  orc_rt_SessionRef S;
  orc_rt_TaskGroupRef G; /* S's group, retained: S may be gone before we run */
  void *(*Start)(void *);
  int (*CStart)(void *); /* set instead of Start for C11 threads */
  void *Arg;
  void *PResult;
  int CResult;
} ThreadStart;

static void runStart(void *Ctx) {
  ThreadStart *TS = Ctx;
  if (TS->CStart)
    TS->CResult = TS->CStart(TS->Arg);
  else
    TS->PResult = TS->Start(TS->Arg);
}

/* The new thread's first frame: enter the body through the Session, or report
 * denial. The creator's token may be long gone, and S with it, so the entry
 * goes through the retained group: a granted token proves S is alive while
 * the body runs. */
static bool enter(ThreadStart *TS) {
  bool Entered = orc_rt_internal_callInGroup(TS->S, TS->G, runStart, TS);
  orc_rt_internal_TaskGroup_drop(TS->G);
  return Entered;
}

static ThreadStart *newStart(orc_rt_SessionRef S, void *Arg) {
  ThreadStart *TS = orc_rt_internal_calloc(1, sizeof(*TS));
  if (!TS)
    return NULL;
  TS->S = S;
  TS->G = orc_rt_internal_Session_retainGroup(S);
  TS->Arg = Arg;
  return TS;
}

static void freeUnstarted(ThreadStart *TS) {
  orc_rt_internal_TaskGroup_drop(TS->G);
  free(TS);
}

static void *pthreadMain(void *Arg) {
  ThreadStart *TS = Arg;
  void *R = enter(TS) ? TS->PResult : ORC_RT_MANAGED_THREAD_DENIED;
  free(TS);
  return R;
}

int orc_rt_Session_createManagedThread(orc_rt_SessionRef S, pthread_t *Thread,
                                       const pthread_attr_t *Attr,
                                       void *(*Start)(void *), void *Arg) {
  ThreadStart *TS = newStart(S, Arg);
  if (!TS)
    return EAGAIN;
  TS->Start = Start;
  int EC = orc_rt_internal_pthread_create(Thread, Attr, pthreadMain, TS);
  if (EC)
    freeUnstarted(TS);
  return EC;
}

int orc_rt_pthread_create(pthread_t *Thread, const pthread_attr_t *Attr,
                          void *(*Start)(void *), void *Arg) {
  orc_rt_SessionRef S = orc_rt_Session_current();
  if (!S)
    return orc_rt_internal_pthread_create(Thread, Attr, Start, Arg);
  return orc_rt_Session_createManagedThread(S, Thread, Attr, Start, Arg);
}

/* C11 threads are created through pthreads: on glibc a thrd_t is a pthread_t
 * and thrd_join reads the thread's int result from its void * exit value.
 * (Going through pthread_create also keeps the thread visible to
 * ThreadSanitizer, which does not intercept glibc's thrd_create.) */
static void *thrdMain(void *Arg) {
  ThreadStart *TS = Arg;
  int R = enter(TS) ? TS->CResult : ORC_RT_MANAGED_THRD_DENIED;
  free(TS);
  return (void *)(intptr_t)R;
}

/* Outside managed code: a plain C11 thread, only adapted to
 * the pthread signature. */
static void *plainThrdMain(void *Arg) {
  ThreadStart *TS = Arg;
  int (*Start)(void *) = TS->CStart;
  void *StartArg = TS->Arg;
  free(TS);
  return (void *)(intptr_t)Start(StartArg);
}

_Static_assert(sizeof(thrd_t) == sizeof(pthread_t),
               "thrd_t must be a pthread_t");

int orc_rt_thrd_create(void *Thread, int (*Start)(void *), void *Arg) {
  orc_rt_SessionRef S = orc_rt_Session_current();
  ThreadStart *TS =
      S ? newStart(S, Arg) : orc_rt_internal_calloc(1, sizeof(ThreadStart));
  if (!TS)
    return thrd_nomem;
  TS->CStart = Start;
  TS->Arg = Arg;
  int EC = orc_rt_internal_pthread_create((pthread_t *)Thread, NULL,
                                          S ? thrdMain : plainThrdMain, TS);
  if (EC) {
    if (S)
      freeUnstarted(TS);
    else
      free(TS);
    return EC == EAGAIN ? thrd_nomem : thrd_error;
  }
  return thrd_success;
}

_Static_assert(sizeof(thrd_t) == sizeof(unsigned long),
               "thrd_t is an unsigned long");

int orc_rt_thrd_join(unsigned long Thread, int *Result) {
  void *R;
  if (pthread_join((pthread_t)Thread, &R))
    return thrd_error;
  if (Result)
    *Result = (int)(intptr_t)R;
  return thrd_success;
}
