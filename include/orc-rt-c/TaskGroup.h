/*===- orc-rt-c/TaskGroup.h - Task groups and tokens ------------*- C -*-===*\
|* Part of orc-rt-c. A task group counts live tokens and tells, once closed,  *|
|* when the last one is back.                                                 *|
\*===----------------------------------------------------------------------===*/
/*
 * A task group hands out tokens until it is closed. Closing is one-way: once
 * orc_rt_TaskGroup_close has returned, every later acquire fails, on every
 * thread, whatever the caller already holds (nested acquires are denied too).
 * When the group is closed and every token has been released, the group is
 * *complete*: its completion callbacks run, once each, in registration order,
 * on the thread that brought the group to completion (the closer, or whoever
 * released the last token).
 *
 * Tokens are counted, not named: orc_rt_TaskGroup_releaseToken returns one
 * token, and may run on another thread than the acquire. Releasing a token that
 * was not acquired is a contract violation (asserted in debug builds).
 *
 * Groups are reference counted. The creator holds one reference, dropped by
 * orc_rt_TaskGroup_destroy; each token source holds another, so a token source
 * may outlive the object that owned the group (a token acquired through it
 * after close is simply denied). acquire and release never block; close never
 * blocks.
 */

#ifndef ORC_RT_C_TASKGROUP_H
#define ORC_RT_C_TASKGROUP_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Error.h"

#include <stdbool.h>

ORC_RT_C_EXTERN_C_BEGIN

typedef struct orc_rt_OpaqueTaskGroup *orc_rt_TaskGroupRef;

/** A handle that can acquire tokens from a group but cannot close it. */
typedef struct orc_rt_OpaqueTokenSource *orc_rt_TokenSourceRef;

/** A callback with no arguments but its context. */
typedef void (*orc_rt_CallbackFn)(void *Ctx);

/** Creates an open group with no tokens. Returns NULL if
 * memory is exhausted. */
ORC_RT_C_API orc_rt_TaskGroupRef orc_rt_TaskGroup_create(void);

/**
 * Drops the creator's reference. Does not close the group; a group that is
 * destroyed while open simply never completes unless someone else closes it. G
 * may be NULL.
 */
ORC_RT_C_API void orc_rt_TaskGroup_destroy(orc_rt_TaskGroupRef G);

/** Takes a token. Returns false, taking nothing, if the group is closed. */
ORC_RT_C_API bool orc_rt_TaskGroup_acquireToken(orc_rt_TaskGroupRef G);

/** Returns a token taken by a successful acquire, from any thread. */
ORC_RT_C_API void orc_rt_TaskGroup_releaseToken(orc_rt_TaskGroupRef G);

/**
 * Closes the group (idempotent). After this returns no token is granted. If no
 * token is outstanding the completion callbacks run before this returns.
 */
ORC_RT_C_API void orc_rt_TaskGroup_close(orc_rt_TaskGroupRef G);

/** True once a close has taken effect: from then on every acquire fails. */
ORC_RT_C_API bool orc_rt_TaskGroup_isClosed(orc_rt_TaskGroupRef G);

/** True once the group is closed and every token is back. */
ORC_RT_C_API bool orc_rt_TaskGroup_isComplete(orc_rt_TaskGroupRef G);

/**
 * Registers Fn to run once when the group completes, after the callbacks
 * registered before it. If the group is already complete, Fn runs before this
 * returns. On error (memory exhausted) Fn is never called.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_TaskGroup_addOnComplete(
    orc_rt_TaskGroupRef G, orc_rt_CallbackFn Fn, void *Ctx);

/** Returns a new token source for G (its own reference). NULL if
 * out of memory. */
ORC_RT_C_API orc_rt_TokenSourceRef
orc_rt_TaskGroup_getTokenSource(orc_rt_TaskGroupRef G);

/** Acquires a token of the source's group; false if that group is closed. */
ORC_RT_C_API bool orc_rt_TokenSource_acquireToken(orc_rt_TokenSourceRef TS);

/** Releases a token acquired through TS (from any thread). */
ORC_RT_C_API void orc_rt_TokenSource_releaseToken(orc_rt_TokenSourceRef TS);

/** Drops the source's reference to its group. TS may be NULL. */
ORC_RT_C_API void orc_rt_TokenSource_dispose(orc_rt_TokenSourceRef TS);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_TASKGROUP_H */
