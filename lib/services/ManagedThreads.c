/*===- lib/services/ManagedThreads.c - Threads JIT'd code starts and ends -===*/
/*
 * The runtime's versions of pthread_create, thrd_create, pthread_exit,
 * thrd_exit, thrd_join and thrd_detach, which the dylib manager hands JIT'd
 * code (added as interposers of the services object):
 *  - a thread's body runs as managed code of the Session
 *    (orc_rt_Session_createManagedThread) and counts as JIT'd code in use from
 *    creation until it ends;
 *  - a body that leaves by pthread_exit / thrd_exit (or is cancelled) instead
 *    of returning must still give its token back, or the shutdown drain would
 *    wait for ever. glibc's pthread_exit unwinds the thread's stack (running
 *    the program's cleanup handlers and C++ destructors) and, on reaching
 *    bodyFrame, jumps to the cancellation buffer registered there
 *    (orc_rt_internal_callCatchingExit): the unwind stops there, the body
 *    "returns" the exit value through the runtime's frames (releasing the
 *    token), and the thread then ends normally (thread-specific data
 *    destructors run as usual);
 *  - each thread counts as one of the program's threads (threadStarted) from
 *    its creation until its body has ended, so that a main that ended with
 *    pthread_exit is answered only once the program's last thread has ended.
 * StartsLock guards the list of start records (Starts).
 */

#include "services/ManagedThreads.h"
#include "support/FaultInjection.h"

#include "orc-rt-c/ManagedThread.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

typedef struct CountedStart {
  orc_rt_ExecutorServicesRef ES;
  void *(*Start)(void *);
  void *Arg;
  /* In Starts until the thread has entered. */
  struct CountedStart *Prev, *Next;
} CountedStart;

/* Threads JIT'd code created that have not entered yet, of
 * every live ExecutorServices. */
static pthread_mutex_t StartsLock = PTHREAD_MUTEX_INITIALIZER;
static CountedStart *Starts;

/* How the body running on this thread left, if by pthread_exit / thrd_exit. */
typedef struct {
  volatile bool HaveValue; /* recorded by our pthread_exit / thrd_exit */
  void *volatile Value;
} BodyExit;

static _Thread_local BodyExit *CurrentBody;

/* StartsLock held. */
static void unlinkStartLocked(CountedStart *CS) {
  if (CS->Prev)
    CS->Prev->Next = CS->Next;
  else
    Starts = CS->Next;
  if (CS->Next)
    CS->Next->Prev = CS->Prev;
}

static void unlinkStart(CountedStart *CS) {
  pthread_mutex_lock(&StartsLock);
  unlinkStartLocked(CS);
  pthread_mutex_unlock(&StartsLock);
}

/* Instance shutdown (the instance is ES itself). A thread whose entry is
 * denied never runs countedStart; its record is freed here, after the drain,
 * when no thread of ES can still enter. */
static void freeUnstartedThreads(void *Instance) {
  pthread_mutex_lock(&StartsLock);
  for (CountedStart *CS = Starts, *N; CS; CS = N) {
    N = CS->Next;
    if (CS->ES == Instance) {
      unlinkStartLocked(CS);
      free(CS);
    }
  }
  pthread_mutex_unlock(&StartsLock);
}

/* The body's frame: the start routine runs under
 * orc_rt_internal_callCatchingExit, so a pthread_exit / thrd_exit (or a
 * cancellation) unwinds the body's frames (running the cleanup handlers and
 * destructors) and stops there; the body then "returns" the exit value: the
 * thread goes on normally through the runtime's frames (giving its token back)
 * and then ends (thread-specific data destructors run as usual). */
typedef struct {
  void *(*Start)(void *);
  void *Arg;
  void *Result;
} BodyCall;

static void callBody(void *P) {
  BodyCall *B = P;
  B->Result = B->Start(B->Arg);
}

static void *bodyFrame(void *(*Start)(void *), void *Arg) {
  BodyExit BE;
  BE.HaveValue = false;
  BE.Value = NULL;
  CurrentBody = &BE;
  BodyCall B = {Start, Arg, NULL};
  bool Returned = orc_rt_internal_callCatchingExit(callBody, &B);
  CurrentBody = NULL;
  if (Returned)
    return B.Result;
  return BE.HaveValue ? BE.Value : PTHREAD_CANCELED;
}

/* Runs inside the new thread's managed-code frame. The entry was counted by the
 * creator, so the count covers the gap before this thread got its token; it is
 * dropped here, still under the token. If the entry is denied this never runs
 * and the count stays raised, which only happens after shutdown began. */
static void *countedStart(void *P) {
  unlinkStart(P);
  CountedStart CS = *(CountedStart *)P;
  free(P);
  void *R = bodyFrame(CS.Start, CS.Arg);
  orc_rt_internal_ExecutorServices_endCodeUse(CS.ES);
  /* The body has ended: a main waiting for the program's threads may be
   * answered. Only after endCodeUse, so that the controller, once answered,
   * finds this thread's use of JIT'd code over (a release it sends then is
   * not deferred because of it). Still under this thread's token, so ES is
   * alive. */
  orc_rt_internal_ExecutorServices_threadEnded(CS.ES);
  return R;
}

/* pthread_create for JIT'd code (its interposer, and for the threads libraries
 * start for it): the new thread's body runs as managed code of the calling
 * thread's Session (orc_rt_pthread_create) and counts as JIT'd code in use
 * from creation until it returns. */
int orc_rt_ExecutorServices_pthread_create(pthread_t *Thread,
                                           const pthread_attr_t *Attr,
                                           void *(*Start)(void *), void *Arg) {
  orc_rt_ExecutorServicesRef ES = orc_rt_internal_ExecutorServices_current();
  if (!ES || orc_rt_Session_current() != orc_rt_ExecutorServices_getSession(ES))
    return orc_rt_pthread_create(Thread, Attr, Start, Arg);
  CountedStart *CS = orc_rt_internal_malloc(sizeof(*CS));
  if (!CS)
    return EAGAIN;
  *CS = (CountedStart){ES, Start, Arg, NULL, NULL};
  pthread_mutex_lock(&StartsLock);
  CS->Next = Starts;
  if (CS->Next)
    CS->Next->Prev = CS;
  Starts = CS;
  pthread_mutex_unlock(&StartsLock);
  orc_rt_internal_ExecutorServices_beginCodeUse(ES);
  orc_rt_internal_ExecutorServices_threadStarted(ES);
  int EC = orc_rt_Session_createManagedThread(
      orc_rt_ExecutorServices_getSession(ES), Thread, Attr, countedStart, CS);
  if (EC) {
    orc_rt_internal_ExecutorServices_threadEnded(ES);
    orc_rt_internal_ExecutorServices_endCodeUse(ES);
    unlinkStart(CS);
    free(CS);
  }
  return EC;
}

/* pthread_exit for JIT'd code: in a thread started through
 * orc_rt_ExecutorServices_pthread_create, the body ends as if it had returned
 * Value (cleanup handlers and destructors of the unwound frames run; its
 * token is returned, so the shutdown drain does not wait for ever). Elsewhere
 * it is pthread_exit. */
static _Noreturn void pthreadExit(void *Value) {
  BodyExit *BE = CurrentBody;
  if (BE) {
    BE->Value = Value;
    BE->HaveValue = true;
  }
  pthread_exit(Value);
}

/*-- C11 threads (glibc: thrd_t is a pthread_t, thrd_exit is pthread_exit) --*/

typedef struct {
  int (*Start)(void *);
  void *Arg;
} ThrdStart;

static void *thrdTrampoline(void *P) {
  ThrdStart TS = *(ThrdStart *)P;
  free(P);
  return (void *)(intptr_t)TS.Start(TS.Arg);
}

/* thrd_create for JIT'd code (Thread points to a thrd_t): as
 * orc_rt_ExecutorServices_pthread_create. */
static int thrdCreate(void *Thread, int (*Start)(void *), void *Arg) {
  ThrdStart *TS = orc_rt_internal_malloc(sizeof(*TS));
  if (!TS)
    return thrd_nomem;
  *TS = (ThrdStart){Start, Arg};
  int EC = orc_rt_ExecutorServices_pthread_create((pthread_t *)Thread, NULL,
                                                  thrdTrampoline, TS);
  if (EC) {
    free(TS);
    return EC == ENOMEM || EC == EAGAIN ? thrd_nomem : thrd_error;
  }
  return thrd_success;
}

/* thrd_exit for JIT'd code: as pthreadExit. */
static _Noreturn void thrdExit(int Result) {
  BodyExit *BE = CurrentBody;
  if (BE) {
    BE->Value = (void *)(intptr_t)Result;
    BE->HaveValue = true;
  }
  thrd_exit(Result);
}

/* thrd_join / thrd_detach through the pthread functions (glibc's thrd_t is a
 * pthread_t), so that tools intercepting pthreads (TSan) see threads end. */
static int thrdJoin(unsigned long Thread, int *Result) {
  void *V;
  if (pthread_join((pthread_t)Thread, &V) != 0)
    return thrd_error;
  if (Result)
    *Result = (int)(intptr_t)V;
  return thrd_success;
}

static int thrdDetach(unsigned long Thread) {
  return pthread_detach((pthread_t)Thread) == 0 ? thrd_success : thrd_error;
}

/*---- The service ----*/

static const orc_rt_internal_InstanceVTable InstanceVT = {
    NULL, freeUnstartedThreads, NULL};

orc_rt_ErrorRef
orc_rt_internal_addManagedThreads(orc_rt_ExecutorServicesRef ES) {
  static const struct {
    const char *Name;
    void *Fn;
  } Interposers[] = {
      {"pthread_create",
       (void *)(uintptr_t)orc_rt_ExecutorServices_pthread_create},
      {"thrd_create", (void *)(uintptr_t)thrdCreate},
      {"pthread_exit", (void *)(uintptr_t)pthreadExit},
      {"thrd_exit", (void *)(uintptr_t)thrdExit},
      {"thrd_join", (void *)(uintptr_t)thrdJoin},
      {"thrd_detach", (void *)(uintptr_t)thrdDetach},
  };
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; !Err && I < sizeof(Interposers) / sizeof(Interposers[0]);
       ++I)
    Err = orc_rt_internal_ExecutorServices_addInterposer(
        ES, Interposers[I].Name, Interposers[I].Fn);
  return Err ? Err
             : orc_rt_internal_ExecutorServices_addInstance(ES, NULL,
                                                            &InstanceVT, ES);
}
