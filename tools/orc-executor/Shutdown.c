/*===- tools/orc-executor/Shutdown.c - Bounded shutdown wait --------------===*/
/* The shutdown callback sets Done under Lock and signals Changed; the waiter
 * checks Done under Lock, so the wake-up cannot be lost. The waiter struct is
 * static: if the wait times out the callback may still run later, and the
 * process is exiting anyway. */

#include "Shutdown.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

static struct {
  pthread_mutex_t Lock;
  pthread_cond_t Changed;
  bool Done;
} Waiter = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false};

static void onShutdown(void *Ctx) {
  (void)Ctx;
  pthread_mutex_lock(&Waiter.Lock);
  Waiter.Done = true;
  pthread_cond_broadcast(&Waiter.Changed);
  pthread_mutex_unlock(&Waiter.Lock);
}

bool shutdownSession(orc_rt_SessionRef S, long TimeoutMs) {
  bool Forever = TimeoutMs < 0;
  orc_rt_ErrorRef Err = orc_rt_Session_shutdown(S, onShutdown, NULL);
  if (Err) { /* out of memory registering the callback: no bounded wait */
    orc_rt_Error_consume(Err);
    if (!Forever)
      return orc_rt_Session_getState(S) == orc_rt_SessionState_Shutdown;
    orc_rt_Error_consume(orc_rt_Session_waitForShutdown(S));
    return true;
  }
  struct timespec Deadline;
  clock_gettime(CLOCK_REALTIME, &Deadline);
  if (!Forever) {
    Deadline.tv_sec += TimeoutMs / 1000;
    Deadline.tv_nsec += (TimeoutMs % 1000) * 1000000L;
    if (Deadline.tv_nsec >= 1000000000L) {
      Deadline.tv_sec += 1;
      Deadline.tv_nsec -= 1000000000L;
    }
  }
  pthread_mutex_lock(&Waiter.Lock);
  int RC = 0;
  while (!Waiter.Done && RC == 0)
    RC = Forever
             ? pthread_cond_wait(&Waiter.Changed, &Waiter.Lock)
             : pthread_cond_timedwait(&Waiter.Changed, &Waiter.Lock, &Deadline);
  bool Done = Waiter.Done;
  pthread_mutex_unlock(&Waiter.Lock);
  return Done;
}
