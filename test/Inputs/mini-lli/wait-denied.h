/* For tests of JIT'd code: wait until the Session's managed-code group is
 * closed, i.e. until a token is denied. (orc_rt_Session_getState may report
 * ShuttingDown a moment before the group is actually closed.) Probes with raw
 * tokens, so it makes no entry into JIT'd code itself. */
#ifndef MINI_LLI_TEST_WAIT_DENIED_H
#define MINI_LLI_TEST_WAIT_DENIED_H

#include <orc-rt-c/orc-rt.h>
#include <unistd.h>

static void waitUntilEntriesDenied(orc_rt_SessionRef S) {
  orc_rt_TokenSourceRef TS = orc_rt_Session_managedCodeTokenSource(S);
  while (orc_rt_TokenSource_acquireToken(TS)) {
    orc_rt_TokenSource_releaseToken(TS);
    usleep(1000);
  }
  orc_rt_TokenSource_dispose(TS);
}

#endif
