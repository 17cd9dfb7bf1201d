/*===- lib/core/Session.c - Session lifecycle and managed-code calls ------===*/
/*
 * The lifecycle is a chain of one-shot phases, each ending in a callback list:
 *
 *   detach:   services' onDetach (newest first) -> OnDetach list -> Detached
 *   shutdown: detach -> close the managed-code group
 *             -> (group completes when the last token is back)
 *             -> services' onShutdown (newest first) -> OnShutdown list
 *             -> Shutdown
 *
 * Each phase is run by exactly one thread (the one that started it, or for the
 * part after the drain the one that completed the group). Lock guards every
 * field below except the immutable ones; callbacks always run with Lock
 * released.
 */

#include "orc-rt-c/Session.h"
#include "core/ManagedFrame.h"
#include "core/Session.h"
#include "core/TaskGroup.h"
#include "core/TokenCounter.h"
#include "support/FaultInjection.h"

#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Service {
  const orc_rt_ServiceVTable *VT;
  void *Ctx;
  bool Detached, Shutdown; /* notified yet? */
  struct Service *Older;
} Service;

typedef struct Callback {
  orc_rt_CallbackFn Fn;
  void *Ctx;
  struct Callback *Next;
} Callback;

typedef struct {
  Callback *Head, **Tail;
  bool Done; /* the list has been run; later additions run at once */
} CallbackList;

typedef enum { Phase_Detach, Phase_Shutdown } Phase;

struct orc_rt_OpaqueSession {
  /* Immutable after create. First (ABI, orc-rt-c/EntryFastPath.h): the
   * inline entry in programs reads Head.EntryIndex, the managed group's
   * token-counter FastIndex (UINT32_MAX in fallback mode). */
  orc_rt_abi_SessionHead Head;
  orc_rt_DispatchFn Dispatch;
  void *DispatchCtx;
  orc_rt_ErrorReporterFn Report;
  void *ReportCtx;
  orc_rt_TaskGroupRef Managed;

  pthread_mutex_t Lock;
  pthread_cond_t StateChanged; /* broadcast when State becomes Shutdown */
  orc_rt_SessionState State;
  bool DetachStarted, ShutdownStarted;
  bool ServicesDone[2]; /* per Phase: every service has been notified */
  Service *Newest;
  CallbackList Lists[2]; /* per Phase */
};

/*---- Callback lists ----*/

static void initList(CallbackList *L) {
  L->Head = NULL;
  L->Tail = &L->Head;
  L->Done = false;
}

static void freeList(CallbackList *L) {
  for (Callback *C = L->Head, *N; C; C = N) {
    N = C->Next;
    free(C);
  }
}

/* Adds Fn to phase P's list, or runs it at once if that list
 * has already run. */
static orc_rt_ErrorRef addCallback(orc_rt_SessionRef S, Phase P,
                                   orc_rt_CallbackFn Fn, void *Ctx) {
  if (!Fn)
    return NULL;
  pthread_mutex_lock(&S->Lock);
  CallbackList *L = &S->Lists[P];
  if (L->Done) {
    pthread_mutex_unlock(&S->Lock);
    Fn(Ctx);
    return NULL;
  }
  Callback *C = orc_rt_internal_malloc(sizeof(*C));
  if (!C) {
    pthread_mutex_unlock(&S->Lock);
    return orc_rt_Error_create("out of memory registering a session callback");
  }
  C->Fn = Fn;
  C->Ctx = Ctx;
  C->Next = NULL;
  *L->Tail = C;
  L->Tail = &C->Next;
  pthread_mutex_unlock(&S->Lock);
  return NULL;
}

/* Notifies every service not yet told of phase P, newest first (a service added
 * meanwhile is picked up too), then runs P's callback list in registration
 * order until it stays empty. Called with Lock held; returns with it held. */
static void runPhase(orc_rt_SessionRef S, Phase P) {
  for (;;) {
    Service *Sv = S->Newest;
    while (Sv && (P == Phase_Detach ? Sv->Detached : Sv->Shutdown))
      Sv = Sv->Older;
    if (!Sv)
      break;
    if (P == Phase_Detach)
      Sv->Detached = true;
    else
      Sv->Shutdown = true;
    void (*Fn)(void *) =
        P == Phase_Detach ? Sv->VT->onDetach : Sv->VT->onShutdown;
    pthread_mutex_unlock(&S->Lock);
    if (Fn)
      Fn(Sv->Ctx);
    pthread_mutex_lock(&S->Lock);
  }
  S->ServicesDone[P] = true;

  CallbackList *L = &S->Lists[P];
  while (L->Head) {
    Callback *C = L->Head;
    L->Head = C->Next;
    if (!L->Head)
      L->Tail = &L->Head;
    pthread_mutex_unlock(&S->Lock);
    C->Fn(C->Ctx);
    free(C);
    pthread_mutex_lock(&S->Lock);
  }
  L->Done = true;
}

/*---- Create / destroy ----*/

static void finishShutdown(void *Ctx);

static void printError(orc_rt_ErrorRef Err, void *Ctx) {
  (void)Ctx;
  fprintf(stderr, "orc-rt-c: error: %s\n", orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
}

orc_rt_ErrorRef orc_rt_Session_create(orc_rt_SessionRef *Result,
                                      orc_rt_DispatchFn Dispatch,
                                      void *DispatchCtx,
                                      orc_rt_ErrorReporterFn Report,
                                      void *ReportCtx) {
  assert(Result && Dispatch &&
         "Session needs a result pointer and a dispatcher");
  orc_rt_SessionRef S = orc_rt_internal_calloc(1, sizeof(*S));
  orc_rt_TaskGroupRef G = orc_rt_TaskGroup_create();
  if (!S || !G) {
    free(S);
    orc_rt_TaskGroup_destroy(G);
    return orc_rt_Error_create("out of memory creating a session");
  }
  S->Dispatch = Dispatch;
  S->DispatchCtx = DispatchCtx;
  S->Report = Report ? Report : printError;
  S->ReportCtx = Report ? ReportCtx : NULL;
  S->Managed = G;
  S->Head.EntryIndex = G->Tokens.FastIndex;
  /* Registered now so that shutdown has no allocation (and no failure)
   * left to do. */
  orc_rt_ErrorRef Err = orc_rt_TaskGroup_addOnComplete(G, finishShutdown, S);
  if (Err) {
    free(S);
    orc_rt_TaskGroup_destroy(G);
    return Err;
  }
  pthread_mutex_init(&S->Lock, NULL);
  pthread_cond_init(&S->StateChanged, NULL);
  S->State = orc_rt_SessionState_Running;
  initList(&S->Lists[Phase_Detach]);
  initList(&S->Lists[Phase_Shutdown]);
  *Result = S;
  return NULL;
}

static void waitUntilShutdown(orc_rt_SessionRef S) {
  pthread_mutex_lock(&S->Lock);
  while (S->State != orc_rt_SessionState_Shutdown)
    pthread_cond_wait(&S->StateChanged, &S->Lock);
  pthread_mutex_unlock(&S->Lock);
}

void orc_rt_Session_destroy(orc_rt_SessionRef S) {
  if (!S)
    return;
  assert(!orc_rt_Session_isInManagedCode(S) &&
         "orc_rt_Session_destroy called from managed code of the same session");
  orc_rt_Session_reportError(S, orc_rt_Session_shutdown(S, NULL, NULL));
  waitUntilShutdown(S);
  for (Service *Sv = S->Newest, *O; Sv; Sv = O) {
    O = Sv->Older;
    free(Sv);
  }
  freeList(&S->Lists[Phase_Detach]);
  freeList(&S->Lists[Phase_Shutdown]);
  orc_rt_TaskGroup_destroy(S->Managed);
  pthread_cond_destroy(&S->StateChanged);
  pthread_mutex_destroy(&S->Lock);
  free(S);
}

orc_rt_SessionState orc_rt_Session_getState(orc_rt_SessionRef S) {
  pthread_mutex_lock(&S->Lock);
  orc_rt_SessionState State = S->State;
  pthread_mutex_unlock(&S->Lock);
  /* ShuttingDown is not stored: it is "the group is closed" (every entry is now
   * denied) until finishShutdown stores Shutdown. */
  if (State != orc_rt_SessionState_Shutdown &&
      orc_rt_TaskGroup_isClosed(S->Managed))
    State = orc_rt_SessionState_ShuttingDown;
  return State;
}

void orc_rt_Session_reportError(orc_rt_SessionRef S, orc_rt_ErrorRef Err) {
  if (Err)
    S->Report(Err, S->ReportCtx);
}

void orc_rt_Session_dispatch(orc_rt_SessionRef S, orc_rt_TaskRef T) {
  S->Dispatch(T, S->DispatchCtx);
}

/*---- Services and callbacks ----*/

orc_rt_ErrorRef orc_rt_Session_addService(orc_rt_SessionRef S,
                                          const orc_rt_ServiceVTable *VT,
                                          void *Ctx) {
  Service *Sv = orc_rt_internal_calloc(1, sizeof(*Sv));
  if (!Sv)
    return orc_rt_Error_create("out of memory adding a service");
  Sv->VT = VT;
  Sv->Ctx = Ctx;
  pthread_mutex_lock(&S->Lock);
  /* If a phase's notifier is still running it will pick this service up; if it
   * has finished, notify here, at once. */
  bool DetachNow = S->ServicesDone[Phase_Detach];
  bool ShutdownNow = S->ServicesDone[Phase_Shutdown];
  Sv->Detached = DetachNow;
  Sv->Shutdown = ShutdownNow;
  Sv->Older = S->Newest;
  S->Newest = Sv;
  pthread_mutex_unlock(&S->Lock);
  if (DetachNow && VT->onDetach)
    VT->onDetach(Ctx);
  if (ShutdownNow && VT->onShutdown)
    VT->onShutdown(Ctx);
  return NULL;
}

orc_rt_ErrorRef orc_rt_Session_addOnDetach(orc_rt_SessionRef S,
                                           orc_rt_CallbackFn Fn, void *Ctx) {
  return addCallback(S, Phase_Detach, Fn, Ctx);
}

orc_rt_ErrorRef orc_rt_Session_addOnShutdown(orc_rt_SessionRef S,
                                             orc_rt_CallbackFn Fn, void *Ctx) {
  return addCallback(S, Phase_Shutdown, Fn, Ctx);
}

/*---- Detach and shutdown ----*/

/* Runs the detach phase. Called with Lock held by the one thread that set
 * DetachStarted; returns with Lock held. Returns true if the caller must close
 * the managed-code group (shutdown was requested before or while detaching)
 * once it has released Lock. */
static bool runDetach(orc_rt_SessionRef S) {
  runPhase(S, Phase_Detach);
  if (S->State == orc_rt_SessionState_Running)
    S->State = orc_rt_SessionState_Detached;
  return S->ShutdownStarted;
}

/* Closes the group. Called without Lock, as the caller's last use of S: once
 * the group completes (possibly inside this call) the Session may be destroyed
 * by another thread. */
static void closeManagedCode(orc_rt_SessionRef S) {
  orc_rt_TaskGroup_close(S->Managed);
}

orc_rt_ErrorRef orc_rt_Session_detach(orc_rt_SessionRef S,
                                      orc_rt_CallbackFn OnDetached, void *Ctx) {
  orc_rt_ErrorRef Err = addCallback(S, Phase_Detach, OnDetached, Ctx);
  if (Err)
    return Err;
  bool Close = false;
  pthread_mutex_lock(&S->Lock);
  if (!S->DetachStarted) {
    S->DetachStarted = true;
    Close = runDetach(S);
  }
  pthread_mutex_unlock(&S->Lock);
  if (Close)
    closeManagedCode(S);
  return NULL;
}

/* The managed-code group's completion callback (registered at create): the
 * group is closed and every token is back. */
static void finishShutdown(void *Ctx) {
  orc_rt_SessionRef S = Ctx;
  pthread_mutex_lock(&S->Lock);
  runPhase(S, Phase_Shutdown);
  S->State = orc_rt_SessionState_Shutdown;
  /* Pairs with the wait in waitUntilShutdown; after this unlock S
   * may be freed. */
  pthread_cond_broadcast(&S->StateChanged);
  pthread_mutex_unlock(&S->Lock);
}

orc_rt_ErrorRef orc_rt_Session_shutdown(orc_rt_SessionRef S,
                                        orc_rt_CallbackFn OnShutdown,
                                        void *Ctx) {
  orc_rt_ErrorRef Err = addCallback(S, Phase_Shutdown, OnShutdown, Ctx);
  if (Err)
    return Err;
  bool Close = false;
  pthread_mutex_lock(&S->Lock);
  if (!S->ShutdownStarted) {
    S->ShutdownStarted = true;
    if (!S->DetachStarted) {
      S->DetachStarted = true;
      Close = runDetach(S);
    } else if (S->Lists[Phase_Detach].Done) {
      Close = true;
    }
    /* Otherwise another thread is detaching; runDetach
     * there sees ShutdownStarted. */
  }
  pthread_mutex_unlock(&S->Lock);
  if (Close)
    closeManagedCode(S);
  return NULL;
}

orc_rt_ErrorRef orc_rt_Session_waitForShutdown(orc_rt_SessionRef S) {
  orc_rt_ErrorRef Err = orc_rt_Session_shutdown(S, NULL, NULL);
  if (Err)
    return Err;
  if (orc_rt_Session_isInManagedCode(S))
    return orc_rt_Error_create(
        "waitForShutdown called from inside managed code of the same session: "
        "shutdown was requested but cannot complete until this frame returns");
  waitUntilShutdown(S);
  return NULL;
}

/*---- Managed code ----*/

orc_rt_TokenSourceRef
orc_rt_Session_managedCodeTokenSource(orc_rt_SessionRef S) {
  return orc_rt_TaskGroup_getTokenSource(S->Managed);
}

/* Every entry that cannot take the fast path below: fallback mode, first
 * entry of a thread. Out of line so the fast path keeps few registers live. */
static __attribute__((noinline)) bool callInGroupSlow(orc_rt_SessionRef S,
                                                      orc_rt_TaskGroupRef G,
                                                      orc_rt_ManagedFn Fn,
                                                      void *Ctx) {
  if (!orc_rt_TaskGroup_acquireToken(G))
    return false;
  orc_rt_internal_ManagedFrame F;
  orc_rt_internal_ManagedFrame *Outer = orc_rt_internal_pushFrame(&F, S);
  Fn(Ctx);
  orc_rt_internal_popFrameTo(Outer);
  orc_rt_TaskGroup_releaseToken(G);
  return true;
}

_Static_assert(offsetof(struct orc_rt_OpaqueSession, Head) == 0,
               "the inline entry (orc-rt-c/EntryFastPath.h) reads the head");

/* The entry hot path: orc_rt_abi_enter, the same inline code programs get
 * from orc-rt-c/EntryFastPath.h. The token ops are inlined and both
 * thread-local stacks (the token slot, the frame list) get back values
 * carried in registers rather than reloaded after Fn, which keeps loads off
 * the critical path (see docs/TokenFastPath.md). The index is G's, not S's
 * head: deferred work only touches S once the token is granted. */
static inline __attribute__((always_inline)) bool
callInGroup(orc_rt_SessionRef S, orc_rt_TaskGroupRef G, orc_rt_ManagedFn Fn,
            void *Ctx) {
  int R = orc_rt_abi_enter(G->Tokens.FastIndex, S, Fn, Ctx);
  if (__builtin_expect(R < 0, 0))
    return callInGroupSlow(S, G, Fn, Ctx);
  return R != 0;
}

bool orc_rt_internal_callInGroup(orc_rt_SessionRef S, orc_rt_TaskGroupRef G,
                                 orc_rt_ManagedFn Fn, void *Ctx) {
  return callInGroup(S, G, Fn, Ctx);
}

orc_rt_TaskGroupRef orc_rt_internal_Session_retainGroup(orc_rt_SessionRef S) {
  orc_rt_internal_TaskGroup_retain(S->Managed);
  return S->Managed;
}

bool orc_rt_abi_Session_callManagedCodeSlow(orc_rt_SessionRef S,
                                            orc_rt_ManagedFn Fn, void *Ctx) {
  return callInGroupSlow(S, S->Managed, Fn, Ctx);
}

/* The library's copy, for JIT'd code, function pointers and TSan builds (the
 * parentheses keep the public header's macro out). */
bool(orc_rt_Session_callManagedCode)(orc_rt_SessionRef S, orc_rt_ManagedFn Fn,
                                     void *Ctx) {
  /* The head's copy of the index: one load fewer than S->Managed->Tokens. */
  int R = orc_rt_abi_enter(S->Head.EntryIndex, S, Fn, Ctx);
  if (__builtin_expect(R < 0, 0))
    return callInGroupSlow(S, S->Managed, Fn, Ctx);
  return R != 0;
}

typedef struct {
  orc_rt_ManagedValueFn Fn;
  void *Ctx;
  int64_t Result;
} ValueCall;

static void callValueFn(void *Arg) {
  ValueCall *V = Arg;
  V->Result = V->Fn(V->Ctx);
}

bool orc_rt_Session_callManagedCodeWithResult(orc_rt_SessionRef S,
                                              orc_rt_ManagedValueFn Fn,
                                              int64_t *Result, void *Ctx) {
  ValueCall V = {Fn, Ctx, 0};
  if (!orc_rt_internal_callInGroup(S, S->Managed, callValueFn, &V))
    return false;
  if (Result)
    *Result = V.Result;
  return true;
}

/* A deferred managed call: holds its own reference to the group, so it stays
 * safe to run (and be denied) even after the Session is gone. S is only used
 * once a token has been granted, which proves the Session is still alive. */
typedef struct {
  orc_rt_SessionRef S;
  orc_rt_TaskGroupRef G;
  orc_rt_ManagedFn Fn;
  orc_rt_CallbackFn OnDenied;
  void *Ctx;
} DeferredCall;

static void deny(void *Arg) {
  DeferredCall *D = Arg;
  if (D->OnDenied)
    D->OnDenied(D->Ctx);
  orc_rt_internal_TaskGroup_drop(D->G);
  free(D);
}

static void runDeferred(void *Arg) {
  DeferredCall *D = Arg;
  if (!orc_rt_internal_callInGroup(D->S, D->G, D->Fn, D->Ctx)) {
    deny(D);
    return;
  }
  orc_rt_internal_TaskGroup_drop(D->G);
  free(D);
}

orc_rt_ErrorRef orc_rt_Session_dispatchManagedCall(orc_rt_SessionRef S,
                                                   orc_rt_ManagedFn Fn,
                                                   orc_rt_CallbackFn OnDenied,
                                                   void *Ctx) {
  DeferredCall *D = orc_rt_internal_malloc(sizeof(*D));
  orc_rt_TaskRef T = D ? orc_rt_Task_create(runDeferred, deny, D) : NULL;
  if (!T) {
    free(D);
    return orc_rt_Error_create("out of memory dispatching a managed call");
  }
  *D = (DeferredCall){S, orc_rt_internal_Session_retainGroup(S), Fn, OnDenied,
                      Ctx};
  orc_rt_Session_dispatch(S, T);
  return NULL;
}
