/*===- orc-rt-c/NestedGroup.h - A task group that is one token of another -*- C -*-===*\
|* Part of orc-rt-c. A nested group is an ordinary task group that holds one   *|
|* token of a parent group from its creation until it completes.              *|
\*===----------------------------------------------------------------------===*/
/*
 * What it is for: code that can be unloaded on its own while the program goes
 * on (a dlopen'ed module, a reloaded handler). Each entry into that code holds
 * a token of the unit's own group for exactly the span it runs there; the unit
 * is unloaded by closing its group, and its memory is freed once the group
 * completes. The parent (typically the Session's managed-code group, through
 * orc_rt_Session_managedCodeTokenSource) must not complete while such a unit
 * is still loaded or still has live frames: so the nested group holds one
 * parent token for its whole life, and gives it back only after its own
 * completion callback has run. The parent's drain therefore waits for every
 * nested group, and the parent's completion (the Session's onShutdown, which
 * frees all code) comes after every nested completion callback.
 *
 *   createNested --acquire parent token--> open: tokens as for any group
 *   close (by the owner) --> last token back --> OnComplete(Ctx)
 *                        --> parent token released --> addOnComplete callbacks
 *
 * Closing the parent does not close nested groups: their owner closes them
 * when it learns that the parent is shutting down (a Session service's
 * onDetach, for example); until then the parent's drain waits. An entry into
 * nested code thus costs one token of the nested group only; the caller is
 * usually already inside managed code of the parent.
 *
 * Threads: OnComplete runs on the thread that completed the nested group (the
 * closer if no token was out, otherwise the thread that released the last
 * token), like any completion callback; so may the parent's completion.
 */

#ifndef ORC_RT_C_NESTEDGROUP_H
#define ORC_RT_C_NESTEDGROUP_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Error.h"
#include "orc-rt-c/TaskGroup.h"

ORC_RT_C_EXTERN_C_BEGIN

/**
 * Creates an open group holding one token of Parent's group. Takes ownership of
 * Parent (disposed once the new group has completed, or before returning an
 * error). OnComplete (may be NULL) runs once when the new group completes,
 * before the parent token is released. Fails, creating nothing and never
 * calling OnComplete, if the parent group is closed or memory is exhausted.
 * The caller owns the result's creator reference (orc_rt_TaskGroup_destroy);
 * the group stays valid for token sources and for its own completion even if
 * that reference is dropped first.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_TaskGroup_createNested(
    orc_rt_TaskGroupRef *Result, orc_rt_TokenSourceRef Parent,
    orc_rt_CallbackFn OnComplete, void *Ctx);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_NESTEDGROUP_H */
