/*===- lib/platform/Dlfcn.c - dlopen family and run-program entry points --===*/
/*
 * The controller aliases __orc_rt_jit_dl{open,sym,close,error,update} and
 * __orc_rt_run_program to the __orc_rt_elfnix_* functions here, for JIT'd
 * code and for the SPS wrappers its clients call:
 *
 *   __orc_rt_jit_dlopen_wrapper(SPSString Path, int32 Mode) -> SPSExecutorAddr
 *   __orc_rt_jit_dlupdate_wrapper(SPSExecutorAddr H, int32 Mode) -> int32
 *   __orc_rt_jit_dlclose_wrapper(SPSExecutorAddr H) -> int32
 *   __orc_rt_jit_dlerror_wrapper() -> SPSString
 *   __orc_rt_run_program_wrapper(SPSString JITDylib, SPSString Entry,
 *                                SPSSequence<SPSString> Args) -> int64
 *
 * (llvm-jitlink runs programs with __orc_rt_run_program_wrapper; LLJIT, as in
 * lli -lljit-platform=ExecutorNative, initializes with dlopen_wrapper /
 * dlupdate_wrapper and deinitializes with dlclose_wrapper.) A JITDylib handle
 * is its header address. dlerror() text is per thread, as in glibc.
 */

#include "AtExit.h"
#include "JITDylibs.h"

#include "orc-rt-c/ExecutorServices.h"
#include "orc-rt-c/SPS.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Records Err's message as this thread's dlerror() text; consumes Err. */
static void setDLError(orc_rt_ErrorRef Err) {
  pthread_key_t K = orc_rt_platform_TheState.DLErrorKey;
  free(pthread_getspecific(K));
  char *Msg = orc_rt_Error_toString(Err);
  pthread_setspecific(K, Msg);
}

ORC_RT_PLATFORM_API void __orc_rt_log_error_to_stderr(const char *Msg) {
  fprintf(stderr, "orc-rt-c platform error: %s\n", Msg ? Msg : "(null)");
}

/* The last failure's message on this thread ("" if none). */
ORC_RT_PLATFORM_API const char *__orc_rt_elfnix_jit_dlerror(void) {
  static const char NoMessage[] = "";
  pthread_key_t K = orc_rt_platform_TheState.DLErrorKey;
  char *Msg = pthread_getspecific(K);
  return Msg ? Msg : NoMessage;
}

static bool check(orc_rt_ErrorRef Err) {
  if (!Err)
    return true;
  setDLError(Err);
  return false;
}

ORC_RT_PLATFORM_API void *__orc_rt_elfnix_jit_dlopen(const char *Path,
                                                     int Mode) {
  (void)Mode; /* every JITDylib is resolved by the controller, lazily or not */
  void *H = NULL;
  if (!Path) {
    check(orc_rt_Error_create("dlopen(NULL) is not supported for JITDylibs"));
    return NULL;
  }
  return check(orc_rt_platform_open(Path, &H)) ? H : NULL;
}

ORC_RT_PLATFORM_API int __orc_rt_elfnix_jit_dlupdate(void *Handle, int Mode) {
  (void)Mode;
  return check(orc_rt_platform_update(Handle)) ? 0 : -1;
}

ORC_RT_PLATFORM_API int __orc_rt_elfnix_jit_dlclose(void *Handle) {
  return check(orc_rt_platform_close(Handle)) ? 0 : -1;
}

ORC_RT_PLATFORM_API void *__orc_rt_elfnix_jit_dlsym(void *Handle,
                                                    const char *Symbol) {
  pthread_mutex_lock(&orc_rt_platform_TheState.Mutex);
  bool Known = orc_rt_platform_findByHeader(Handle) != NULL;
  pthread_mutex_unlock(&orc_rt_platform_TheState.Mutex);
  if (!Known) {
    check(orc_rt_Error_createf("invalid JITDylib handle %p", Handle));
    return NULL;
  }
  uint64_t Addr = 0;
  if (!check(orc_rt_platform_lookupSymbol(Handle, Symbol, &Addr)))
    return NULL;
  return (void *)(uintptr_t)Addr;
}

/* A program starts with the default floating-point environment (round to
 * nearest, no exceptions raised or unmasked), whatever the executor did to
 * this thread's before: x87 control word and MXCSR to their reset values. */
static void resetFloatingPointEnvironment(void) {
#if defined(__x86_64__)
  unsigned MXCSR = 0x1f80;
  __asm__ volatile("fninit\n\tldmxcsr %0" : : "m"(MXCSR));
#endif
}

typedef struct {
  int (*Main)(int, char *[], char *[]);
  int Argc;
  char **Argv;
  int Result; /* 0 unless main returns */
} MainCall;

static void callMainBody(void *P) {
  MainCall *C = P;
  /* main gets envp too, as from the C start-up code (a two-argument main
   * ignores it). */
  C->Result = C->Main(C->Argc, C->Argv, environ);
}

/* Calls main. A main may end with pthread_exit instead of returning; natively
 * the process then lives on until its last thread has ended and exits with
 * status 0. An executor that can wait for the program's threads offers
 * orc_rt_ExecutorServices_callAsMainThread (orc-executor: it catches the exit
 * and returns once the program's last thread has ended), and the run then goes
 * on as if main had returned 0: the JITDylib is closed (atexit handlers run
 * after the last thread's output) and 0 is the answer. Elsewhere main is
 * called directly: in process the exit ends the client's thread as natively;
 * in another executor the call is never answered. */
static orc_rt_MainThreadEnd callMain(MainCall *C) {
  orc_rt_CallAsMainThreadFn CallAsMain =
      (orc_rt_CallAsMainThreadFn)(uintptr_t)dlsym(
          RTLD_DEFAULT, "orc_rt_ExecutorServices_callAsMainThread");
  if (!CallAsMain) {
    callMainBody(C);
    return orc_rt_MainThread_Returned;
  }
  return CallAsMain(callMainBody, C);
}

ORC_RT_PLATFORM_API int64_t __orc_rt_elfnix_run_program(const char *JITDylib,
                                                        const char *Entry,
                                                        int Argc,
                                                        char *Argv[]) {
  resetFloatingPointEnvironment();
  void *H = __orc_rt_elfnix_jit_dlopen(JITDylib, 0);
  if (!H) {
    __orc_rt_log_error_to_stderr(__orc_rt_elfnix_jit_dlerror());
    return -1;
  }
  int (*Main)(int, char *[], char *[]) = (int (*)(int, char *[], char *[]))(
      uintptr_t)__orc_rt_elfnix_jit_dlsym(H, Entry);
  if (!Main) {
    __orc_rt_log_error_to_stderr(__orc_rt_elfnix_jit_dlerror());
    __orc_rt_elfnix_jit_dlclose(H);
    return -1;
  }
  /* atexit() from main belongs to the program's JITDylib (AtExit.c). */
  void *Prev = orc_rt_platform_atExitOwner();
  orc_rt_platform_setAtExitOwner(H);
  MainCall C = {Main, Argc, Argv, 0};
  orc_rt_MainThreadEnd End = callMain(&C);
  orc_rt_platform_setAtExitOwner(Prev);
  /* Main ended with pthread_exit and the controller went away before the
   * program's last thread ended: no exit-time work under running threads. */
  if (End == orc_rt_MainThread_Detached)
    return 0;
  if (__orc_rt_elfnix_jit_dlclose(H) != 0)
    __orc_rt_log_error_to_stderr(__orc_rt_elfnix_jit_dlerror());
  return C.Result;
}

/*---- SPS wrappers ----*/

static orc_rt_CWrapperFunctionBuffer badArgs(const char *Fn) {
  char Msg[128];
  snprintf(Msg, sizeof(Msg), "%s: could not decode arguments", Fn);
  return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(Msg);
}

/* A NUL-terminated copy of an SPS string view (NULL if out of memory). */
static char *copyString(const char *Data, size_t Len) {
  char *S = malloc(Len + 1);
  if (S) {
    memcpy(S, Data, Len);
    S[Len] = '\0';
  }
  return S;
}

static orc_rt_CWrapperFunctionBuffer int32Result(int32_t V) {
  return orc_rt_CWrapperFunctionBuffer_copy((const char *)&V, sizeof(V));
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_jit_dlopen_wrapper(const char *ArgData, size_t ArgSize) {
  orc_rt_SPSReader R;
  const char *Path;
  size_t Len;
  int32_t Mode;
  orc_rt_SPSReader_init(&R, ArgData, ArgSize);
  orc_rt_SPSReader_readBytes(&R, &Path, &Len);
  orc_rt_SPSReader_readI32(&R, &Mode);
  if (!orc_rt_SPSReader_atEnd(&R))
    return badArgs("__orc_rt_jit_dlopen_wrapper");
  char *P = copyString(Path, Len);
  if (!P)
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage("out of memory");
  uint64_t H = (uint64_t)(uintptr_t)__orc_rt_elfnix_jit_dlopen(P, Mode);
  free(P);
  return orc_rt_CWrapperFunctionBuffer_copy((const char *)&H, sizeof(H));
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_jit_dlupdate_wrapper(const char *ArgData, size_t ArgSize) {
  orc_rt_SPSReader R;
  uint64_t H;
  int32_t Mode;
  orc_rt_SPSReader_init(&R, ArgData, ArgSize);
  orc_rt_SPSReader_readAddr(&R, &H);
  orc_rt_SPSReader_readI32(&R, &Mode);
  if (!orc_rt_SPSReader_atEnd(&R))
    return badArgs("__orc_rt_jit_dlupdate_wrapper");
  return int32Result(__orc_rt_elfnix_jit_dlupdate((void *)(uintptr_t)H, Mode));
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_jit_dlclose_wrapper(const char *ArgData, size_t ArgSize) {
  orc_rt_SPSReader R;
  uint64_t H;
  orc_rt_SPSReader_init(&R, ArgData, ArgSize);
  if (!orc_rt_SPSReader_readAddr(&R, &H) || !orc_rt_SPSReader_atEnd(&R))
    return badArgs("__orc_rt_jit_dlclose_wrapper");
  return int32Result(__orc_rt_elfnix_jit_dlclose((void *)(uintptr_t)H));
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_jit_dlerror_wrapper(const char *ArgData, size_t ArgSize) {
  (void)ArgData;
  if (ArgSize != 0)
    return badArgs("__orc_rt_jit_dlerror_wrapper");
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendString(&W, __orc_rt_elfnix_jit_dlerror());
  return orc_rt_SPSWriter_finish(&W);
}

ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_run_program_wrapper(const char *ArgData, size_t ArgSize) {
  orc_rt_SPSReader R;
  const char *JD, *Entry;
  size_t JDLen, EntryLen;
  uint64_t Argc = 0;
  orc_rt_SPSReader_init(&R, ArgData, ArgSize);
  orc_rt_SPSReader_readBytes(&R, &JD, &JDLen);
  orc_rt_SPSReader_readBytes(&R, &Entry, &EntryLen);
  if (!orc_rt_SPSReader_readCount(&R, &Argc, 8) || Argc > 0x7fffffff)
    return badArgs("__orc_rt_run_program_wrapper");
  /* One block: the argv array, then the strings. */
  orc_rt_SPSReader Probe = R;
  size_t Bytes = (Argc + 1) * sizeof(char *);
  for (uint64_t I = 0; I < Argc; ++I) {
    const char *S;
    size_t L;
    orc_rt_SPSReader_readBytes(&Probe, &S, &L);
    Bytes += L + 1;
  }
  if (!orc_rt_SPSReader_atEnd(&Probe))
    return badArgs("__orc_rt_run_program_wrapper");
  char **Argv = malloc(Bytes);
  char *JDName = copyString(JD, JDLen);
  char *EntryName = copyString(Entry, EntryLen);
  if (!Argv || !JDName || !EntryName) {
    free(Argv);
    free(JDName);
    free(EntryName);
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage("out of memory");
  }
  char *Str = (char *)(Argv + Argc + 1);
  for (uint64_t I = 0; I < Argc; ++I) {
    const char *S;
    size_t L;
    orc_rt_SPSReader_readBytes(&R, &S, &L);
    memcpy(Str, S, L);
    Str[L] = '\0';
    Argv[I] = Str;
    Str += L + 1;
  }
  Argv[Argc] = NULL;
  int64_t Result =
      __orc_rt_elfnix_run_program(JDName, EntryName, (int)Argc, Argv);
  free(Argv);
  free(JDName);
  free(EntryName);
  return orc_rt_CWrapperFunctionBuffer_copy((const char *)&Result,
                                            sizeof(Result));
}
