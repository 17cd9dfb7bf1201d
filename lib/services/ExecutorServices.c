/*===- lib/services/ExecutorServices.c - The services object --------------===*/
/* Holds what the services added (their functions, instances and interposers),
 * registers itself on the Session as one service whose onShutdown shuts the
 * instances down, keeps the bootstrap-symbol table, and is the single place
 * where the services enter JIT'd code. It knows no service by name: the list
 * is in ServiceList.c. */

#include "services/ExecutorServices.h"
#include "services/SafeCopy.h"
#include "support/FaultInjection.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const orc_rt_internal_ServiceFn *Fns;
  size_t NumFns;
} FnTable;

typedef struct {
  const orc_rt_internal_InstanceVTable *VT;
  void *Instance;
} InstanceEntry;

typedef struct {
  const char *Name;
  void *Fn;
} Interposer;

struct orc_rt_OpaqueExecutorServices {
  orc_rt_SessionRef S;
  atomic_long CodeInUse; /* see beginCodeUse */
  /* The threads JIT'd code started whose body has not ended (threadStarted),
   * and whether the Session has detached. ThreadsLock guards both;
   * ThreadsChanged is broadcast, under ThreadsLock, when LiveThreads drops to
   * zero or Detached is set (what waitForThreads waits for). */
  pthread_mutex_t ThreadsLock;
  pthread_cond_t ThreadsChanged;
  size_t LiveThreads;
  bool Detached;
  /* Filled by the adders while create runs; read-only once ES is published. */
  FnTable *Tables;
  size_t NumTables;
  InstanceEntry *Instances;
  size_t NumInstances;
  Interposer *Interposers;
  size_t NumInterposers;
  pthread_mutex_t SymLock; /* guards Syms and NumSyms */
  orc_rt_BootstrapSymbol *Syms;
  size_t NumSyms;
};

/* The most recently created live services, for the instance-less wrappers.
 * Written at create and cleared at shutdown; read by wrappers that run while
 * the Session is alive (they run under the transport's token), so a plain
 * atomic pointer suffices. */
static _Atomic(orc_rt_ExecutorServicesRef) Current;

orc_rt_ExecutorServicesRef orc_rt_internal_ExecutorServices_current(void) {
  return atomic_load(&Current);
}

static uint64_t addrOf(const void *P) { return (uint64_t)(uintptr_t)P; }
static uint64_t fnAddr(orc_rt_WrapperFunctionFn F) {
  return (uint64_t)(uintptr_t)F;
}

/* Makes room for one more element of *Array (which holds N). */
static bool grow(void *Array, size_t N, size_t ElemSize) {
  void **A = Array;
  void *P = orc_rt_internal_realloc(*A, (N + 1) * ElemSize);
  if (P)
    *A = P;
  return P != NULL;
}

/*---- Bootstrap symbols ----*/

orc_rt_ErrorRef
orc_rt_ExecutorServices_addBootstrapSymbol(orc_rt_ExecutorServicesRef ES,
                                           const char *Name, uint64_t Addr) {
  pthread_mutex_lock(&ES->SymLock);
  for (size_t I = 0; I < ES->NumSyms; ++I)
    if (strcmp(ES->Syms[I].Name, Name) == 0) {
      ES->Syms[I].Addr = Addr;
      pthread_mutex_unlock(&ES->SymLock);
      return NULL;
    }
  char *Copy = orc_rt_internal_strdup(Name);
  if (!Copy || !grow(&ES->Syms, ES->NumSyms, sizeof(*ES->Syms))) {
    free(Copy);
    pthread_mutex_unlock(&ES->SymLock);
    return orc_rt_Error_create("out of memory adding a bootstrap symbol");
  }
  ES->Syms[ES->NumSyms++] = (orc_rt_BootstrapSymbol){Copy, Addr};
  pthread_mutex_unlock(&ES->SymLock);
  return NULL;
}

const orc_rt_BootstrapSymbol *
orc_rt_ExecutorServices_getBootstrapSymbols(orc_rt_ExecutorServicesRef ES,
                                            size_t *NumSymbols) {
  *NumSymbols = ES->NumSyms;
  return ES->Syms;
}

/*---- What the services add ----*/

orc_rt_ErrorRef orc_rt_internal_ExecutorServices_addFunctions(
    orc_rt_ExecutorServicesRef ES, const orc_rt_internal_ServiceFn *Fns,
    size_t NumFns) {
  if (!grow(&ES->Tables, ES->NumTables, sizeof(*ES->Tables)))
    return orc_rt_Error_create("out of memory creating executor services");
  ES->Tables[ES->NumTables++] = (FnTable){Fns, NumFns};
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; !Err && I < NumFns; ++I)
    Err = orc_rt_ExecutorServices_addBootstrapSymbol(ES, Fns[I].Name,
                                                     fnAddr(Fns[I].Fn));
  return Err;
}

orc_rt_ErrorRef orc_rt_internal_ExecutorServices_addInstance(
    orc_rt_ExecutorServicesRef ES, const char *Name,
    const orc_rt_internal_InstanceVTable *VT, void *Instance) {
  orc_rt_ErrorRef Err = NULL;
  if (!grow(&ES->Instances, ES->NumInstances, sizeof(*ES->Instances)))
    Err = orc_rt_Error_create("out of memory creating executor services");
  else if (Name)
    Err =
        orc_rt_ExecutorServices_addBootstrapSymbol(ES, Name, addrOf(Instance));
  if (!Err && VT->Set && !orc_rt_internal_InstanceSet_add(VT->Set, Instance))
    Err = orc_rt_Error_create("out of memory creating executor services");
  if (Err) {
    VT->shutdown(Instance); /* create fails: ES and the symbol go too */
    return Err;
  }
  ES->Instances[ES->NumInstances++] = (InstanceEntry){VT, Instance};
  return NULL;
}

orc_rt_ErrorRef
orc_rt_internal_ExecutorServices_addInterposer(orc_rt_ExecutorServicesRef ES,
                                               const char *Name, void *Fn) {
  if (!grow(&ES->Interposers, ES->NumInterposers, sizeof(*ES->Interposers)))
    return orc_rt_Error_create("out of memory creating executor services");
  ES->Interposers[ES->NumInterposers++] = (Interposer){Name, Fn};
  return NULL;
}

void *
orc_rt_internal_ExecutorServices_findInterposer(orc_rt_ExecutorServicesRef ES,
                                                const char *Name) {
  for (size_t I = 0; I < ES->NumInterposers; ++I)
    if (strcmp(ES->Interposers[I].Name, Name) == 0)
      return ES->Interposers[I].Fn;
  return NULL;
}

/*---- Lifetime ----*/

/* Shuts the instances down, newest first, and frees ES. */
static void shutdownAndFree(orc_rt_ExecutorServicesRef ES) {
  for (size_t I = ES->NumInstances; I-- > 0;) {
    const InstanceEntry *E = &ES->Instances[I];
    if (E->VT->Set)
      orc_rt_internal_InstanceSet_remove(E->VT->Set, E->Instance);
    E->VT->shutdown(E->Instance);
  }
  orc_rt_ExecutorServicesRef Self = ES;
  atomic_compare_exchange_strong(&Current, &Self, NULL);
  for (size_t I = 0; I < ES->NumSyms; ++I)
    free((char *)ES->Syms[I].Name);
  free(ES->Syms);
  free(ES->Tables);
  free(ES->Instances);
  free(ES->Interposers);
  pthread_mutex_destroy(&ES->SymLock);
  pthread_cond_destroy(&ES->ThreadsChanged);
  pthread_mutex_destroy(&ES->ThreadsLock);
  free(ES);
}

/* Session service: the Session detaches (the controller has gone, or shutdown
 * was requested): a main waiting for the program's threads stops waiting, so
 * it gives its token back and the drain (if one is asked for) can finish. */
static void onDetach(void *Ctx) {
  orc_rt_ExecutorServicesRef ES = Ctx;
  pthread_mutex_lock(&ES->ThreadsLock);
  ES->Detached = true;
  pthread_cond_broadcast(&ES->ThreadsChanged);
  pthread_mutex_unlock(&ES->ThreadsLock);
}

/* Session service: runs after the managed-code drain, so no JIT'd code is live
 * and none can start; every instance can go. */
static void onShutdown(void *Ctx) { shutdownAndFree(Ctx); }

static const orc_rt_ServiceVTable ServicesVT = {onDetach, onShutdown};

orc_rt_ErrorRef orc_rt_internal_ExecutorServices_create(
    orc_rt_ExecutorServicesRef *Result, orc_rt_SessionRef S,
    const orc_rt_internal_ServiceAdder *Adders, size_t NumAdders) {
  orc_rt_ExecutorServicesRef ES = orc_rt_internal_calloc(1, sizeof(*ES));
  if (!ES)
    return orc_rt_Error_create("out of memory creating executor services");
  ES->S = S;
  atomic_init(&ES->CodeInUse, 0);
  pthread_mutex_init(&ES->SymLock, NULL);
  pthread_mutex_init(&ES->ThreadsLock, NULL);
  pthread_cond_init(&ES->ThreadsChanged, NULL);
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; !Err && I < NumAdders; ++I)
    Err = Adders[I](ES);
  if (!Err)
    Err = orc_rt_Session_addService(S, &ServicesVT, ES);
  if (Err) {
    shutdownAndFree(ES);
    return Err;
  }
  atomic_store(&Current, ES);
  *Result = ES;
  return NULL;
}

orc_rt_SessionRef
orc_rt_ExecutorServices_getSession(orc_rt_ExecutorServicesRef ES) {
  return ES->S;
}

/*---- Entering JIT'd code ----*/

/* True if Addr is one of the services' own wrapper functions
 * (not JIT'd code). */
static bool isServiceFunction(orc_rt_ExecutorServicesRef ES, uint64_t Addr) {
  for (size_t T = 0; T < ES->NumTables; ++T)
    for (size_t I = 0; I < ES->Tables[T].NumFns; ++I)
      if (fnAddr(ES->Tables[T].Fns[I].Fn) == Addr)
        return true;
  return false;
}

bool orc_rt_internal_CodeRanges_add(orc_rt_internal_CodeRanges *C,
                                    uint64_t Start, uint64_t Size) {
  uint64_t(*N)[2] =
      orc_rt_internal_realloc(C->Ranges, (C->Num + 1) * sizeof(*C->Ranges));
  if (!N)
    return false;
  C->Ranges = N;
  C->Ranges[C->Num][0] = Start;
  C->Ranges[C->Num][1] = Start + Size;
  ++C->Num;
  return true;
}

void orc_rt_internal_CodeRanges_remove(orc_rt_internal_CodeRanges *C,
                                       uint64_t Start, uint64_t Size) {
  for (size_t I = C->Num; I-- > 0;)
    if (C->Ranges[I][0] < Start + Size && Start < C->Ranges[I][1]) {
      C->Ranges[I][0] = C->Ranges[--C->Num][0];
      C->Ranges[I][1] = C->Ranges[C->Num][1];
    }
}

bool orc_rt_internal_CodeRanges_contain(const orc_rt_internal_CodeRanges *C,
                                        uint64_t Addr) {
  for (size_t I = 0; I < C->Num; ++I)
    if (Addr >= C->Ranges[I][0] && Addr < C->Ranges[I][1])
      return true;
  return false;
}

void orc_rt_internal_CodeRanges_clear(orc_rt_internal_CodeRanges *C) {
  free(C->Ranges);
  C->Ranges = NULL;
  C->Num = 0;
}

bool orc_rt_ExecutorServices_isCallable(orc_rt_ExecutorServicesRef ES,
                                        uint64_t Addr) {
  if (Addr == 0)
    return false;
  if (isServiceFunction(ES, Addr))
    return true;
  /* Code these services mapped executable themselves: no need to read the
   * process map (~45 K instructions a call) for the common case, JIT'd code
   * called as an allocation action or a wrapper. */
  for (size_t I = 0; I < ES->NumInstances; ++I) {
    const InstanceEntry *E = &ES->Instances[I];
    if (E->VT->isCode && E->VT->isCode(E->Instance, Addr))
      return true;
  }
  /* Anything else (code in a library, or not code at all): an executable
   * mapping in the process map where it is readable, else a loaded object. */
  bool Known;
  bool Exec = orc_rt_internal_isExecutable(Addr, &Known);
  if (Known)
    return Exec;
  Dl_info Info;
  return dladdr((void *)(uintptr_t)Addr, &Info) != 0;
}

void orc_rt_internal_ExecutorServices_beginCodeUse(
    orc_rt_ExecutorServicesRef ES) {
  atomic_fetch_add(&ES->CodeInUse, 1);
}

void orc_rt_internal_ExecutorServices_endCodeUse(
    orc_rt_ExecutorServicesRef ES) {
  atomic_fetch_sub(&ES->CodeInUse, 1);
}

bool orc_rt_internal_ExecutorServices_isCodeInUse(
    orc_rt_ExecutorServicesRef ES) {
  return atomic_load(&ES->CodeInUse) > 0;
}

/*---- Threads JIT'd code started, and a main that ends with pthread_exit ----*/

void orc_rt_internal_ExecutorServices_threadStarted(
    orc_rt_ExecutorServicesRef ES) {
  pthread_mutex_lock(&ES->ThreadsLock);
  ++ES->LiveThreads;
  pthread_mutex_unlock(&ES->ThreadsLock);
}

void orc_rt_internal_ExecutorServices_threadEnded(
    orc_rt_ExecutorServicesRef ES) {
  pthread_mutex_lock(&ES->ThreadsLock);
  if (--ES->LiveThreads == 0)
    pthread_cond_broadcast(&ES->ThreadsChanged);
  pthread_mutex_unlock(&ES->ThreadsLock);
}

bool orc_rt_internal_ExecutorServices_waitForThreads(
    orc_rt_ExecutorServicesRef ES) {
  pthread_mutex_lock(&ES->ThreadsLock);
  while (ES->LiveThreads && !ES->Detached)
    pthread_cond_wait(&ES->ThreadsChanged, &ES->ThreadsLock);
  bool AllEnded = ES->LiveThreads == 0;
  pthread_mutex_unlock(&ES->ThreadsLock);
  return AllEnded;
}

/* Calls Fn(Ctx); false if Fn ended the thread with pthread_exit or thrd_exit
 * (or it was cancelled). It registers a cancellation buffer, as the C version
 * of pthread_cleanup_push does: glibc's pthread_exit unwinds the stack
 * (running the cleanup handlers and destructors of the frames above) and, on
 * reaching this frame, jumps to the buffer. Instead of continuing the unwind
 * as a cleanup handler would, the frame unregisters the buffer and returns:
 * the thread goes on through the caller's frames. */
bool orc_rt_internal_callCatchingExit(void (*Fn)(void *), void *Ctx) {
  __pthread_unwind_buf_t Buf;
  if (__sigsetjmp_cancel(Buf.__cancel_jmp_buf, 0)) {
    __pthread_unregister_cancel(&Buf);
    return false;
  }
  __pthread_register_cancel(&Buf);
  Fn(Ctx);
  __pthread_unregister_cancel(&Buf);
  return true;
}

typedef struct {
  orc_rt_ManagedFn Fn;
  void *Ctx;
  bool Exited;
} CatchingCall;

static void runCatchingCall(void *P) {
  CatchingCall *C = P;
  C->Exited = !orc_rt_internal_callCatchingExit(C->Fn, C->Ctx);
}

orc_rt_internal_Entry
orc_rt_internal_ExecutorServices_enterJITCode(orc_rt_ExecutorServicesRef ES,
                                              orc_rt_ManagedFn Fn, void *Ctx) {
  /* The exit is caught inside the managed frame, so the token is given back
   * as for a return. */
  CatchingCall C = {Fn, Ctx, false};
  if (!orc_rt_ExecutorServices_callJITCode(ES, runCatchingCall, &C))
    return orc_rt_internal_Entry_Denied;
  return C.Exited ? orc_rt_internal_Entry_ExitedThread
                  : orc_rt_internal_Entry_Returned;
}

orc_rt_MainThreadEnd
orc_rt_ExecutorServices_callAsMainThread(void (*Fn)(void *), void *Ctx) {
  orc_rt_ExecutorServicesRef ES = orc_rt_internal_ExecutorServices_current();
  if (!ES || orc_rt_Session_current() != ES->S) {
    Fn(Ctx);
    return orc_rt_MainThread_Returned;
  }
  if (orc_rt_internal_callCatchingExit(Fn, Ctx))
    return orc_rt_MainThread_Returned;
  /* The caller runs under a token of ES's Session (checked above), so ES
   * stays alive while this waits; the wait ends at detach at the latest. */
  return orc_rt_internal_ExecutorServices_waitForThreads(ES)
             ? orc_rt_MainThread_ThreadsEnded
             : orc_rt_MainThread_Detached;
}

bool orc_rt_ExecutorServices_callJITCode(orc_rt_ExecutorServicesRef ES,
                                         orc_rt_ManagedFn Fn, void *Ctx) {
  /* Counted before the token is taken and uncounted after it is returned,
   * so a release that finds no code in use knows no entry made here is
   * using JIT'd memory. */
  orc_rt_internal_ExecutorServices_beginCodeUse(ES);
  bool Entered = orc_rt_Session_callManagedCode(ES->S, Fn, Ctx);
  orc_rt_internal_ExecutorServices_endCodeUse(ES);
  return Entered;
}

typedef struct {
  orc_rt_WrapperFunctionFn Fn;
  const char *Args;
  size_t ArgSize;
  orc_rt_CWrapperFunctionBuffer Result;
} WrapperCall;

static void runWrapperCall(void *Ctx) {
  WrapperCall *C = Ctx;
  C->Result = C->Fn(C->Args, C->ArgSize);
}

orc_rt_CWrapperFunctionBuffer orc_rt_internal_ExecutorServices_callWrapper(
    orc_rt_ExecutorServicesRef ES, uint64_t Fn, const char *Args,
    size_t ArgSize, orc_rt_internal_CallMode Mode) {
  WrapperCall C = {(orc_rt_WrapperFunctionFn)(uintptr_t)Fn, Args, ArgSize,
                   orc_rt_CWrapperFunctionBuffer_empty()};
  if (isServiceFunction(ES, Fn)) {
    runWrapperCall(&C);
    return C.Result;
  }
  if (!orc_rt_ExecutorServices_isCallable(ES, Fn)) {
    orc_rt_ErrorRef Err = orc_rt_Error_createf(
        "call to 0x%llx: not an address of code in this process",
        (unsigned long long)Fn);
    return orc_rt_CWrapperFunctionBuffer_fromError(Err);
  }
  if (Mode == orc_rt_internal_CallMode_AfterDrain) {
    runWrapperCall(&C);
    return C.Result;
  }
  switch (
      orc_rt_internal_ExecutorServices_enterJITCode(ES, runWrapperCall, &C)) {
  case orc_rt_internal_Entry_Returned:
    return C.Result;
  case orc_rt_internal_Entry_Denied:
    break;
  case orc_rt_internal_Entry_ExitedThread:
    /* The wrapper ran a program's main that ended with pthread_exit (an ORC
     * runtime's run_program that does not catch it itself): as natively, the
     * program lives on until its last thread has ended. The wrapper's result
     * is lost with its frames, so the answer is an error. */
    orc_rt_internal_ExecutorServices_waitForThreads(ES);
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(
        "the JIT'd wrapper function ended its thread with pthread_exit: no "
        "result");
  }
  return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(
      "call into JIT'd code denied: the session is shutting down");
}

orc_rt_CWrapperFunctionBuffer
orc_rt_ExecutorServices_callWrapper(orc_rt_ExecutorServicesRef ES, uint64_t Fn,
                                    const char *ArgData, size_t ArgSize) {
  return orc_rt_internal_ExecutorServices_callWrapper(
      ES, Fn, ArgData, ArgSize, orc_rt_internal_CallMode_UnderToken);
}
