/*===- unittests/ExecutorServicesTest.c - orc-rt-c/ExecutorServices.h -----===*/
/* The memory manager's finalize / rollback / deinitialize / release rules, and
 * the Session rule that a release arriving while JIT'd code is live is deferred
 * until the shutdown drain. Alloc actions are wrapper functions of this test
 * that log their id. A main that ends with pthread_exit is waited for until the
 * program's last thread has ended, or until the Session detaches. */

#include "TestUtil.h"

#include "orc-rt-c/ExecutorServices.h"
#include "orc-rt-c/SPS.h"

#include "services/EHFrame.h"
#include "support/FaultInjection.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char Log[256];

static void logId(unsigned Id) {
  char B[16];
  snprintf(B, sizeof(B), "%s%u", Log[0] ? " " : "", Id);
  strncat(Log, B, sizeof(Log) - strlen(Log) - 1);
}

/* Error(u8 Id): logs Id; fails if Id >= 0x80. */
static orc_rt_CWrapperFunctionBuffer action(const char *Data, size_t Size) {
  if (Size != 1)
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage("bad action args");
  unsigned Id = (unsigned char)Data[0];
  logId(Id);
  return orc_rt_SPS_errorResult(
      Id >= 0x80 ? orc_rt_Error_createf("action %u failed", Id) : NULL);
}

typedef struct {
  orc_rt_TaskQueueRef Q;
  orc_rt_SessionRef S;
  orc_rt_ExecutorServicesRef ES;
} Fixture;

static int setUp(void **State) {
  static Fixture F;
  Log[0] = 0;
  F.Q = orc_rt_TaskQueue_create();
  assert_null(
      orc_rt_Session_create(&F.S, orc_rt_TaskQueue_dispatch, F.Q, NULL, NULL));
  assert_null(orc_rt_ExecutorServices_create(&F.ES, F.S));
  *State = &F;
  return 0;
}

static int tearDown(void **State) {
  Fixture *F = *State;
  if (F->S)
    orc_rt_Session_destroy(F->S);
  orc_rt_TaskQueue_destroy(F->Q);
  return 0;
}

static uint64_t sym(Fixture *F, const char *Name) {
  size_t N;
  const orc_rt_BootstrapSymbol *Syms =
      orc_rt_ExecutorServices_getBootstrapSymbols(F->ES, &N);
  for (size_t I = 0; I < N; ++I)
    if (strcmp(Syms[I].Name, Name) == 0)
      return Syms[I].Addr;
  fail_msg("no bootstrap symbol %s", Name);
  return 0;
}

#define MM "__llvm_orc_SimpleExecutorMemoryManager_"

static orc_rt_CWrapperFunctionBuffer call(Fixture *F, const char *Name,
                                          orc_rt_SPSWriter *W) {
  orc_rt_CWrapperFunctionBuffer B = orc_rt_ExecutorServices_callWrapper(
      F->ES, sym(F, Name), W->Data, W->Size);
  orc_rt_SPSWriter_dispose(W);
  return B;
}

static uint64_t reserve(Fixture *F, uint64_t Size) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, sym(F, MM "Instance"));
  orc_rt_SPSWriter_appendU64(&W, Size);
  orc_rt_CWrapperFunctionBuffer B = call(F, MM "reserve_wrapper", &W);
  assert_int_equal(B.Size, 9);
  uint64_t Base;
  memcpy(&Base, orc_rt_CWrapperFunctionBuffer_data(&B) + 1, 8);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
  return Base;
}

/* initialize(one RW segment at Addr with "abc", actions (Fin[i], Dealloc[i])).
 * Returns NULL and the key, or the error. */
static orc_rt_ErrorRef initialize(Fixture *F, uint64_t Addr,
                                  const unsigned char *Fin,
                                  const unsigned char *Dealloc,
                                  size_t NumActions, uint64_t *Key) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, sym(F, MM "Instance"));
  orc_rt_SPSWriter_appendU64(&W, 1);
  orc_rt_SPSWriter_appendU8(&W, 3);
  orc_rt_SPSWriter_appendAddr(&W, Addr);
  orc_rt_SPSWriter_appendU64(&W, 0x1000);
  orc_rt_SPSWriter_appendBytes(&W, "abc", 3);
  orc_rt_SPSWriter_appendU64(&W, NumActions);
  for (size_t I = 0; I < NumActions; ++I) {
    orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)action);
    orc_rt_SPSWriter_appendBytes(&W, (const char *)&Fin[I], 1);
    orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)action);
    orc_rt_SPSWriter_appendBytes(&W, (const char *)&Dealloc[I], 1);
  }
  orc_rt_CWrapperFunctionBuffer B = call(F, MM "initialize_wrapper", &W);
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, orc_rt_CWrapperFunctionBuffer_data(&B), B.Size);
  orc_rt_ErrorRef Err = NULL;
  assert_true(orc_rt_SPSReader_readExpectedHead(&R, &Err));
  if (!Err)
    assert_true(orc_rt_SPSReader_readAddr(&R, Key));
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
  return Err;
}

static orc_rt_ErrorRef addrsCall(Fixture *F, const char *Name, uint64_t Addr) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, sym(F, MM "Instance"));
  orc_rt_SPSWriter_appendU64(&W, 1);
  orc_rt_SPSWriter_appendAddr(&W, Addr);
  orc_rt_CWrapperFunctionBuffer B = call(F, Name, &W);
  return orc_rt_SPS_takeErrorResult(&B);
}

static void initializeRunsActionsAndReleaseRunsDeallocsInReverse(void **State) {
  Fixture *F = *State;
  uint64_t Base = reserve(F, 0x2000), Key = 0;
  const unsigned char Fin[] = {1, 2}, Dealloc[] = {11, 12};
  assert_null(initialize(F, Base, Fin, Dealloc, 2, &Key));
  assert_true(Key == Base);
  assert_string_equal(Log, "1 2");
  const char *Mem = (const char *)(uintptr_t)Base;
  assert_memory_equal(Mem, "abc\0\0", 5);
  assert_null(addrsCall(F, MM "release_wrapper", Base));
  assert_string_equal(Log, "1 2 12 11");
  orc_rt_ErrorRef E = addrsCall(F, MM "release_wrapper", Base);
  char Want[128];
  snprintf(Want, sizeof(Want),
           "In release, 0x%llx is not part of any reserved address range",
           (unsigned long long)Base);
  assert_string_equal(orc_rt_Error_getMessage(E), Want);
  orc_rt_Error_consume(E);
}

static void failingActionRollsBackEarlierOnes(void **State) {
  Fixture *F = *State;
  uint64_t Base = reserve(F, 0x1000), Key = 0;
  const unsigned char Fin[] = {1, 0x82, 3}, Dealloc[] = {11, 12, 13};
  orc_rt_ErrorRef E = initialize(F, Base, Fin, Dealloc, 3, &Key);
  assert_non_null(E);
  assert_string_equal(orc_rt_Error_getMessage(E), "action 130 failed");
  orc_rt_Error_consume(E);
  assert_string_equal(Log, "1 130 11");
  /* The range is free again and writable. */
  const unsigned char Ok[] = {4};
  assert_null(initialize(F, Base, Ok, Dealloc, 1, &Key));
}

static void overlappingInitializeIsRejected(void **State) {
  Fixture *F = *State;
  uint64_t Base = reserve(F, 0x2000), Key;
  assert_null(initialize(F, Base, NULL, NULL, 0, &Key));
  orc_rt_ErrorRef E = initialize(F, Base, NULL, NULL, 0, &Key);
  assert_non_null(
      strstr(orc_rt_Error_getMessage(E), "overlaps previous region"));
  orc_rt_Error_consume(E);
}

static void deinitializeRunsDeallocsOnce(void **State) {
  Fixture *F = *State;
  uint64_t Base = reserve(F, 0x1000), Key;
  const unsigned char Fin[] = {1}, Dealloc[] = {11};
  assert_null(initialize(F, Base, Fin, Dealloc, 1, &Key));
  assert_null(addrsCall(F, MM "deinitialize_wrapper", Key));
  assert_null(addrsCall(F, MM "deinitialize_wrapper", Key));
  assert_string_equal(Log, "1 11");
  orc_rt_ErrorRef E = addrsCall(F, MM "deinitialize_wrapper", Key + 8);
  assert_non_null(
      strstr(orc_rt_Error_getMessage(E),
             "does not correspond to the start of any initialized region"));
  orc_rt_Error_consume(E);
}

typedef struct {
  Fixture *F;
  uint64_t Base;
  orc_rt_ErrorRef Err;
} ReleaseInside;

static void releaseFromManagedCode(void *Ctx) {
  ReleaseInside *RI = Ctx;
  RI->Err = addrsCall(RI->F, MM "release_wrapper", RI->Base);
  /* Deferred: no dealloc action yet, and the memory is still there. */
  assert_string_equal(Log, "1");
  assert_memory_equal((const char *)(uintptr_t)RI->Base, "abc", 3);
}

static void releaseWhileJITCodeIsLiveIsDeferredUntilShutdown(void **State) {
  Fixture *F = *State;
  uint64_t Base = reserve(F, 0x1000), Key;
  const unsigned char Fin[] = {1}, Dealloc[] = {11};
  assert_null(initialize(F, Base, Fin, Dealloc, 1, &Key));
  ReleaseInside RI = {F, Base, NULL};
  assert_true(
      orc_rt_ExecutorServices_callJITCode(F->ES, releaseFromManagedCode, &RI));
  assert_null(RI.Err);
  assert_string_equal(Log, "1");
  orc_rt_Session_destroy(
      F->S); /* drain, then onShutdown releases the deferred slab */
  F->S = NULL;
  assert_string_equal(Log, "1 11");
}

static void shutdownReleasesRemainingSlabs(void **State) {
  Fixture *F = *State;
  uint64_t Base = reserve(F, 0x1000), Key;
  const unsigned char Fin[] = {5}, Dealloc[] = {15};
  assert_null(initialize(F, Base, Fin, Dealloc, 1, &Key));
  orc_rt_Session_destroy(F->S);
  F->S = NULL;
  assert_string_equal(Log, "5 15");
}

/* Inside managed code (so the services outlive the call), shutdown closes the
 * group: a new entry into JIT'd code is denied and reported as an OOB error. */
static void shutdownThenEnter(void *Ctx) {
  Fixture *F = Ctx;
  assert_null(orc_rt_Session_shutdown(F->S, NULL, NULL));
  orc_rt_CWrapperFunctionBuffer B = orc_rt_ExecutorServices_callWrapper(
      F->ES, (uint64_t)(uintptr_t)action, "\x01", 1);
  assert_non_null(orc_rt_CWrapperFunctionBuffer_getOutOfBandError(&B));
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
}

static void deniedEntryIsAnError(void **State) {
  Fixture *F = *State;
  assert_true(orc_rt_Session_callManagedCode(F->S, shutdownThenEnter, F));
  assert_string_equal(Log, "");
}

/* reserve(Inst, 0x1000) through F's services: the OOB error message, or NULL
 * if it succeeded. */
static const char *reserveOn(Fixture *F, uint64_t Inst, char *Msg,
                             size_t MsgSize) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, Inst);
  orc_rt_SPSWriter_appendU64(&W, 0x1000);
  orc_rt_CWrapperFunctionBuffer B = call(F, MM "reserve_wrapper", &W);
  const char *E = orc_rt_CWrapperFunctionBuffer_getOutOfBandError(&B);
  if (E)
    snprintf(Msg, MsgSize, "%s", E);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
  return E ? Msg : NULL;
}

/* A request is served by the live instance it names, whichever services it
 * belongs to; an address that names no live instance (never one, or one whose
 * Session has shut down) is rejected as undecodable arguments. */
static void requestIsServedByTheLiveInstanceItNames(void **State) {
  Fixture *F = *State;
  char Msg[128];
  uint64_t Own = sym(F, MM "Instance");
  assert_null(reserveOn(F, Own, Msg, sizeof(Msg)));
  assert_string_equal(reserveOn(F, Own + 8, Msg, sizeof(Msg)),
                      "Could not deserialize arguments for wrapper function "
                      "call");

  Fixture G = {orc_rt_TaskQueue_create(), NULL, NULL};
  assert_null(
      orc_rt_Session_create(&G.S, orc_rt_TaskQueue_dispatch, G.Q, NULL, NULL));
  assert_null(orc_rt_ExecutorServices_create(&G.ES, G.S));
  uint64_t Other = sym(&G, MM "Instance");
  assert_int_not_equal(Other, Own);
  assert_null(reserveOn(F, Own, Msg, sizeof(Msg)));   /* the older one */
  assert_null(reserveOn(F, Other, Msg, sizeof(Msg))); /* the newer one */
  orc_rt_Session_destroy(G.S);
  orc_rt_TaskQueue_destroy(G.Q);
  assert_non_null(reserveOn(F, Other, Msg, sizeof(Msg)));
  assert_null(reserveOn(F, Own, Msg, sizeof(Msg)));
}

/*---- A main that ends with pthread_exit (callAsMainThread) ----*/

typedef struct {
  Fixture *F;
  Latch MainGone; /* set by main's cleanup handler, as main's thread unwinds */
  Latch Release;  /* the worker ends once this is set */
  atomic_bool WorkerDone;
  pthread_t Worker;
  orc_rt_MainThreadEnd End;
} MainRun;

static void *worker(void *P) {
  MainRun *M = P;
  latch_wait(&M->MainGone);
  latch_wait(&M->Release);
  atomic_store(&M->WorkerDone, true);
  return NULL;
}

static void mainGone(void *P) { latch_set(&((MainRun *)P)->MainGone); }

/* A program's main: starts a thread (one of the program's, as JIT'd code's
 * pthread_create makes it) and ends with pthread_exit. */
static void programMain(void *P) {
  MainRun *M = P;
  assert_int_equal(
      orc_rt_ExecutorServices_pthread_create(&M->Worker, NULL, worker, M), 0);
  pthread_cleanup_push(mainGone, M);
  pthread_exit(NULL);
  pthread_cleanup_pop(0);
}

static void runProgram(void *P) {
  MainRun *M = P;
  M->End = orc_rt_ExecutorServices_callAsMainThread(programMain, M);
}

static void initMainRun(MainRun *M, Fixture *F) {
  M->F = F;
  latch_init(&M->MainGone);
  latch_init(&M->Release);
  atomic_init(&M->WorkerDone, false);
  M->End = orc_rt_MainThread_Returned;
}

/* Sets M->Release a little after main has gone. The delay is not needed for
 * the right answer; it gives a call that does not wait time to return first. */
static void *releaseLater(void *P) {
  MainRun *M = P;
  latch_wait(&M->MainGone);
  usleep(50000);
  latch_set(&M->Release);
  return NULL;
}

/* The call returns only once the program's thread has ended, as natively the
 * process lives on until its last thread has ended. */
static void mainThatExitsReturnsAfterTheProgramsLastThread(void **State) {
  Fixture *F = *State;
  MainRun M;
  initMainRun(&M, F);
  pthread_t Releaser;
  assert_int_equal(pthread_create(&Releaser, NULL, releaseLater, &M), 0);
  assert_true(orc_rt_ExecutorServices_callJITCode(F->ES, runProgram, &M));
  assert_int_equal(M.End, orc_rt_MainThread_ThreadsEnded);
  assert_true(atomic_load(&M.WorkerDone));
  pthread_join(Releaser, NULL);
  pthread_join(M.Worker, NULL);
}

static void *detachLater(void *P) {
  MainRun *M = P;
  latch_wait(&M->MainGone);
  assert_null(orc_rt_Session_detach(M->F->S, NULL, NULL));
  return NULL;
}

/* The Session detaching (the controller has gone) ends the wait although the
 * program's thread still runs: the caller must not keep its token for a wait
 * that might never end. */
static void detachEndsTheWaitForTheProgramsThreads(void **State) {
  Fixture *F = *State;
  MainRun M;
  initMainRun(&M, F);
  pthread_t Detacher;
  assert_int_equal(pthread_create(&Detacher, NULL, detachLater, &M), 0);
  assert_true(orc_rt_ExecutorServices_callJITCode(F->ES, runProgram, &M));
  assert_int_equal(M.End, orc_rt_MainThread_Detached);
  assert_false(atomic_load(&M.WorkerDone));
  latch_set(&M.Release);
  pthread_join(Detacher, NULL);
  pthread_join(M.Worker, NULL);
  assert_true(atomic_load(&M.WorkerDone));
}

static void returns42(void *P) { *(int *)P = 42; }

/* A main that returns; and outside managed code Fn is simply called. */
static void mainThatReturnsOrIsOutsideManagedCodeIsJustCalled(void **State) {
  (void)State;
  int R = 0;
  assert_int_equal(orc_rt_ExecutorServices_callAsMainThread(returns42, &R),
                   orc_rt_MainThread_Returned);
  assert_int_equal(R, 42);
}

/*---- Injected faults (lib/support/FaultInjection.h) ----*/

static void disarmAll(void) {
  for (int K = 0; K != orc_rt_internal_Fault_NumKinds; ++K)
    orc_rt_internal_FaultInjector_arm((orc_rt_internal_FaultKind)K, -1, false);
}

static void mmapFailureInReserveIsAnError(void **State) {
  Fixture *F = *State;
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, sym(F, MM "Instance"));
  orc_rt_SPSWriter_appendU64(&W, 0x1000);
  orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Map, 0, false);
  orc_rt_CWrapperFunctionBuffer B = call(F, MM "reserve_wrapper", &W);
  disarmAll();
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, orc_rt_CWrapperFunctionBuffer_data(&B), B.Size);
  orc_rt_ErrorRef Err = NULL;
  assert_true(orc_rt_SPSReader_readExpectedHead(&R, &Err));
  assert_non_null(Err);
  assert_string_equal(orc_rt_Error_getMessage(Err), strerror(ENOMEM));
  orc_rt_Error_consume(Err);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
  assert_int_not_equal(reserve(F, 0x1000), 0); /* the service still works */
}

static void mprotectFailureInInitializeIsAnErrorAndFreesTheRange(void **State) {
  Fixture *F = *State;
  uint64_t Base = reserve(F, 0x1000), Key = 0;
  const unsigned char Fin[] = {5}, Dealloc[] = {15};
  orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Map, 0, false);
  orc_rt_ErrorRef E = initialize(F, Base, Fin, Dealloc, 1, &Key);
  disarmAll();
  assert_non_null(E);
  assert_string_equal(orc_rt_Error_getMessage(E), strerror(EACCES));
  orc_rt_Error_consume(E);
  assert_string_equal(Log, ""); /* no finalize action ran */
  assert_null(initialize(F, Base, Fin, Dealloc, 1, &Key)); /* range is free */
  assert_string_equal(Log, "5");
}

static void dlopenFailureIsAnError(void **State) {
  Fixture *F = *State;
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(
      &W, sym(F, "__llvm_orc_SimpleExecutorDylibManager_Instance"));
  orc_rt_SPSWriter_appendBytes(&W, "/nonexistent/libnothing.so", 26);
  orc_rt_SPSWriter_appendU64(&W, 0);
  orc_rt_CWrapperFunctionBuffer B =
      call(F, "__llvm_orc_SimpleExecutorDylibManager_open_wrapper", &W);
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, orc_rt_CWrapperFunctionBuffer_data(&B), B.Size);
  orc_rt_ErrorRef Err = NULL;
  assert_true(orc_rt_SPSReader_readExpectedHead(&R, &Err));
  assert_non_null(Err);
  assert_non_null(
      strstr(orc_rt_Error_getMessage(Err), "cannot open shared object file"));
  orc_rt_Error_consume(Err);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
}

/* Every allocation of a services lifecycle (create, reserve, initialize with
 * actions, release, shutdown) failed in turn: each failure is an error result
 * or a failed create, never a crash, and the ASan build checks for leaks. */
static void servicesSurviveEachAllocationFailure(void **State) {
  (void)State;
  for (long N = 0;; ++N) {
    Log[0] = 0;
    orc_rt_internal_FaultInjector_arm(orc_rt_internal_Fault_Alloc, N, false);
    Fixture F = {orc_rt_TaskQueue_create(), NULL, NULL};
    orc_rt_ErrorRef E =
        F.Q ? orc_rt_Session_create(&F.S, orc_rt_TaskQueue_dispatch, F.Q, NULL,
                                    NULL)
            : orc_rt_Error_create("no queue");
    if (!E && (E = orc_rt_ExecutorServices_create(&F.ES, F.S)) == NULL) {
      orc_rt_SPSWriter W;
      orc_rt_SPSWriter_init(&W);
      orc_rt_SPSWriter_appendAddr(&W, sym(&F, MM "Instance"));
      orc_rt_SPSWriter_appendU64(&W, 0x1000);
      orc_rt_CWrapperFunctionBuffer B = call(&F, MM "reserve_wrapper", &W);
      orc_rt_SPSReader R;
      orc_rt_SPSReader_init(&R, orc_rt_CWrapperFunctionBuffer_data(&B), B.Size);
      orc_rt_ErrorRef RE = NULL;
      uint64_t Base = 0, Key;
      if (orc_rt_SPSReader_readExpectedHead(&R, &RE) && !RE)
        orc_rt_SPSReader_readAddr(&R, &Base);
      orc_rt_Error_consume(RE);
      orc_rt_CWrapperFunctionBuffer_dispose(&B);
      if (Base) {
        const unsigned char Fin[] = {1, 2}, Dealloc[] = {11, 12};
        orc_rt_SPSWriter_init(&W);
        orc_rt_SPSWriter_appendAddr(&W, sym(&F, MM "Instance"));
        orc_rt_SPSWriter_appendU64(&W, 1);
        orc_rt_SPSWriter_appendU8(&W, 3);
        orc_rt_SPSWriter_appendAddr(&W, Base);
        orc_rt_SPSWriter_appendU64(&W, 0x1000);
        orc_rt_SPSWriter_appendBytes(&W, "abc", 3);
        orc_rt_SPSWriter_appendU64(&W, 2);
        for (size_t I = 0; I < 2; ++I) {
          orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)action);
          orc_rt_SPSWriter_appendBytes(&W, (const char *)&Fin[I], 1);
          orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)action);
          orc_rt_SPSWriter_appendBytes(&W, (const char *)&Dealloc[I], 1);
        }
        B = call(&F, MM "initialize_wrapper", &W);
        orc_rt_CWrapperFunctionBuffer_dispose(&B);
        (void)Key;
        orc_rt_Error_consume(addrsCall(&F, MM "release_wrapper", Base));
      }
    }
    orc_rt_Error_consume(E);
    if (F.S)
      orc_rt_Session_destroy(F.S);
    orc_rt_TaskQueue_destroy(F.Q);
    long Calls =
        orc_rt_internal_FaultInjector_calls(orc_rt_internal_Fault_Alloc);
    disarmAll();
    /* Every finalize action that ran had its dealloc run too. */
    if (strstr(Log, "1") && !strstr(Log, "11"))
      fail_msg("allocation %ld failed: dealloc actions missing, log \"%s\"", N,
               Log);
    if (Calls <= N)
      break;
  }
}

/* The EH-frame alloc actions on [Start, End): the error, or NULL. */
static orc_rt_ErrorRef frameCall(bool Register, uint64_t Start, uint64_t End) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, Start);
  orc_rt_SPSWriter_appendAddr(&W, End);
  orc_rt_CWrapperFunctionBuffer A = orc_rt_SPSWriter_finish(&W);
  const char *D = orc_rt_CWrapperFunctionBuffer_data(&A);
  orc_rt_CWrapperFunctionBuffer B =
      Register ? llvm_orc_registerEHFrameSectionAllocAction(D, A.Size)
               : llvm_orc_deregisterEHFrameSectionAllocAction(D, A.Size);
  orc_rt_CWrapperFunctionBuffer_dispose(&A);
  return orc_rt_SPS_takeErrorResult(&B);
}

static void expectUnreadable(bool Register, uint64_t Start, uint64_t End) {
  orc_rt_ErrorRef E = frameCall(Register, Start, End);
  assert_non_null(E);
  if (!strstr(orc_rt_Error_getMessage(E), "is not readable"))
    fail_msg("[0x%llx, 0x%llx): %s", (unsigned long long)Start,
             (unsigned long long)End, orc_rt_Error_getMessage(E));
  orc_rt_Error_consume(E);
}

/* A controller-given EH-frame range is registered only if every page of it is
 * readable: one unreadable page anywhere (past the first 64 pages too, where
 * the probe starts a second batch; or holding just the last byte) is an error
 * naming the range, never a fault in the unwinder. A readable range is
 * registered (an empty frame list: a zero terminator first) and deregistered. */
static void ehFrameRangeWithAnUnreadablePageIsAnError(void **State) {
  (void)State;
  enum { Pages = 130 };
  size_t Pg = 4096;
  char *P = mmap(NULL, Pages * Pg, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(P != MAP_FAILED);
  uint64_t Base = (uint64_t)(uintptr_t)P, Top = Base + Pages * Pg;
  assert_null(frameCall(true, Base, Top));
  assert_null(frameCall(false, Base, Top));
  assert_null(frameCall(true, 0, 0)); /* nothing to register */

  const size_t Holes[] = {0, 1, 63, 64, 65, 100, Pages - 1};
  for (size_t I = 0; I < sizeof(Holes) / sizeof(Holes[0]); ++I) {
    char *H = P + Holes[I] * Pg;
    assert_int_equal(mprotect(H, Pg, PROT_NONE), 0);
    expectUnreadable(true, Base, Top);
    expectUnreadable(false, Base, Top);
    /* A range ending with the hole's first byte (from mid-page before it). */
    if (Holes[I])
      expectUnreadable(true, Base + 100, (uint64_t)(uintptr_t)H + 1);
    assert_int_equal(mprotect(H, Pg, PROT_READ | PROT_WRITE), 0);
  }
  assert_null(frameCall(true, Base + 8, Top - 8));
  assert_null(frameCall(false, Base + 8, Top - 8));
  assert_int_equal(munmap(P, Pages * Pg), 0);
  expectUnreadable(true, Base, Base + 16);        /* unmapped */
  orc_rt_ErrorRef E = frameCall(true, Top, Base); /* End before Start */
  assert_non_null(E);
  orc_rt_Error_consume(E);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test_setup_teardown(
          initializeRunsActionsAndReleaseRunsDeallocsInReverse, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(failingActionRollsBackEarlierOnes, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(overlappingInitializeIsRejected, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(deinitializeRunsDeallocsOnce, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(
          releaseWhileJITCodeIsLiveIsDeferredUntilShutdown, setUp, tearDown),
      cmocka_unit_test_setup_teardown(shutdownReleasesRemainingSlabs, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(deniedEntryIsAnError, setUp, tearDown),
      cmocka_unit_test_setup_teardown(requestIsServedByTheLiveInstanceItNames,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(mmapFailureInReserveIsAnError, setUp,
                                      tearDown),
      cmocka_unit_test_setup_teardown(
          mprotectFailureInInitializeIsAnErrorAndFreesTheRange, setUp,
          tearDown),
      cmocka_unit_test_setup_teardown(dlopenFailureIsAnError, setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          mainThatExitsReturnsAfterTheProgramsLastThread, setUp, tearDown),
      cmocka_unit_test_setup_teardown(detachEndsTheWaitForTheProgramsThreads,
                                      setUp, tearDown),
      cmocka_unit_test_setup_teardown(
          mainThatReturnsOrIsOutsideManagedCodeIsJustCalled, setUp, tearDown),
      cmocka_unit_test(servicesSurviveEachAllocationFailure),
      cmocka_unit_test(ehFrameRangeWithAnUnreadablePageIsAnError),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
