/*===- tools/orc-executor/Shutdown.h - Bounded shutdown wait --------------===*/
/* Requests a Session's shutdown and waits for it, optionally only for a while.
 */

#ifndef ORC_EXECUTOR_SHUTDOWN_H
#define ORC_EXECUTOR_SHUTDOWN_H

#include "orc-rt-c/Session.h"

/* Requests shutdown of S and waits until it is complete (the drain of live
 * frames, then the services' onShutdown). With TimeoutMs > 0, gives up after
 * that long and returns false (S is then still shutting down and must not be
 * destroyed). */
bool shutdownSession(orc_rt_SessionRef S, unsigned TimeoutMs);

#endif
