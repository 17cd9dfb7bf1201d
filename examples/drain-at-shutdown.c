/*===- examples/drain-at-shutdown.c - A live frame drained at shutdown ----===*/
/* A worker thread is inside "managed code" (here an ordinary function standing
 * in for JIT'd code) when the main thread requests shutdown. The Session denies
 * new entries at once, waits for the worker's frame to return, and only then
 * runs the service's onShutdown, where a real executor would free code memory.
 */

#include "orc-rt-c/orc-rt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static orc_rt_SessionRef S;
static atomic_bool WorkerInside;

static void slowManagedWork(void *Ctx) {
  (void)Ctx;
  atomic_store(&WorkerInside, true);
  printf("worker: inside managed code\n");
  fflush(stdout);
  usleep(200 * 1000);
  printf("worker: leaving managed code\n");
}

static void *worker(void *Arg) {
  (void)Arg;
  orc_rt_Session_callManagedCode(S, slowManagedWork, NULL);
  return NULL;
}

static void freeCode(void *Ctx) {
  (void)Ctx;
  printf("service: onShutdown (code memory would be freed here)\n");
}

static const orc_rt_ServiceVTable CodeMemory = {NULL, freeCode};

int main(void) {
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_ErrorRef Err =
      Q ? orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL)
        : orc_rt_Error_create("out of memory");
  if (!Err)
    Err = orc_rt_Session_addService(S, &CodeMemory, NULL);
  if (Err) {
    fprintf(stderr, "drain-at-shutdown: error: %s\n",
            orc_rt_Error_getMessage(Err));
    orc_rt_Error_consume(Err);
    return 1;
  }

  pthread_t T;
  pthread_create(&T, NULL, worker, NULL);
  while (!atomic_load(&WorkerInside))
    usleep(1000);

  printf("main: requesting shutdown\n");
  orc_rt_Error_consume(orc_rt_Session_shutdown(S, NULL, NULL));
  bool Entered = orc_rt_Session_callManagedCode(S, slowManagedWork, NULL);
  printf("main: new entry after shutdown request %s\n",
         Entered ? "ALLOWED (bug)" : "denied");
  orc_rt_Error_consume(orc_rt_Session_waitForShutdown(S));
  printf("main: shutdown complete\n");
  pthread_join(T, NULL);
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
  return Entered ? 1 : 0;
}
