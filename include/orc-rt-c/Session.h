/*===- orc-rt-c/Session.h - The executor Session ----------------*- C -*-===*\
|* Part of orc-rt-c. A Session owns what a JIT'd program needs in this        *|
|* process and knows when JIT'd ("managed") code may be live on a stack.      *|
\*===----------------------------------------------------------------------===*/
/*
 * Lifecycle. A Session is Running until detach or shutdown is requested:
 *
 *   detach    services' onDetach, newest first; then addOnDetach callbacks
 *             and detach callbacks, in registration order. The Session is
 *             now Detached (no more controller requests) but managed code
 *             still runs.
 *   shutdown  detach (if not done yet)
 *             -> close the managed-code task group (every later token
 *                acquire fails, nested or not)
 *             -> wait, without blocking the caller, until every
 *                managed-code token is back
 *             -> services' onShutdown, newest first (only now may code
 *                memory be freed)
 *             -> addOnShutdown callbacks and shutdown callbacks, in
 *                registration order.
 *             The Session is then Shutdown.
 *
 * Every callback and service notification runs exactly once. Something
 * registered after its event has happened runs at once, on the registering
 * thread (a service added after detach gets onDetach at once; after shutdown
 * completed, onDetach then onShutdown). Detach runs on the thread that
 * requested it. The shutdown phases after the drain run on the thread that
 * completed the drain: the requester if no token was out, otherwise the thread
 * that released the last token (typically as its callManagedCode returns).
 *
 * Managed code. Every entry into JIT'd code must hold a managed-code token for
 * exactly the span it runs on a stack: orc_rt_Session_callManagedCode does that
 * for a call. Work deferred past that call (a stashed continuation, a hand-off
 * to another thread) is not covered: whoever runs it later takes a fresh token
 * and aborts the work if it is denied (orc_rt_Session_dispatchManagedCall does
 * that for a task).
 *
 * Functions JIT'd code may call (they are exported with default visibility):
 * callManagedCode*, dispatchManagedCall, shutdown, reportError, getState,
 * current, managedCodeTokenSource.
 */

#ifndef ORC_RT_C_SESSION_H
#define ORC_RT_C_SESSION_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Error.h"
#include "orc-rt-c/TaskGroup.h"

#include <stdbool.h>
#include <stdint.h>

ORC_RT_C_EXTERN_C_BEGIN

typedef struct orc_rt_OpaqueSession *orc_rt_SessionRef;

typedef enum {
  orc_rt_SessionState_Running,
  orc_rt_SessionState_Detached,
  orc_rt_SessionState_ShuttingDown, /* group closed, waiting for tokens */
  orc_rt_SessionState_Shutdown      /* every shutdown callback has run */
} orc_rt_SessionState;

/** Receives (and must consume) an error reported to the Session. Any thread. */
typedef void (*orc_rt_ErrorReporterFn)(orc_rt_ErrorRef Err, void *Ctx);

/**
 * A service: resources the Session owns. Either function may be NULL. Both are
 * called exactly once, onDetach first. onShutdown runs after the managed-code
 * drain, so it may free code and data JIT'd code used; it should release
 * everything the service holds (including Ctx, if the service owns it).
 */
typedef struct {
  void (*onDetach)(void *Ctx);
  void (*onShutdown)(void *Ctx);
} orc_rt_ServiceVTable;

/**
 * Creates a Running Session. Dispatch receives the tasks the Session runs (it
 * must not be NULL; see orc_rt_TaskQueue_dispatch and
 * orc_rt_ThreadPool_dispatch). Report receives reported errors; if NULL they
 * are printed to stderr. The contexts must outlive the Session.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Session_create(
    orc_rt_SessionRef *Result, orc_rt_DispatchFn Dispatch, void *DispatchCtx,
    orc_rt_ErrorReporterFn Report, void *ReportCtx);

/**
 * Shuts S down if that was not requested yet, blocks until its lifecycle is
 * complete (every shutdown callback has run), then frees it. Must not be called
 * from inside managed code of S, nor from a task that S's drain is waiting for
 * (contract violation).
 */
ORC_RT_C_API void orc_rt_Session_destroy(orc_rt_SessionRef S);

/** The current lifecycle state. */
ORC_RT_C_API orc_rt_SessionState orc_rt_Session_getState(orc_rt_SessionRef S);

/** Hands Err (consumed) to the Session's error reporter. Any thread. */
ORC_RT_C_API void orc_rt_Session_reportError(orc_rt_SessionRef S,
                                             orc_rt_ErrorRef Err);

/** Gives T to the Session's dispatch function. */
ORC_RT_C_API void orc_rt_Session_dispatch(orc_rt_SessionRef S,
                                          orc_rt_TaskRef T);

/**
 * Adds a service. VT must outlive the Session. Services are notified newest
 * first. On error (memory exhausted) nothing is called.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Session_addService(
    orc_rt_SessionRef S, const orc_rt_ServiceVTable *VT, void *Ctx);

/** Registers Fn to run once when detach completes (at once if it has). */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Session_addOnDetach(orc_rt_SessionRef S,
                                                        orc_rt_CallbackFn Fn,
                                                        void *Ctx);

/** Registers Fn to run once when shutdown completes (at once if it has). */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Session_addOnShutdown(orc_rt_SessionRef S,
                                                          orc_rt_CallbackFn Fn,
                                                          void *Ctx);

/**
 * Requests detach; OnDetached (may be NULL) runs once detach is complete.
 * Idempotent. Never blocks on managed code.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Session_detach(orc_rt_SessionRef S,
                                                   orc_rt_CallbackFn OnDetached,
                                                   void *Ctx);

/**
 * Requests shutdown; OnShutdown (may be NULL) runs once shutdown is complete.
 * Idempotent (each call's callback runs once). Asynchronous: never waits for
 * managed code, so it is safe from any thread, including from inside managed
 * code of S (shutdown then completes after that frame returns). When this
 * returns, the managed-code group is closed.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Session_shutdown(
    orc_rt_SessionRef S, orc_rt_CallbackFn OnShutdown, void *Ctx);

/**
 * Requests shutdown and blocks until it is complete. Called on a thread that is
 * inside managed code of S (a callManagedCode frame of S is live on this
 * thread), it returns an error at once instead of deadlocking (shutdown is
 * still requested).
 */
ORC_RT_C_API orc_rt_ErrorRef
orc_rt_Session_waitForShutdown(orc_rt_SessionRef S);

/** Returns a new token source for S's managed-code group; NULL if
 * out of memory. */
ORC_RT_C_API orc_rt_TokenSourceRef
orc_rt_Session_managedCodeTokenSource(orc_rt_SessionRef S);

/** A managed-code function that returns nothing. */
typedef void (*orc_rt_ManagedFn)(void *Ctx);

/** A managed-code function that returns a value. */
typedef int64_t (*orc_rt_ManagedValueFn)(void *Ctx);

/**
 * Acquires a managed-code token, calls Fn(Ctx) on this thread while holding it,
 * and releases it when Fn returns. Returns false, without calling Fn, if the
 * token is denied (shutdown was requested). Anything Fn runs inline is covered;
 * anything it defers is not. An asynchronous function is called the same way,
 * with its continuation as part of Ctx: true then only means it was called.
 */
ORC_RT_C_API bool orc_rt_Session_callManagedCode(orc_rt_SessionRef S,
                                                 orc_rt_ManagedFn Fn,
                                                 void *Ctx);

/**
 * As orc_rt_Session_callManagedCode, for a function returning a value: on
 * success stores Fn's result in *Result (which may be NULL) and returns true;
 * if denied returns false and leaves *Result untouched.
 */
ORC_RT_C_API bool orc_rt_Session_callManagedCodeWithResult(
    orc_rt_SessionRef S, orc_rt_ManagedValueFn Fn, int64_t *Result, void *Ctx);

/**
 * Dispatches a task that, when the dispatcher runs it, calls Fn(Ctx) under a
 * fresh managed-code token. If that token is denied (or the task is destroyed
 * unrun) OnDenied (may be NULL) is called with Ctx instead, outside managed
 * code. Exactly one of the two runs. This is how a stashed continuation is
 * resumed safely. On error neither runs.
 */
ORC_RT_C_API orc_rt_ErrorRef
orc_rt_Session_dispatchManagedCall(orc_rt_SessionRef S, orc_rt_ManagedFn Fn,
                                   orc_rt_CallbackFn OnDenied, void *Ctx);

/**
 * The Session whose managed code the calling thread is running: the Session of
 * the innermost live callManagedCode frame on this thread, or NULL if there is
 * none.
 */
ORC_RT_C_API orc_rt_SessionRef orc_rt_Session_current(void);

/** True if a callManagedCode frame of S is live on the calling thread. */
ORC_RT_C_API bool orc_rt_Session_isInManagedCode(orc_rt_SessionRef S);

ORC_RT_C_EXTERN_C_END

/* callManagedCode's inline fast path (a macro for direct calls). */
#include "orc-rt-c/EntryFastPath.h"

#endif /* ORC_RT_C_SESSION_H */
