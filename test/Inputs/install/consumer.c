/* A program built out of tree against an installed orc-rt-c: one managed call before
 * shutdown (runs) and one after (denied). */
#include <orc-rt-c/orc-rt.h>
#include <stdio.h>

static void hello(void *Ctx) { printf("managed call %s\n", (const char *)Ctx); }

int main(void) {
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  orc_rt_ErrorRef E = orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL);
  if (E) {
    fprintf(stderr, "consumer: error: %s\n", orc_rt_Error_getMessage(E));
    orc_rt_Error_consume(E);
    return 1;
  }
  bool Before = orc_rt_Session_callManagedCode(S, hello, "before");
  orc_rt_Error_consume(orc_rt_Session_waitForShutdown(S));
  bool After = orc_rt_Session_callManagedCode(S, hello, "after");
  printf("before=%d after=%d\n", Before, After);
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
  return 0;
}
