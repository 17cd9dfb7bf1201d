/*===- tools/orc-executor/Shutdown.h - Bounded shutdown wait --------------===*/
/* Requests a Session's shutdown and waits for it, optionally only
 * for a while. */

#ifndef ORC_EXECUTOR_SHUTDOWN_H
#define ORC_EXECUTOR_SHUTDOWN_H

#include "orc-rt-c/Session.h"

/* Requests shutdown of S and waits until it is complete (the drain of live
 * frames, then the services' onShutdown), at most TimeoutMs (negative:
 * without limit; 0: not at all). Returns false if it is not complete by
 * then: S is still shutting down, its memory is not released, and it must
 * not be destroyed. */
bool shutdownSession(orc_rt_SessionRef S, long TimeoutMs);

#endif
