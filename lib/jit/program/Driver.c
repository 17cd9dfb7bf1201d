/*===- lib/jit/program/Driver.c - Running a program the way lli does ------===*/

#include "jit/program/Driver.h"
#include "jit/cache/ObjectCache.h"
#include "jit/ir/Module.h"
#include "jit/lli/LLICache.h"
#include "jit/program/IRDlopen.h"
#include "jit/program/JITDylibs.h"
#include "jit/program/Jit.h"
#include "jit/program/LiveEntries.h"
#include "jit/program/ProgramRuntime.h"
#include "jit/program/ThreadInterpose.h"
#include "jit/support/GrowArray.h"

#include "orc-rt-c/ManagedThread.h"
#include "orc-rt-c/Session.h"

#include <dlfcn.h>
#include <errno.h>
#include <fenv.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct orc_rt_jit_Program {
  const orc_rt_jit_Options *Opts;
  orc_rt_ThreadPoolRef Pool;
  orc_rt_SessionRef S;
  orc_rt_jit_Jit *Jit; /* freed by the service's onShutdown */
  orc_rt_jit_InitList Ctors, Dtors;
  orc_rt_jit_NameList Names;
  orc_rt_jit_JITDylibs *JDs; /* -jd; NULL without */
  unsigned Adding;           /* the module being added (for noteStubs) */
  uint64_t *DtorAddrs;
  /* lli's cache files still to be written: -jit-kind=mcjit compiles the
   * modules on the first lookup (see orc_rt_jit_Jit_addModule). */
  char **CachePaths;
  size_t NumCachePaths, CachePathCap;

  pthread_mutex_t Lock;
  pthread_cond_t Changed;
  bool ShutdownComplete; /* every shutdown callback has run */
  bool Abandoned;        /* the timeout expired: nothing may be freed */
  /* The end of the program's lifecycle (handlers, dtors), run once. */
  enum { Finish_NotStarted, Finish_Running, Finish_Done } FinishState;
  pid_t FinishOwner;
  size_t NextDtor;
};

/*---- Tracing ----*/

static void trace(orc_rt_jit_Program *P, const char *Fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void trace(orc_rt_jit_Program *P, const char *Fmt, ...) {
  if (!P->Opts->TraceShutdown)
    return;
  fflush(stdout);
  va_list Args;
  va_start(Args, Fmt);
  flockfile(stderr);
  fputs("mini-lli: shutdown: ", stderr);
  vfprintf(stderr, Fmt, Args);
  fputc('\n', stderr);
  funlockfile(stderr);
  va_end(Args);
  fflush(stderr);
}

/*---- The service that owns the JIT ----*/

/* The program's signal handlers (code in no loaded object: JIT'd) are set
 * to ignore their signals before its code is freed (after the drain: no
 * managed thread is left to want them): a timer the program left armed
 * would otherwise call freed memory while the JIT goes (natively its handler
 * would run, the program's end not yet reached). */
static void ignoreProgramsSignals(void) {
  for (int Sig = 1; Sig < NSIG; ++Sig) {
    struct sigaction Old;
    if (Sig == SIGKILL || Sig == SIGSTOP || sigaction(Sig, NULL, &Old))
      continue;
    void *Fn = (Old.sa_flags & SA_SIGINFO) ? (void *)(uintptr_t)Old.sa_sigaction
                                           : (void *)(uintptr_t)Old.sa_handler;
    Dl_info Info;
    if (Fn == (void *)(uintptr_t)SIG_DFL || Fn == (void *)(uintptr_t)SIG_IGN ||
        dladdr(Fn, &Info))
      continue;
    struct sigaction Ignore = {.sa_handler = SIG_IGN};
    sigemptyset(&Ignore.sa_mask);
    sigaction(Sig, &Ignore, NULL);
  }
}

static void freeJit(void *Ctx) {
  orc_rt_jit_Program *P = Ctx;
  trace(P, "drain complete; freeing the JIT and its code memory");
  ignoreProgramsSignals();
  orc_rt_ErrorRef Err = orc_rt_jit_Jit_dispose(P->Jit);
  P->Jit = NULL;
  if (Err) {
    fprintf(stderr, "mini-lli: error: %s\n", orc_rt_Error_getMessage(Err));
    orc_rt_Error_consume(Err);
  }
  trace(P, "code memory freed");
}

static const orc_rt_ServiceVTable JitService = {NULL, freeJit};

static void programError(orc_rt_ErrorRef Err, void *Ctx) {
  (void)Ctx;
  fflush(stdout);
  fprintf(stderr, "mini-lli: error reported by the program: %s\n",
          orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
}

/* The Session's dispatcher: a one-thread pool, started on first use so that a
 * program that never defers work sees no thread it did not start. */
static void dispatchTask(orc_rt_TaskRef T, void *Ctx) {
  orc_rt_jit_Program *P = Ctx;
  pthread_mutex_lock(&P->Lock);
  if (!P->Pool) {
    bool Old = orc_rt_jit_ThreadInterpose_bypass(true); /* not managed */
    orc_rt_ErrorRef Err = orc_rt_ThreadPool_create(&P->Pool, 1);
    orc_rt_jit_ThreadInterpose_bypass(Old);
    if (Err) {
      orc_rt_Error_consume(Err);
      P->Pool = NULL;
    }
  }
  orc_rt_ThreadPoolRef Pool = P->Pool;
  pthread_mutex_unlock(&P->Lock);
  if (Pool)
    orc_rt_ThreadPool_dispatch(T, Pool);
  else
    orc_rt_Task_destroy(T); /* cannot run it: its cancel path runs */
}

/*---- Create ----*/

/* What a module added to the driver's lists, for its object cache entry. */
typedef struct {
  orc_rt_jit_Program *P;
  orc_rt_jit_Digest Key;
  size_t Ctors, Dtors, Names; /* list sizes before the module */
} CacheStore;

static void storeInCache(const LLVMMemoryBufferRef *Objects, size_t NumObjects,
                         void *Ctx) {
  CacheStore *C = Ctx;
  orc_rt_jit_Program *P = C->P;
  orc_rt_jit_CacheManifest M = {.Ctors = P->Ctors.Items + C->Ctors,
                                .NumCtors = P->Ctors.Size - C->Ctors,
                                .Dtors = P->Dtors.Items + C->Dtors,
                                .NumDtors = P->Dtors.Size - C->Dtors,
                                .Names = P->Names.Items + C->Names,
                                .NumNames = P->Names.Size - C->Names};
  orc_rt_ErrorRef Err = orc_rt_jit_ObjectCache_store(
      P->Opts->ObjectCacheDir, C->Key, &M, Objects, NumObjects);
  if (Err) { /* the program runs anyway, as with lli */
    fprintf(stderr, "mini-lli: warning: object cache: %s\n",
            orc_rt_Error_getMessage(Err));
    orc_rt_Error_consume(Err);
  }
}

/* A cache hit adds the module's objects and what the driver took out of it
 * (constructors, destructors, names) without reading the IR at all. */
static orc_rt_ErrorRef addFromCache(orc_rt_jit_Program *P,
                                    orc_rt_jit_Digest Key, bool *Hit) {
  LLVMMemoryBufferRef *Objs;
  size_t N;
  orc_rt_jit_CacheLists Into = {&P->Ctors, &P->Dtors, &P->Names, NULL, NULL};
  orc_rt_ErrorRef Err = orc_rt_jit_ObjectCache_load(P->Opts->ObjectCacheDir,
                                                    Key, Hit, &Into, &Objs, &N);
  if (Err || !*Hit)
    return Err;
  Err = orc_rt_jit_Jit_addObjects(P->Jit, Objs, N);
  free(Objs);
  return Err;
}

/* -enable-cache-manager: lli's cache. The IR is read either way (the driver
 * takes the constructors, destructors and names out of it); on a hit the
 * cached object is linked instead of compiling the module. With orc-lazy the
 * module is then compiled whole, when it is added (see Jit_addModule). */
static orc_rt_ErrorRef addThroughLLICache(orc_rt_jit_Program *P,
                                          const char *Path, LLVMContextRef Ctx,
                                          LLVMModuleRef M) {
  char *CachePath = orc_rt_jit_LLICache_path(P->Opts->ObjectCacheDir, Path);
  LLVMMemoryBufferRef Obj = NULL;
  if (CachePath)
    orc_rt_jit_LLICache_load(CachePath, &Obj);
  orc_rt_ErrorRef Err;
  if (Obj) {
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
    Err = orc_rt_jit_Jit_addObjects(P->Jit, &Obj, 1);
    free(CachePath);
  } else if (CachePath && !orc_rt_jit_growArray(
                              &P->CachePaths, &P->CachePathCap,
                              P->NumCachePaths + 1, sizeof(*P->CachePaths))) {
    free(CachePath);
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
    Err = orc_rt_Error_create("out of memory");
  } else {
    if (CachePath) /* kept until the module is compiled */
      P->CachePaths[P->NumCachePaths++] = CachePath;
    Err = orc_rt_jit_Jit_addModule(P->Jit, Ctx, M, NULL,
                                   CachePath ? orc_rt_jit_LLICache_store : NULL,
                                   CachePath);
  }
  return Err;
}

/* The driver's entries from module Index are looked up in its JITDylib. */
static void setModule(orc_rt_jit_Program *P, const CacheStore *Before,
                      unsigned Index) {
  for (size_t I = Before->Ctors; I < P->Ctors.Size; ++I)
    P->Ctors.Items[I].Module = Index;
  for (size_t I = Before->Dtors; I < P->Dtors.Size; ++I)
    P->Dtors.Items[I].Module = Index;
  for (size_t I = Before->Names; I < P->Names.Size; ++I)
    P->Names.Items[I].Module = Index;
}

/* For a module taken from the object cache (consumes Buf). */
static orc_rt_ErrorRef noteExports(orc_rt_jit_Program *P, const char *Path,
                                   LLVMMemoryBufferRef Buf, unsigned Index) {
  LLVMContextRef Ctx;
  LLVMModuleRef M;
  orc_rt_ErrorRef Err = orc_rt_jit_parseModule(Path, Buf, &Ctx, &M);
  if (Err)
    return Err;
  Err = orc_rt_jit_JITDylibs_noteModule(P->JDs, Index, M);
  LLVMDisposeModule(M);
  LLVMContextDispose(Ctx);
  return Err;
}

static orc_rt_ErrorRef addModuleFile(orc_rt_jit_Program *P, const char *Path,
                                     unsigned Index) {
  P->Adding = Index;
  LLVMMemoryBufferRef Buf;
  orc_rt_ErrorRef Err = orc_rt_jit_readInput(Path, &Buf);
  if (Err)
    return Err;
  bool Cached = P->Opts->ObjectCacheDir && !P->Opts->EnableCacheManager &&
                P->Opts->Engine == orc_rt_jit_Engine_Orc;
  CacheStore Store = {P, {0, 0}, P->Ctors.Size, P->Dtors.Size, P->Names.Size};
  if (Cached) {
    Store.Key = orc_rt_jit_ObjectCache_key(
        LLVMGetBufferStart(Buf), LLVMGetBufferSize(Buf),
        orc_rt_jit_Jit_codegenSettings(P->Jit), P->Opts->Passes, Index);
    bool Hit;
    Err = addFromCache(P, Store.Key, &Hit);
    if (!Err && Hit && P->JDs) { /* -jd still needs the module's exports */
      setModule(P, &Store, Index);
      return noteExports(P, Path, Buf, Index);
    }
    if (Err || Hit) {
      setModule(P, &Store, Index);
      LLVMDisposeMemoryBuffer(Buf);
      return Err;
    }
  }
  LLVMContextRef Ctx;
  LLVMModuleRef M;
  /* orc-tiered splits each module per function and compiles a body on its
   * first call: a body never called need not even be read. -passes, -jd
   * and lli's cache read the whole module. */
  bool Unread = P->Opts->Tiered && !P->Opts->PerModuleLazy &&
                !P->Opts->Passes && !P->JDs && !P->Opts->EnableCacheManager;
  LLVMModuleRef Holder = NULL;
  Err = Unread ? orc_rt_jit_parseModuleLazily(Path, Buf, &Ctx, &M, &Holder)
               : orc_rt_jit_parseModule(Path, Buf, &Ctx, &M);
  if (!Err && (Err = orc_rt_jit_JITDylibs_noteModule(P->JDs, Index, M))) {
    if (Holder)
      LLVMDisposeModule(Holder);
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
  }
  if (Err)
    return Err;
  if (P->Opts->Passes) {
    LLVMTargetMachineRef TM = orc_rt_jit_Jit_createTargetMachine(P->Jit);
    Err = orc_rt_jit_runPasses(M, P->Opts->Passes, TM);
    if (TM)
      LLVMDisposeTargetMachine(TM);
  }
  if (!Err)
    Err = orc_rt_jit_takeInitializers(M, Index, &P->Ctors, &P->Dtors);
  if (!Err && Holder) {
    /* The holder's names must be M's (the split finds bodies by name). */
    orc_rt_jit_InitList Ignored[2] = {{0}, {0}};
    Err = orc_rt_jit_takeInitializers(Holder, Index, &Ignored[0], &Ignored[1]);
    orc_rt_jit_InitList_dispose(&Ignored[0]);
    orc_rt_jit_InitList_dispose(&Ignored[1]);
  }
  if (!Err)
    Err = orc_rt_jit_collectFunctionNames(
        M, Index,
        !P->Opts->Lazy && P->Opts->Engine != orc_rt_jit_Engine_Interpreter,
        &P->Names);
  setModule(P, &Store, Index);
  if (Err) {
    if (Holder)
      LLVMDisposeModule(Holder);
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
    return Err;
  }
  /* lli's objects for a module with constructors or destructors hold lli's
   * own init functions, and it expects them in the objects it reads: such a
   * module is never taken from or written to lli's cache. */
  bool HasInits = P->Ctors.Size != Store.Ctors || P->Dtors.Size != Store.Dtors;
  if (P->Opts->EnableCacheManager && !HasInits &&
      P->Opts->Engine != orc_rt_jit_Engine_Interpreter)
    return addThroughLLICache(P, Path, Ctx, M);
  return orc_rt_jit_Jit_addModule(P->Jit, Ctx, M, Holder,
                                  Cached ? storeInCache : NULL, &Store);
}

/* -jd: which functions of the module being added got a lazy stub. */
static void noteStubs(const char *const *Names, size_t N, bool BodiesApart,
                      void *Ctx) {
  orc_rt_jit_Program *P = Ctx;
  orc_rt_Error_consume(/* out of memory: no stubs counted, as if none */
                       orc_rt_jit_JITDylibs_noteStubs(P->JDs, P->Adding, Names,
                                                      N, BodiesApart));
}

static orc_rt_ErrorRef loadInputs(orc_rt_jit_Program *P) {
  const orc_rt_jit_Options *O = P->Opts;
  orc_rt_ErrorRef Err = orc_rt_jit_JITDylibs_create(&P->JDs, P->Jit, O);
  if (P->JDs)
    orc_rt_jit_Jit_setStubsCallback(P->Jit, noteStubs, P);
  if (!Err)
    Err = addModuleFile(P, O->Input, 0);
  for (size_t I = 0; !Err && I < O->ExtraModules.Size; ++I) {
    orc_rt_jit_Jit_placeIn(
        P->Jit, orc_rt_jit_JITDylibs_ofModule(P->JDs, (unsigned)I + 1));
    Err = addModuleFile(P, O->ExtraModules.Items[I], (unsigned)I + 1);
  }
  orc_rt_jit_Jit_setStubsCallback(P->Jit, NULL, NULL);
  orc_rt_jit_Jit_placeIn(P->Jit, NULL); /* lli: -extra-objects go to main */
  for (size_t I = 0; !Err && I < O->ExtraObjects.Size; ++I)
    Err = orc_rt_jit_Jit_addObjectFile(P->Jit, O->ExtraObjects.Items[I]);
  for (size_t I = 0; !Err && I < O->DLOpens.Size; ++I)
    Err = orc_rt_jit_Jit_addDynamicLibrary(P->Jit, O->DLOpens.Items[I]);
  for (size_t I = 0; !Err && I < O->ExtraArchives.Size; ++I) {
    orc_rt_jit_Jit_placeIn(P->Jit, orc_rt_jit_JITDylibs_ofArchive(P->JDs, I));
    Err = orc_rt_jit_Jit_addArchive(P->Jit, O->ExtraArchives.Items[I]);
  }
  orc_rt_jit_Jit_placeIn(P->Jit, NULL);
  if (!Err)
    Err = orc_rt_jit_Jit_addProcessSymbols(P->Jit);
  if (!Err)
    Err = orc_rt_jit_JITDylibs_link(P->JDs);
  orc_rt_jit_InitList_sort(&P->Ctors);
  orc_rt_jit_InitList_sort(&P->Dtors);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Program_create(orc_rt_jit_Program **Result,
                                          const orc_rt_jit_Options *Opts) {
  orc_rt_jit_Program *P = calloc(1, sizeof(*P));
  if (!P)
    return orc_rt_Error_create("out of memory");
  P->Opts = Opts;
  pthread_mutex_init(&P->Lock, NULL);
  pthread_cond_init(&P->Changed, NULL);
  orc_rt_ErrorRef Err =
      orc_rt_Session_create(&P->S, dispatchTask, P, programError, P);
  if (!Err)
    Err = orc_rt_jit_Jit_create(&P->Jit, Opts);
  if (!Err)
    Err = orc_rt_Session_addService(P->S, &JitService, P);
  if (!Err) /* its loader is newer than JitService: freed before the JIT */
    orc_rt_jit_Dlopen_attach(P->S, P->Jit, Opts);
  if (!Err)
    Err = loadInputs(P);
  if (Err) {
    orc_rt_jit_Program_destroy(P);
    return Err;
  }
  *Result = P;
  return NULL;
}

/*---- Destroy ----*/

bool orc_rt_jit_Program_destroy(orc_rt_jit_Program *P) {
  if (P->Abandoned)
    return false;
  if (P->S)
    orc_rt_Session_destroy(P->S); /* shuts down; the service frees the JIT */
  if (P->Jit)                     /* the service was never added */
    orc_rt_Error_consume(orc_rt_jit_Jit_dispose(P->Jit));
  orc_rt_ThreadPool_destroy(P->Pool);
  orc_rt_jit_Runtime_dispose();
  orc_rt_jit_InitList_dispose(&P->Ctors);
  orc_rt_jit_InitList_dispose(&P->Dtors);
  orc_rt_jit_NameList_dispose(&P->Names);
  orc_rt_jit_JITDylibs_dispose(P->JDs);
  free(P->DtorAddrs);
  for (size_t I = 0; I < P->NumCachePaths; ++I)
    free(P->CachePaths[I]);
  free(P->CachePaths);
  pthread_mutex_destroy(&P->Lock);
  pthread_cond_destroy(&P->Changed);
  free(P);
  return true;
}

_Noreturn void orc_rt_jit_quickExit(int Status) {
  fflush(NULL);
  _exit(Status);
}

/*---- Calling into JIT'd code ----*/

typedef struct {
  orc_rt_jit_Jit *Jit;
  uint64_t Addr;
} VoidCall;

static void callVoid(void *Ctx) {
  VoidCall *C = Ctx;
  orc_rt_jit_Jit_callVoid(C->Jit, C->Addr);
}

static bool runVoid(orc_rt_jit_Program *P, const char *Symbol, uint64_t Addr) {
  VoidCall C = {P->Jit, Addr};
  bool Entered = orc_rt_jit_LiveEntries_call(P->S, Symbol, Addr, callVoid, &C);
  if (!Entered)
    trace(P, "entry into '%s' denied", Symbol);
  return Entered;
}

typedef struct {
  orc_rt_jit_Jit *Jit;
  uint64_t Addr;
  int Argc;
  char **Argv, **Envp;
  int Result;
  bool CatchExit;  /* JIT'd code: catch a pthread_exit from main */
  bool MainExited; /* main ended with pthread_exit */
} MainCall;

static void callMainBody(void *Ctx) {
  MainCall *C = Ctx;
  C->Result =
      orc_rt_jit_Jit_callMain(C->Jit, C->Addr, C->Argc, C->Argv, C->Envp);
}

static void callMain(void *Ctx) {
  MainCall *C = Ctx;
  if (!C->CatchExit)
    callMainBody(C);
  else if (!orc_rt_jit_Runtime_callCatchingExit(callMainBody, C))
    C->MainExited = true;
  orc_rt_jit_Runtime_runThreadDtors(); /* as exit() would, first */
}

typedef struct {
  orc_rt_jit_Jit *Jit;
  int Status;
} EndCall;

static void callEnd(void *Ctx) {
  EndCall *C = Ctx;
  orc_rt_jit_Jit_endProgram(C->Jit, C->Status);
}

static void callHandler(void *Ctx) {
  orc_rt_jit_Handler *H = Ctx;
  if (H->NoArg)
    ((void (*)(void))H->Fn)();
  else
    H->Fn(H->Arg);
}

/* Runs what is left of the handlers and dtors. Re-entrant on the thread that
 * runs it (exit() from a handler carries on where the outer loop was). */
/* A constructor's or destructor's priority when none is given (plain
 * .init_array/.fini_array). */
enum { DefaultInitPriority = 65535 };

/* The atexit handlers registered so far, newest first. One list, as glibc's:
 * a dlopen'ed module's handlers run among the program's, in the module (its
 * destructors run later, at detach). */
static void runHandlers(orc_rt_jit_Program *P, bool ProgramOnly) {
  orc_rt_jit_Handler H;
  while (ProgramOnly ? orc_rt_jit_Runtime_popProgramHandler(&H)
                     : orc_rt_jit_Runtime_popHandler(&H))
    if (!orc_rt_jit_Dlopen_runHandler(&H) &&
        !orc_rt_jit_LiveEntries_call(
            P->S, "atexit handler", (uint64_t)(uintptr_t)H.Fn, callHandler, &H))
      trace(P, "atexit handler denied");
}

static void runFinishSteps(orc_rt_jit_Program *P) {
  runHandlers(P, false);
  while (true) {
    pthread_mutex_lock(&P->Lock);
    size_t I = P->NextDtor < P->Dtors.Size ? P->NextDtor++ : SIZE_MAX;
    pthread_mutex_unlock(&P->Lock);
    if (I == SIZE_MAX)
      break;
    /* Reverse of the sorted order: highest priority number first, and the
     * last of equal ones first, as .fini_array runs. */
    size_t J = P->Dtors.Size - 1 - I;
    /* Natively crtbegin's __do_global_dtors_aux sits in .fini_array between
     * the default-priority destructors and the prioritized ones, and calls
     * __cxa_finalize(the program's __dso_handle): the program's handlers
     * registered meanwhile run there (a dlopen'ed module's wait for its own
     * finalization, after the program's destructors). */
    if (P->Dtors.Items[J].Priority < DefaultInitPriority &&
        (I == 0 || P->Dtors.Items[J + 1].Priority >= DefaultInitPriority))
      runHandlers(P, true);
    runVoid(P, P->Dtors.Items[J].Symbol, P->DtorAddrs[J]);
  }
  /* And the program's registered since, as exit's handler loop does after
   * _dl_fini. A dlopen'ed module's wait for its own finalization (at
   * detach), which runs them between its default-priority and prioritized
   * destructors, as its crtbegin's __cxa_finalize does. */
  runHandlers(P, true);
  /* exit's own flush of stdio comes next natively, while the program is
   * still mapped: a buffer it gave setvbuf, a stream fopencookie or
   * fmemopen made, are its memory and code, gone once the JIT is freed. */
  fflush(NULL);
}

/* The end of the program's lifecycle, exactly once: by the thread that
 * returned from the entry, or by the first thread that calls exit(). */
static void finishProgram(orc_rt_jit_Program *P, int Status) {
  /* (on_exit's status: the last exit's, also one a handler calls) */
  orc_rt_jit_Runtime_setExitStatus(Status);
  pid_t Self = gettid();
  pthread_mutex_lock(&P->Lock);
  if (P->FinishState == Finish_Running && P->FinishOwner != Self) {
    while (P->FinishState != Finish_Done)
      pthread_cond_wait(&P->Changed, &P->Lock);
  }
  if (P->FinishState == Finish_Done) {
    pthread_mutex_unlock(&P->Lock);
    return;
  }
  P->FinishState = Finish_Running;
  P->FinishOwner = Self;
  pthread_mutex_unlock(&P->Lock);

  runFinishSteps(P);
  orc_rt_jit_Jit_printTierStats(P->Jit);

  pthread_mutex_lock(&P->Lock);
  P->FinishState = Finish_Done;
  pthread_cond_broadcast(&P->Changed);
  pthread_mutex_unlock(&P->Lock);
}

static void onShutdownComplete(void *Ctx) {
  orc_rt_jit_Program *P = Ctx;
  trace(P, "complete");
  pthread_mutex_lock(&P->Lock);
  P->ShutdownComplete = true;
  pthread_cond_broadcast(&P->Changed);
  pthread_mutex_unlock(&P->Lock);
}

static orc_rt_ErrorRef requestShutdown(orc_rt_jit_Program *P) {
  trace(P, "requested; new entries into JIT'd code are denied");
  return orc_rt_Session_shutdown(P->S, onShutdownComplete, P);
}

/* exit() called by JIT'd code: finish the lifecycle, then end the process as
 * exit does, without waiting for other threads still inside JIT'd code. */
static void exitFromJit(int Status, void *Ctx) {
  orc_rt_jit_Program *P = Ctx;
  orc_rt_jit_Runtime_runThreadDtors();
  finishProgram(P, Status);
  orc_rt_Error_consume(requestShutdown(P));
  trace(P, "exit(%d) called by JIT'd code; ending the process", Status);
  orc_rt_jit_quickExit(Status);
}

static void callQuickHandler(void *Ctx) { (*(void (**)(void))Ctx)(); }

/* quick_exit() called by JIT'd code: its at_quick_exit handlers, newest first,
 * then the process ends at once (no atexit handlers, no stdio flush, as C
 * says), without waiting for other threads inside JIT'd code. */
static void quickExitFromJit(int Status, void *Ctx) {
  orc_rt_jit_Program *P = Ctx;
  void (*Fn)(void);
  while (orc_rt_jit_Runtime_popQuickHandler(&Fn))
    if (!orc_rt_jit_LiveEntries_call(P->S, "at_quick_exit handler",
                                     (uint64_t)(uintptr_t)Fn, callQuickHandler,
                                     &Fn))
      trace(P, "at_quick_exit handler denied");
  orc_rt_Error_consume(requestShutdown(P));
  trace(P, "quick_exit(%d) called by JIT'd code; ending the process", Status);
  _exit(Status);
}

/*---- Thread entries ----*/

typedef struct {
  orc_rt_jit_Program *P;
  const char *Symbol;
  uint64_t Addr;
} ThreadEntry;

static void *runThreadEntry(void *Ctx) {
  ThreadEntry *T = Ctx;
  orc_rt_jit_LiveEntry E;
  orc_rt_jit_LiveEntries_enter(&E, T->Symbol, T->Addr);
  ((void (*)(void))(uintptr_t)T->Addr)();
  orc_rt_jit_Runtime_runThreadDtors();
  orc_rt_jit_LiveEntries_leave(&E);
  return NULL;
}

/*---- Waiting for the drain ----*/

/* The JITDylib of module Index (NULL: the main one). */
static LLVMOrcJITDylibRef dylibOf(orc_rt_jit_Program *P, unsigned Index) {
  return orc_rt_jit_JITDylibs_ofModule(P->JDs, Index);
}

/* Resolves every name first: the report itself runs under the registry's
 * lock and must not call into the JIT. */
typedef struct {
  uint64_t *Addrs;
  orc_rt_jit_Program *P;
} NameTable;

static const char *lookupTable(uint64_t Addr, void *Ctx) {
  NameTable *T = Ctx;
  for (size_t I = 0; I < T->P->Names.Size; ++I)
    if (T->Addrs[I] == Addr)
      return T->P->Names.Items[I].Display;
  return NULL;
}

static void reportLiveEntries(orc_rt_jit_Program *P) {
  NameTable T = {calloc(P->Names.Size + 1, sizeof(uint64_t)), P};
  for (size_t I = 0; T.Addrs && I < P->Names.Size; ++I) {
    orc_rt_ErrorRef Err =
        orc_rt_jit_Jit_lookup(P->Jit, dylibOf(P, P->Names.Items[I].Module),
                              P->Names.Items[I].Lookup, &T.Addrs[I]);
    orc_rt_Error_consume(Err);
  }
  orc_rt_Error_consume(orc_rt_jit_Jit_takeSessionErrors(P->Jit, NULL));
  fflush(stdout);
  flockfile(stderr);
  fprintf(stderr,
          "mini-lli: warning: shutdown timed out after %g s with threads still "
          "inside JIT'd code; code memory is not freed\n",
          P->Opts->ShutdownTimeout);
  size_t N =
      orc_rt_jit_LiveEntries_report(stderr, T.Addrs ? lookupTable : NULL, &T);
  orc_rt_jit_Dlopen_reportLiveFrames(stderr); /* frames inside modules */
  fprintf(stderr,
          "mini-lli: %zu live entr%s; ending the process with the "
          "program's status\n",
          N, N == 1 ? "y" : "ies");
  funlockfile(stderr);
  fflush(stderr);
  free(T.Addrs);
}

/* Waits for the drain, at most Timeout seconds (negative: without limit);
 * false if the timeout expired first. */
static bool waitForDrain(orc_rt_jit_Program *P, double Timeout) {
  struct timespec Deadline;
  clock_gettime(CLOCK_REALTIME, &Deadline);
  if (Timeout >= 0) {
    double Whole = (double)(time_t)Timeout;
    Deadline.tv_sec += (time_t)Timeout;
    Deadline.tv_nsec += (long)((Timeout - Whole) * 1e9);
    if (Deadline.tv_nsec >= 1000000000L) {
      Deadline.tv_nsec -= 1000000000L;
      ++Deadline.tv_sec;
    }
  }
  bool Done = true;
  pthread_mutex_lock(&P->Lock);
  while (!P->ShutdownComplete) {
    if (Timeout < 0) {
      pthread_cond_wait(&P->Changed, &P->Lock);
    } else if (pthread_cond_timedwait(&P->Changed, &P->Lock, &Deadline) ==
               ETIMEDOUT) {
      Done = P->ShutdownComplete;
      break;
    }
  }
  pthread_mutex_unlock(&P->Lock);
  return Done;
}

/*---- Run ----*/

static orc_rt_ErrorRef lookupAll(orc_rt_jit_Program *P, uint64_t *EntryAddr,
                                 uint64_t **CtorAddrs, uint64_t **ThreadAddrs) {
  const orc_rt_jit_Options *O = P->Opts;
  orc_rt_ErrorRef Err = orc_rt_jit_Jit_startAtTier1(P->Jit, O->EntryFunction);
  for (size_t I = 0; !Err && I < O->ThreadEntries.Size; ++I)
    Err = orc_rt_jit_Jit_startAtTier1(P->Jit, O->ThreadEntries.Items[I]);
  if (!Err)
    Err = orc_rt_jit_Jit_lookup(P->Jit, NULL, O->EntryFunction, EntryAddr);
  *CtorAddrs = calloc(P->Ctors.Size + 1, sizeof(uint64_t));
  P->DtorAddrs = calloc(P->Dtors.Size + 1, sizeof(uint64_t));
  *ThreadAddrs = calloc(O->ThreadEntries.Size + 1, sizeof(uint64_t));
  if (!Err && (!*CtorAddrs || !P->DtorAddrs || !*ThreadAddrs))
    Err = orc_rt_Error_create("out of memory");
  for (size_t I = 0; !Err && I < P->Ctors.Size; ++I)
    Err = orc_rt_jit_Jit_lookup(P->Jit, dylibOf(P, P->Ctors.Items[I].Module),
                                P->Ctors.Items[I].Symbol, &(*CtorAddrs)[I]);
  for (size_t I = 0; !Err && I < P->Dtors.Size; ++I)
    Err = orc_rt_jit_Jit_lookup(P->Jit, dylibOf(P, P->Dtors.Items[I].Module),
                                P->Dtors.Items[I].Symbol, &P->DtorAddrs[I]);
  for (size_t I = 0; !Err && I < O->ThreadEntries.Size; ++I)
    Err = orc_rt_jit_Jit_lookup(P->Jit, NULL, O->ThreadEntries.Items[I],
                                &(*ThreadAddrs)[I]);
  /* The program's error: what the JIT reported first, as lli prints it. */
  if (Err)
    Err = orc_rt_Error_join(orc_rt_jit_Jit_takeSessionErrors(
                                P->Jit, ORC_RT_JIT_SESSION_ERROR_BANNER),
                            Err);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Program_run(orc_rt_jit_Program *P, char **Envp,
                                       int *Status) {
  const orc_rt_jit_Options *O = P->Opts;
  uint64_t EntryAddr = 0, *CtorAddrs = NULL, *ThreadAddrs = NULL;
  orc_rt_ErrorRef Err = lookupAll(P, &EntryAddr, &CtorAddrs, &ThreadAddrs);
  char **Argv = Err ? NULL : calloc((size_t)O->ProgramArgc + 1, sizeof(char *));
  ThreadEntry *Threads =
      Err ? NULL : calloc(O->ThreadEntries.Size + 1, sizeof(*Threads));
  pthread_t *Tids =
      Err ? NULL : calloc(O->ThreadEntries.Size + 1, sizeof(*Tids));
  if (!Err && (!Argv || !Threads || !Tids))
    Err = orc_rt_Error_create("out of memory");
  if (Err) {
    free(CtorAddrs);
    free(ThreadAddrs);
    free(Argv);
    free(Threads);
    free(Tids);
    return Err;
  }
  orc_rt_jit_Jit_markRunning(P->Jit);
  orc_rt_jit_Runtime_setExit(exitFromJit, P);
  orc_rt_jit_Runtime_setQuickExit(quickExitFromJit, P);
  /* The program starts with the default floating-point environment, not
   * whatever the compiler left behind (e.g. a raised FE_INEXACT). */
  fesetenv(FE_DFL_ENV);

  /* Under the interpreter the destructors go to its atexit, before anything
   * of the program's, so its exit runs them after the handlers, as natively;
   * the driver then runs none itself. (Before any thread: no lock needed.) */
  uint64_t DeferAddr;
  size_t NumPrioritized = 0;
  while (NumPrioritized < P->Dtors.Size &&
         P->Dtors.Items[NumPrioritized].Priority < DefaultInitPriority)
    ++NumPrioritized;
  if (P->Dtors.Size &&
      orc_rt_jit_Jit_deferDtors(P->Jit, P->DtorAddrs, P->Dtors.Size,
                                NumPrioritized, &DeferAddr)) {
    P->NextDtor = P->Dtors.Size;
    runVoid(P, "atexit", DeferAddr);
  }

  /* Constructors, by priority. */
  for (size_t I = 0; I < P->Ctors.Size; ++I)
    runVoid(P, P->Ctors.Items[I].Symbol, CtorAddrs[I]);

  /* -thread-entry threads, each entering through the Session. */
  size_t Started = 0;
  for (size_t I = 0; I < O->ThreadEntries.Size; ++I) {
    Threads[I] = (ThreadEntry){P, O->ThreadEntries.Items[I], ThreadAddrs[I]};
    if (!orc_rt_Session_createManagedThread(P->S, &Tids[Started], NULL,
                                            runThreadEntry, &Threads[I]))
      ++Started;
  }

  /* The entry, as main(argc, argv, envp). */
  memcpy(Argv, O->ProgramArgv, (size_t)O->ProgramArgc * sizeof(char *));
  if (O->FakeArgv0)
    Argv[0] = (char *)O->FakeArgv0;
  /* (The interpreter's frames are LLVM's C++: nothing jumps over them.) */
  MainCall MC = {P->Jit,
                 EntryAddr,
                 O->ProgramArgc,
                 Argv,
                 Envp,
                 0,
                 O->Engine != orc_rt_jit_Engine_Interpreter,
                 false};
  if (!orc_rt_jit_LiveEntries_call(P->S, O->EntryFunction, EntryAddr, callMain,
                                   &MC))
    Err = orc_rt_Error_createf("entry into '%s' denied: shutdown of the "
                               "Session was requested before it ran",
                               O->EntryFunction);
  *Status = MC.Result;
  /* main ended with pthread_exit: as natively, the program lives on until
   * its last thread has ended, then ends as by exit(0). */
  if (MC.MainExited) {
    trace(P, "main called pthread_exit; waiting for the program's threads");
    orc_rt_jit_Runtime_waitForProgramThreads();
    *Status = 0;
  }

  for (size_t I = 0; I < Started; ++I)
    pthread_join(Tids[I], NULL);

  /* atexit handlers in reverse, then dtors; then shut down. */
  finishProgram(P, *Status);
  /* The interpreter ends the process here, through its exit: the program's
   * handlers, then the destructors (an entry like any other; it does not
   * return). It runs on this thread only, so P->Jit is gone only if the
   * program shut the Session down itself (then its code is freed and nothing
   * more can run). */
  if (O->Engine == orc_rt_jit_Engine_Interpreter && P->Jit) {
    EndCall EC = {P->Jit, *Status};
    if (!orc_rt_jit_LiveEntries_call(P->S, "exit", 0, callEnd, &EC))
      trace(P, "entry into 'exit' denied");
  }
  Err = orc_rt_Error_join(Err, requestShutdown(P));
  if (!O->Drain) {
    /* As the native program: it ends now, taking threads still inside JIT'd
     * code with it. Their code is never freed under them: if the drain did
     * not complete at once, the caller ends the process with the JIT still
     * in place. */
    if (!waitForDrain(P, 0)) {
      trace(P, "threads are still inside JIT'd code; ending the process "
               "without waiting for them");
      P->Abandoned = true;
    }
  } else {
    /* What the program wrote reaches its reader now, not after the drain: a
     * signal that ends the process while it waits loses nothing. */
    fflush(NULL);
    if (!waitForDrain(P, O->ShutdownTimeout)) {
      reportLiveEntries(P);
      P->Abandoned = true;
    }
  }
  free(CtorAddrs);
  free(ThreadAddrs);
  if (!P->Abandoned) /* live threads may still read argv */
    free(Argv);
  free(Threads);
  free(Tids);
  return Err;
}
