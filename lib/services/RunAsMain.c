/*===- lib/services/RunAsMain.c - run_as_main / run_as_void / run_as_int --===*/
/* The bootstrap wrappers that call JIT'd entry points. They carry no instance:
 * they act on the current services (ExecutorServices.h). Each call enters JIT'd
 * code through orc_rt_internal_ExecutorServices_enterJITCode; a denied entry
 * (shutdown started) is an OOB error, which the controller sees as a failed
 * call. An entry that ends its thread with pthread_exit is answered as a main
 * that does natively (enter, below). */

#include "services/RunAsMain.h"
#include "services/ServiceWire.h"
#include "support/FaultInjection.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t Fn;
  int Argc;
  char **Argv;
  int32_t IntArg;
  int Result;
} EntryCall;

/* The reference calls main(argc, argv) only; a main declared with envp then
 * reads whatever the third argument register holds. Pass an empty
 * environment instead, so such a program sees what it saw under the
 * reference (no entries) deterministically. */
static char *EmptyEnv[] = {NULL};

static void callMain(void *Ctx) {
  EntryCall *C = Ctx;
  C->Result = ((int (*)(int, char **, char **))(uintptr_t)C->Fn)(
      C->Argc, C->Argv, EmptyEnv);
}

static void callVoid(void *Ctx) {
  EntryCall *C = Ctx;
  C->Result = ((int (*)(void))(uintptr_t)C->Fn)();
}

static void callInt(void *Ctx) {
  EntryCall *C = Ctx;
  C->Result = ((int (*)(int))(uintptr_t)C->Fn)(C->IntArg);
}

/* Enters Fn through the Session; on success returns NULL (C->Result set).
 *
 * A main that ends with pthread_exit (or thrd_exit) instead of returning: the
 * exit is caught in the entry's managed frame, after the cleanup handlers and
 * destructors of main's frames have run, so main's token is given back as for
 * a return. Natively the process lives on until its last thread has ended and
 * then exits with status 0, so the call waits (holding only the transport's
 * token for this request) until every thread the program started has ended,
 * then answers 0. If the Session detaches first (the controller has gone)
 * the wait ends there and the answer, 0 too, goes nowhere. */
static const char *enter(EntryCall *C, orc_rt_ManagedFn Fn) {
  orc_rt_ExecutorServicesRef ES = orc_rt_internal_ExecutorServices_current();
  if (!ES)
    return "no executor services";
  if (!orc_rt_ExecutorServices_isCallable(ES, C->Fn))
    return "entry point is not an address of code in this process";
  switch (orc_rt_internal_ExecutorServices_enterJITCode(ES, Fn, C)) {
  case orc_rt_internal_Entry_Returned:
    return NULL;
  case orc_rt_internal_Entry_Denied:
    break;
  case orc_rt_internal_Entry_ExitedThread:
    orc_rt_internal_ExecutorServices_waitForThreads(ES);
    C->Result = 0;
    return NULL;
  }
  return "call into JIT'd code denied: the session is shutting down";
}

static orc_rt_CWrapperFunctionBuffer intResult(uint64_t V, unsigned Bytes) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  if (Bytes == 8)
    orc_rt_SPSWriter_appendU64(&W, V);
  else
    orc_rt_SPSWriter_appendU32(&W, (uint32_t)V);
  return orc_rt_SPSWriter_finish(&W);
}

/* The argv blocks of the mains running now. A main that ends with
 * pthread_exit never comes back to free its block; natively argv outlives
 * main's thread too (other threads may still use it), so the block stays
 * here, reachable, for the rest of the process. Lock guards the list. */
typedef struct ArgvBlock {
  struct ArgvBlock *Next, *Prev;
} ArgvBlock;
static ArgvBlock Live = {&Live, &Live};
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;

static void linkBlock(ArgvBlock *B) {
  pthread_mutex_lock(&Lock);
  B->Next = Live.Next;
  B->Prev = &Live;
  Live.Next->Prev = B;
  Live.Next = B;
  pthread_mutex_unlock(&Lock);
}

static void unlinkAndFree(ArgvBlock *B) {
  pthread_mutex_lock(&Lock);
  B->Prev->Next = B->Next;
  B->Next->Prev = B->Prev;
  pthread_mutex_unlock(&Lock);
  free(B);
}

/* int64(Addr Main, Sequence<String> Args): no program name is prepended. */
static orc_rt_CWrapperFunctionBuffer runAsMain(const char *Data, size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  EntryCall C = {0};
  uint64_t N;
  if (!orc_rt_SPSReader_readAddr(&R, &C.Fn) ||
      !orc_rt_SPSReader_readCount(&R, &N, 8) || N > 0x7ffffffe)
    return orc_rt_internal_badArgs();
  /* One block: the list link, the pointer array, then the NUL-terminated
   * strings. */
  size_t Bytes = sizeof(ArgvBlock) + ((size_t)N + 1) * sizeof(char *);
  orc_rt_SPSReader Probe = R;
  for (uint64_t I = 0; I < N; ++I) {
    const char *S;
    size_t L;
    if (!orc_rt_SPSReader_readBytes(&Probe, &S, &L))
      return orc_rt_internal_badArgs();
    Bytes += L + 1;
  }
  ArgvBlock *Block = orc_rt_internal_malloc(Bytes);
  if (!Block)
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage("out of memory");
  char **Argv = (char **)(Block + 1);
  char *Str = (char *)(Argv + N + 1);
  for (uint64_t I = 0; I < N; ++I) {
    const char *S;
    size_t L;
    orc_rt_SPSReader_readBytes(&R, &S, &L);
    memcpy(Str, S, L);
    Str[L] = 0;
    Argv[I] = Str;
    Str += L + 1;
  }
  Argv[N] = NULL;
  C.Argc = (int)N;
  C.Argv = Argv;
  linkBlock(Block);
  const char *Err = enter(&C, callMain);
  unlinkAndFree(Block);
  if (Err)
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(Err);
  return intResult((uint64_t)(int64_t)C.Result, 8);
}

/* int32(Addr Fn): calls int Fn(void). */
static orc_rt_CWrapperFunctionBuffer runAsVoid(const char *Data, size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  EntryCall C = {0};
  if (!orc_rt_SPSReader_readAddr(&R, &C.Fn))
    return orc_rt_internal_badArgs();
  const char *Err = enter(&C, callVoid);
  if (Err)
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(Err);
  return intResult((uint32_t)C.Result, 4);
}

/* int32(Addr Fn, int32 Arg): calls int Fn(int). */
static orc_rt_CWrapperFunctionBuffer runAsInt(const char *Data, size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  EntryCall C = {0};
  if (!orc_rt_SPSReader_readAddr(&R, &C.Fn) ||
      !orc_rt_SPSReader_readI32(&R, &C.IntArg))
    return orc_rt_internal_badArgs();
  const char *Err = enter(&C, callInt);
  if (Err)
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(Err);
  return intResult((uint32_t)C.Result, 4);
}

/*---- The service ----*/

static const orc_rt_internal_ServiceFn Functions[] = {
    {"__llvm_orc_bootstrap_run_as_main_wrapper", runAsMain},
    {"__llvm_orc_bootstrap_run_as_void_function_wrapper", runAsVoid},
    {"__llvm_orc_bootstrap_run_as_int_function_wrapper", runAsInt},
};

orc_rt_ErrorRef orc_rt_internal_addRunAsMain(orc_rt_ExecutorServicesRef ES) {
  return orc_rt_internal_ExecutorServices_addFunctions(
      ES, Functions, sizeof(Functions) / sizeof(Functions[0]));
}
