/*===- unittests/SessionTest.c - orc-rt-c/Session.h -----------------------===*/
/* Every lifecycle rule of docs/Design.md: calls before and after
 * shutdown, deferred and nested entries, the phase order, services newest
 * first, callbacks after the fact, shutdown and waitForShutdown from
 * inside managed code. */

#include "TestUtil.h"

#include "orc-rt-c/Session.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*---- Fixture: a Session on a task queue, and an event log ----*/

typedef struct {
  orc_rt_TaskQueueRef Q;
  orc_rt_SessionRef S;
  char Log[512];
  pthread_mutex_t LogLock;
} Fixture;

static void logEvent(Fixture *F, const char *Ev) {
  pthread_mutex_lock(&F->LogLock);
  if (F->Log[0])
    strcat(F->Log, ",");
  strcat(F->Log, Ev);
  pthread_mutex_unlock(&F->LogLock);
}

static int setup(void **State) {
  Fixture *F = calloc(1, sizeof(*F));
  pthread_mutex_init(&F->LogLock, NULL);
  F->Q = orc_rt_TaskQueue_create();
  orc_rt_ErrorRef E =
      orc_rt_Session_create(&F->S, orc_rt_TaskQueue_dispatch, F->Q, NULL, NULL);
  assert_null(E);
  *State = F;
  return 0;
}

static int teardown(void **State) {
  Fixture *F = *State;
  orc_rt_Session_destroy(F->S);
  orc_rt_TaskQueue_destroy(F->Q);
  pthread_mutex_destroy(&F->LogLock);
  free(F);
  return 0;
}

typedef struct {
  Fixture *F;
  const char *Name;
} Named;

static void logNamed(void *Ctx) {
  Named *N = Ctx;
  logEvent(N->F, N->Name);
}

static void shutdownAndWait(orc_rt_SessionRef S) {
  assert_null(orc_rt_Session_waitForShutdown(S));
  assert_int_equal(orc_rt_Session_getState(S), orc_rt_SessionState_Shutdown);
}

/*---- callManagedCode ----*/

static void noopEntry(void *Ctx) { (void)Ctx; }

static void setTo42(void *Ctx) { *(int *)Ctx = 42; }

static void voidCallRunsBeforeShutdownOnly(void **State) {
  Fixture *F = *State;
  int X = 0;
  assert_true(orc_rt_Session_callManagedCode(F->S, setTo42, &X));
  assert_int_equal(X, 42);
  shutdownAndWait(F->S);
  X = 0;
  assert_false(orc_rt_Session_callManagedCode(F->S, setTo42, &X));
  assert_int_equal(X, 0);
}

static int64_t plusOne(void *Ctx) { return *(int64_t *)Ctx + 1; }

static void valueCallReturnsResultBeforeShutdownOnly(void **State) {
  Fixture *F = *State;
  int64_t N = 41, R = 0;
  assert_true(orc_rt_Session_callManagedCodeWithResult(F->S, plusOne, &R, &N));
  assert_int_equal(R, 42);
  shutdownAndWait(F->S);
  R = -7;
  assert_false(orc_rt_Session_callManagedCodeWithResult(F->S, plusOne, &R, &N));
  assert_int_equal(R, -7); /* untouched when denied */
}

/* An asynchronous function: its continuation is an ordinary argument. */
typedef struct {
  void (*Return)(void *Ctx, int Value);
  void *ReturnCtx;
  int *P;
} AsyncArgs;

static void asyncIncrement(void *Ctx) {
  AsyncArgs *A = Ctx;
  A->Return(A->ReturnCtx, ++*A->P);
}

static void storeResult(void *Ctx, int Value) { *(int *)Ctx = Value; }

static void asyncContinuationRunsInlineBeforeShutdownNotAfter(void **State) {
  Fixture *F = *State;
  int N = 41, Result = 0;
  AsyncArgs A = {storeResult, &Result, &N};
  assert_true(orc_rt_Session_callManagedCode(F->S, asyncIncrement, &A));
  assert_int_equal(Result, 42);
  assert_int_equal(N, 42);
  shutdownAndWait(F->S);
  N = 41;
  Result = 0;
  assert_false(orc_rt_Session_callManagedCode(F->S, asyncIncrement, &A));
  assert_int_equal(Result, 0);
  assert_int_equal(N, 41);
}

/*---- A call in flight delays shutdown ----*/

typedef struct {
  Fixture *F;
  Latch Entered, Leave;
} InFlight;

static void blockInManagedCode(void *Ctx) {
  InFlight *I = Ctx;
  logEvent(I->F, "enter");
  latch_set(&I->Entered);
  latch_wait(&I->Leave);
  logEvent(I->F, "leave");
}

static void *callFromThread(void *Arg) {
  InFlight *I = Arg;
  assert_true(orc_rt_Session_callManagedCode(I->F->S, blockInManagedCode, I));
  return NULL;
}

static void logShutdownService(void *Ctx) { logEvent(Ctx, "onShutdown"); }
static void logDetachService(void *Ctx) { logEvent(Ctx, "onDetach"); }
static const orc_rt_ServiceVTable LoggingService = {logDetachService,
                                                    logShutdownService};

static void callInFlightDelaysOnShutdownUntilItReturns(void **State) {
  Fixture *F = *State;
  assert_null(orc_rt_Session_addService(F->S, &LoggingService, F));
  InFlight I = {.F = F};
  latch_init(&I.Entered);
  latch_init(&I.Leave);
  pthread_t T;
  pthread_create(&T, NULL, callFromThread, &I);
  latch_wait(&I.Entered);

  Named Done = {F, "shutdownCallback"};
  assert_null(orc_rt_Session_shutdown(F->S, logNamed, &Done));
  /* Detached and closed, but the frame is live: no onShutdown, no callback. */
  assert_int_equal(orc_rt_Session_getState(F->S),
                   orc_rt_SessionState_ShuttingDown);
  assert_string_equal(F->Log, "enter,onDetach");
  int X = 0;
  assert_false(orc_rt_Session_callManagedCode(F->S, setTo42, &X));

  latch_set(&I.Leave);
  pthread_join(T, NULL);
  assert_string_equal(F->Log,
                      "enter,onDetach,leave,onShutdown,shutdownCallback");
  assert_int_equal(orc_rt_Session_getState(F->S), orc_rt_SessionState_Shutdown);
  latch_destroy(&I.Entered);
  latch_destroy(&I.Leave);
}

/*---- Nested and deferred entries ----*/

/* The library's exported function, as JIT'd code and function pointers reach
 * it (no parentheses after the name: the header's inline macro stays out). */
static bool (*volatile LibraryEntry)(orc_rt_SessionRef, orc_rt_ManagedFn,
                                     void *) = orc_rt_Session_callManagedCode;

typedef struct {
  orc_rt_SessionRef S;
  bool InnerGranted, SeenCurrent, DeniedInline, DeniedLibrary;
} MixedCtx;

static void mixedInner(void *Ctx) {
  MixedCtx *M = Ctx;
  M->SeenCurrent =
      orc_rt_Session_current() == M->S && orc_rt_Session_isInManagedCode(M->S);
  assert_null(orc_rt_Session_shutdown(M->S, NULL, NULL));
  M->DeniedInline = !orc_rt_Session_callManagedCode(M->S, noopEntry, NULL);
  M->DeniedLibrary = !LibraryEntry(M->S, noopEntry, NULL);
}

static void mixedOuter(void *Ctx) {
  MixedCtx *M = Ctx;
  M->InnerGranted = LibraryEntry(M->S, mixedInner, M);
}

/* The inline entry (orc-rt-c/EntryFastPath.h) and the library's function
 * share one token model: nested in each other, both push frames the other
 * sees, both are denied once shutdown is requested, and the drain completes
 * when the outermost (inline) frame returns. */
static void inlineAndLibraryEntriesShareTheTokenModel(void **State) {
  Fixture *F = *State;
  MixedCtx M = {F->S, false, false, false, false};
  assert_true(orc_rt_Session_callManagedCode(F->S, mixedOuter, &M));
  assert_true(M.InnerGranted);
  assert_true(M.SeenCurrent);
  assert_true(M.DeniedInline);
  assert_true(M.DeniedLibrary);
  assert_null(orc_rt_Session_current());
  assert_int_equal(orc_rt_Session_getState(F->S), orc_rt_SessionState_Shutdown);
  assert_false(orc_rt_Session_callManagedCode(F->S, noopEntry, NULL));
  assert_false(LibraryEntry(F->S, noopEntry, NULL));
}

typedef struct {
  orc_rt_SessionRef S;
  bool NestedBefore, NestedAfter;
} NestCtx;

static void noop(void *Ctx) { (void)Ctx; }

static void outerFrame(void *Ctx) {
  NestCtx *N = Ctx;
  N->NestedBefore = orc_rt_Session_callManagedCode(N->S, noop, NULL);
  assert_null(orc_rt_Session_shutdown(N->S, NULL, NULL));
  N->NestedAfter = orc_rt_Session_callManagedCode(N->S, noop, NULL);
}

static void nestedEntryIsDeniedOnceShutdownRequested(void **State) {
  Fixture *F = *State;
  NestCtx N = {F->S, false, true};
  assert_true(orc_rt_Session_callManagedCode(F->S, outerFrame, &N));
  assert_true(N.NestedBefore);
  assert_false(N.NestedAfter);
  /* The outer frame returned, so the shutdown it requested has completed. */
  assert_int_equal(orc_rt_Session_getState(F->S), orc_rt_SessionState_Shutdown);
}

typedef struct {
  orc_rt_SessionRef S;
  orc_rt_ManagedFn Stashed;
  void *StashedCtx;
  int Resumed, Denied;
  bool WasInManagedCode;
} StashCtx;

static void continuation(void *Ctx) {
  StashCtx *C = Ctx;
  ++C->Resumed;
  C->WasInManagedCode = orc_rt_Session_isInManagedCode(C->S);
}

static void continuationDenied(void *Ctx) { ++((StashCtx *)Ctx)->Denied; }

static void stashContinuation(void *Ctx) {
  StashCtx *C = Ctx;
  C->Stashed = continuation; /* returns without calling it */
}

static void
stashedContinuationResumesUnderFreshTokenBeforeShutdown(void **State) {
  Fixture *F = *State;
  StashCtx C = {.S = F->S};
  assert_true(orc_rt_Session_callManagedCode(F->S, stashContinuation, &C));
  assert_null(orc_rt_Session_dispatchManagedCall(F->S, C.Stashed,
                                                 continuationDenied, &C));
  assert_int_equal(C.Resumed, 0); /* not yet: the queue has not been drained */
  assert_int_equal(orc_rt_TaskQueue_runAll(F->Q), 1);
  assert_int_equal(C.Resumed, 1);
  assert_int_equal(C.Denied, 0);
  assert_true(C.WasInManagedCode);
}

static void stashedContinuationResumedAfterShutdownIsDenied(void **State) {
  Fixture *F = *State;
  StashCtx C = {.S = F->S};
  assert_true(orc_rt_Session_callManagedCode(F->S, stashContinuation, &C));
  assert_null(orc_rt_Session_dispatchManagedCall(F->S, C.Stashed,
                                                 continuationDenied, &C));
  /* The stashed continuation holds no token: shutdown completes without it. */
  shutdownAndWait(F->S);
  assert_int_equal(orc_rt_TaskQueue_runAll(F->Q), 1);
  assert_int_equal(C.Resumed, 0);
  assert_int_equal(C.Denied, 1);
}

static void deferredCallDestroyedUnrunReportsDenial(void **State) {
  Fixture *F = *State;
  StashCtx C = {.S = F->S};
  assert_null(orc_rt_Session_dispatchManagedCall(F->S, continuation,
                                                 continuationDenied, &C));
  orc_rt_TaskQueue_destroy(F->Q);
  F->Q = orc_rt_TaskQueue_create();
  assert_int_equal(C.Resumed, 0);
  assert_int_equal(C.Denied, 1);
}

static void tokenSourceTokensDelayShutdownAndOutliveTheSession(void **State) {
  Fixture *F = *State;
  orc_rt_TokenSourceRef TS = orc_rt_Session_managedCodeTokenSource(F->S);
  assert_true(orc_rt_TokenSource_acquireToken(TS));
  Named Done = {F, "done"};
  assert_null(orc_rt_Session_shutdown(F->S, logNamed, &Done));
  assert_string_equal(F->Log, "");
  assert_false(orc_rt_TokenSource_acquireToken(TS));
  orc_rt_TokenSource_releaseToken(TS);
  assert_string_equal(F->Log, "done");
  orc_rt_Session_destroy(F->S);
  F->S = NULL;
  assert_false(orc_rt_TokenSource_acquireToken(TS)); /* the Session is gone */
  orc_rt_TokenSource_dispose(TS);
  assert_null(orc_rt_Session_create(&F->S, orc_rt_TaskQueue_dispatch, F->Q,
                                    NULL, NULL));
}

/*---- Phases, services and callbacks ----*/

typedef struct {
  Fixture *F;
  char Name[16];
} SvcCtx;

static void svcDetach(void *Ctx) {
  SvcCtx *C = Ctx;
  char Ev[32];
  snprintf(Ev, sizeof(Ev), "%s.detach", C->Name);
  logEvent(C->F, Ev);
}

static void svcShutdown(void *Ctx) {
  SvcCtx *C = Ctx;
  char Ev[32];
  snprintf(Ev, sizeof(Ev), "%s.shutdown", C->Name);
  logEvent(C->F, Ev);
}

static const orc_rt_ServiceVTable NamedService = {svcDetach, svcShutdown};

static void servicesNotifiedNewestFirstDetachBeforeShutdown(void **State) {
  Fixture *F = *State;
  SvcCtx A = {F, "A"}, B = {F, "B"}, C = {F, "C"};
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &A));
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &B));
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &C));
  Named OnDetach = {F, "onDetachCb"}, OnShutdown = {F, "onShutdownCb"};
  assert_null(orc_rt_Session_addOnDetach(F->S, logNamed, &OnDetach));
  assert_null(orc_rt_Session_addOnShutdown(F->S, logNamed, &OnShutdown));
  Named Done = {F, "shutdownCb"};
  /* No explicit detach: shutdown detaches first. */
  assert_null(orc_rt_Session_shutdown(F->S, logNamed, &Done));
  assert_string_equal(F->Log, "C.detach,B.detach,A.detach,onDetachCb,"
                              "C.shutdown,B.shutdown,A.shutdown,onShutdownCb,"
                              "shutdownCb");
}

static void detachLeavesManagedCodeRunnableAndIsNotRepeated(void **State) {
  Fixture *F = *State;
  SvcCtx A = {F, "A"};
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &A));
  Named D1 = {F, "detached1"}, D2 = {F, "detached2"};
  assert_null(orc_rt_Session_detach(F->S, logNamed, &D1));
  assert_null(orc_rt_Session_detach(F->S, logNamed, &D2));
  assert_int_equal(orc_rt_Session_getState(F->S), orc_rt_SessionState_Detached);
  int X = 0;
  assert_true(orc_rt_Session_callManagedCode(F->S, setTo42, &X));
  shutdownAndWait(F->S);
  assert_string_equal(F->Log, "A.detach,detached1,detached2,A.shutdown");
}

/* A service whose onDetach blocks until released. */
typedef struct {
  Fixture *F;
  Named DetachCb;
  pthread_mutex_t M;
  pthread_cond_t C;
  bool Entered, Release;
} BlockingDetach;

static void blockingOnDetach(void *Ctx) {
  BlockingDetach *B = Ctx;
  logEvent(B->F, "onDetach");
  pthread_mutex_lock(&B->M);
  B->Entered = true;
  pthread_cond_broadcast(&B->C);
  while (!B->Release)
    pthread_cond_wait(&B->C, &B->M);
  pthread_mutex_unlock(&B->M);
  logEvent(B->F, "onDetach.end");
}

static void blockingOnShutdown(void *Ctx) {
  logEvent(((BlockingDetach *)Ctx)->F, "onShutdown");
}

static const orc_rt_ServiceVTable BlockingDetachService = {blockingOnDetach,
                                                           blockingOnShutdown};

static void *detachFromThread(void *Arg) {
  BlockingDetach *B = Arg;
  assert_null(orc_rt_Session_detach(B->F->S, logNamed, &B->DetachCb));
  logEvent(B->F, "detach.returned");
  return NULL;
}

/* Detach runs on the thread that requested it; shutdown requested by another
 * thread meanwhile neither waits for it nor starts the drain under it: the
 * detaching thread closes the group when its detach is done, and (no token
 * being out) completes the shutdown before its detach call returns. */
static void shutdownDuringAnotherThreadsDetachCompletesAfterIt(void **State) {
  Fixture *F = *State;
  BlockingDetach B = {F,
                      {F, "detachCb"},
                      PTHREAD_MUTEX_INITIALIZER,
                      PTHREAD_COND_INITIALIZER,
                      false,
                      false};
  assert_null(orc_rt_Session_addService(F->S, &BlockingDetachService, &B));
  pthread_t T;
  assert_int_equal(pthread_create(&T, NULL, detachFromThread, &B), 0);
  pthread_mutex_lock(&B.M);
  while (!B.Entered)
    pthread_cond_wait(&B.C, &B.M);
  pthread_mutex_unlock(&B.M);

  Named Done = {F, "shutdownCb"};
  assert_null(orc_rt_Session_shutdown(F->S, logNamed, &Done)); /* at once */
  pthread_mutex_lock(&F->LogLock);
  assert_string_equal(F->Log, "onDetach");
  pthread_mutex_unlock(&F->LogLock);
  assert_int_not_equal(orc_rt_Session_getState(F->S),
                       orc_rt_SessionState_Shutdown);

  pthread_mutex_lock(&B.M);
  B.Release = true;
  pthread_cond_broadcast(&B.C);
  pthread_mutex_unlock(&B.M);
  assert_int_equal(pthread_join(T, NULL), 0);
  assert_int_equal(orc_rt_Session_getState(F->S), orc_rt_SessionState_Shutdown);
  assert_string_equal(F->Log, "onDetach,onDetach.end,detachCb,onShutdown,"
                              "shutdownCb,detach.returned");
  int X = 0;
  assert_false(orc_rt_Session_callManagedCode(F->S, setTo42, &X));
  pthread_mutex_destroy(&B.M);
  pthread_cond_destroy(&B.C);
}

static void registrationsAfterTheEventRunAtOnce(void **State) {
  Fixture *F = *State;
  assert_null(orc_rt_Session_detach(F->S, NULL, NULL));
  SvcCtx A = {F, "A"};
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &A));
  assert_string_equal(F->Log, "A.detach");
  Named LateDetach = {F, "lateDetach"};
  assert_null(orc_rt_Session_addOnDetach(F->S, logNamed, &LateDetach));
  assert_string_equal(F->Log, "A.detach,lateDetach");

  shutdownAndWait(F->S);
  assert_string_equal(F->Log, "A.detach,lateDetach,A.shutdown");
  SvcCtx B = {F, "B"};
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &B));
  Named LateShutdown = {F, "lateShutdown"}, LateCb = {F, "lateCb"};
  assert_null(orc_rt_Session_addOnShutdown(F->S, logNamed, &LateShutdown));
  assert_null(orc_rt_Session_shutdown(F->S, logNamed, &LateCb));
  assert_string_equal(F->Log, "A.detach,lateDetach,A.shutdown,"
                              "B.detach,B.shutdown,lateShutdown,lateCb");
}

static void
serviceAddedDuringTheDrainGetsDetachAtOnceAndShutdownAfter(void **State) {
  Fixture *F = *State;
  orc_rt_TokenSourceRef TS = orc_rt_Session_managedCodeTokenSource(F->S);
  assert_true(orc_rt_TokenSource_acquireToken(TS)); /* a live frame */
  assert_null(orc_rt_Session_shutdown(F->S, NULL, NULL));
  SvcCtx A = {F, "A"};
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &A));
  assert_string_equal(F->Log, "A.detach"); /* detach is over: at once */
  orc_rt_TokenSource_releaseToken(TS);     /* the drain completes */
  assert_string_equal(F->Log, "A.detach,A.shutdown");
  orc_rt_TokenSource_dispose(TS);
}

static void shutdownIsIdempotentEachCallbackOnce(void **State) {
  Fixture *F = *State;
  SvcCtx A = {F, "A"};
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &A));
  Named C1 = {F, "c1"}, C2 = {F, "c2"};
  assert_null(orc_rt_Session_shutdown(F->S, logNamed, &C1));
  assert_null(orc_rt_Session_shutdown(F->S, logNamed, &C2));
  shutdownAndWait(F->S);
  assert_string_equal(F->Log, "A.detach,A.shutdown,c1,c2");
}

static void destroyShutsDownARunningSession(void **State) {
  Fixture *F = *State;
  SvcCtx A = {F, "A"};
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &A));
  orc_rt_Session_destroy(F->S);
  assert_null(orc_rt_Session_create(&F->S, orc_rt_TaskQueue_dispatch, F->Q,
                                    NULL, NULL));
  assert_string_equal(F->Log, "A.detach,A.shutdown");
}

/*---- Shutdown from inside managed code ----*/

typedef struct {
  Fixture *F;
  orc_rt_ErrorRef WaitErr;
} InsideCtx;

static void requestShutdownFromInside(void *Ctx) {
  InsideCtx *I = Ctx;
  Named Done = {I->F, "shutdownCb"};
  static Named D;
  D = Done;
  assert_null(orc_rt_Session_shutdown(I->F->S, logNamed, &D));
  logEvent(I->F, "frameReturns");
}

static void shutdownFromInsideManagedCodeCompletesAfterTheFrame(void **State) {
  Fixture *F = *State;
  SvcCtx A = {F, "A"};
  assert_null(orc_rt_Session_addService(F->S, &NamedService, &A));
  InsideCtx I = {F, NULL};
  assert_true(
      orc_rt_Session_callManagedCode(F->S, requestShutdownFromInside, &I));
  assert_string_equal(F->Log, "A.detach,frameReturns,A.shutdown,shutdownCb");
  assert_int_equal(orc_rt_Session_getState(F->S), orc_rt_SessionState_Shutdown);
}

static void waitFromInside(void *Ctx) {
  InsideCtx *I = Ctx;
  I->WaitErr = orc_rt_Session_waitForShutdown(I->F->S);
  logEvent(I->F, "waitReturned");
}

static void waitForShutdownFromInsideManagedCodeErrors(void **State) {
  Fixture *F = *State;
  InsideCtx I = {F, NULL};
  assert_true(orc_rt_Session_callManagedCode(F->S, waitFromInside, &I));
  assert_non_null(I.WaitErr);
  assert_non_null(
      strstr(orc_rt_Error_getMessage(I.WaitErr), "inside managed code"));
  orc_rt_Error_consume(I.WaitErr);
  /* It still requested shutdown, which completed when the frame returned. */
  assert_int_equal(orc_rt_Session_getState(F->S), orc_rt_SessionState_Shutdown);
}

/*---- Misc ----*/

typedef struct {
  orc_rt_SessionRef Inner, Outer;
} CurrentCtx;

static void recordCurrent(void *Ctx) {
  ((CurrentCtx *)Ctx)->Inner = orc_rt_Session_current();
}

static void currentNamesTheSessionOfTheInnermostFrame(void **State) {
  Fixture *F = *State;
  assert_null(orc_rt_Session_current());
  assert_false(orc_rt_Session_isInManagedCode(F->S));
  CurrentCtx C = {NULL, NULL};
  assert_true(orc_rt_Session_callManagedCode(F->S, recordCurrent, &C));
  assert_ptr_equal(C.Inner, F->S);
  assert_null(orc_rt_Session_current());
}

static void collectError(orc_rt_ErrorRef Err, void *Ctx) {
  strcpy(Ctx, orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
}

static void reportedErrorsReachTheReporter(void **State) {
  (void)State;
  char Msg[64] = "";
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  assert_null(orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q,
                                    collectError, Msg));
  orc_rt_Session_reportError(S, orc_rt_Error_create("something broke"));
  orc_rt_Session_reportError(S, NULL); /* success: not reported */
  assert_string_equal(Msg, "something broke");
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
}

#define T(Fn) cmocka_unit_test_setup_teardown(Fn, setup, teardown)

int main(void) {
  const struct CMUnitTest Tests[] = {
      T(voidCallRunsBeforeShutdownOnly),
      T(valueCallReturnsResultBeforeShutdownOnly),
      T(asyncContinuationRunsInlineBeforeShutdownNotAfter),
      T(callInFlightDelaysOnShutdownUntilItReturns),
      T(nestedEntryIsDeniedOnceShutdownRequested),
      T(inlineAndLibraryEntriesShareTheTokenModel),
      T(stashedContinuationResumesUnderFreshTokenBeforeShutdown),
      T(stashedContinuationResumedAfterShutdownIsDenied),
      T(deferredCallDestroyedUnrunReportsDenial),
      T(tokenSourceTokensDelayShutdownAndOutliveTheSession),
      T(servicesNotifiedNewestFirstDetachBeforeShutdown),
      T(detachLeavesManagedCodeRunnableAndIsNotRepeated),
      T(shutdownDuringAnotherThreadsDetachCompletesAfterIt),
      T(registrationsAfterTheEventRunAtOnce),
      T(serviceAddedDuringTheDrainGetsDetachAtOnceAndShutdownAfter),
      T(shutdownIsIdempotentEachCallbackOnce),
      T(destroyShutsDownARunningSession),
      T(shutdownFromInsideManagedCodeCompletesAfterTheFrame),
      T(waitForShutdownFromInsideManagedCodeErrors),
      T(currentNamesTheSessionOfTheInnermostFrame),
      cmocka_unit_test(reportedErrorsReachTheReporter),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
