/*===- lib/jit/program/IRDlopen.c - dlopen and friends for LLVM IR modules ===*/
/* State (one program per process, so global):
 *
 *   Lock      recursive, like glibc's dl_load_lock: held by dlopen / dlclose
 *             across compiling, linking, constructors and destructors (which
 *             may dlopen / dlclose again on the same thread).
 *   SymLock   guards the list of loaded modules, their flags, exported
 *             addresses and dependencies, for readers that must not wait
 *             for a dlopen in progress: the definition generator of every
 *             module's JITDylib (which may run on a JIT thread while dlopen
 *             holds Lock), dlsym(RTLD_DEFAULT), exit's atexit handlers.
 *   Retired   modules whose group completed, waiting to be freed (by the
 *             next dl* call, a task on the Session's dispatcher, or the
 *             Session's onShutdown, whichever comes first).
 *
 * A module's life:
 *
 *   dlopen: compile (or take from the cache: cache/ModuleCache.h) -> link into a
 *     JITDylib -> nested group under the Session's -> stubs -> constructors
 *   dlclose to zero: destructors + its atexit handlers, under its tokens ->
 *     close its group -> (last token back) -> Retired -> JITDylib cleared
 *   exit, module still loaded: its pending atexit handlers run in the one
 *     list with the program's (RuntimeExit.c); then, at Session shutdown,
 *     its destructors in glibc's _dl_fini order (ModuleExitOrder.h) ->
 *     group closed "by shutdown": later calls run under the caller's
 *     Session token, and the code goes with the whole JIT after the drain. */

#include "jit/program/IRDlopen.h"
#include "jit/cache/ModuleCache.h"
#include "jit/host/ModuleLink.h"
#include "jit/ir/DlopenIR.h"
#include "jit/ir/Module.h"
#include "jit/modules/ModuleExitOrder.h"
#include "jit/modules/ModuleStubs.h"
#include "jit/program/LiveEntries.h"
#include "jit/program/ProgramRuntime.h"
#include "jit/program/RuntimeParts.h"
#include "jit/support/Diag.h"

#include "orc-rt-c/NestedGroup.h"

#include <llvm-c/Orc.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A JITDylib for one module at a time; cleared and reused after unloading. */
typedef struct Slot {
  LLVMOrcJITDylibRef JD;
  struct Module *Owner; /* the module linked into JD; under SymLock */
  struct Slot *NextFree;
} Slot;

typedef struct Module {
  orc_rt_jit_StubModule *Id; /* permanent: the stubs point at it */
  orc_rt_TaskGroupRef Group;
  Slot *Slot;
  dev_t Dev;
  ino_t Ino;
  unsigned Refs;
  bool Global, NoDelete;
  bool Finalizing; /* destructors running: hidden from dlopen / dlsym */
  bool ByShutdown; /* closed by Session shutdown: freed with the JIT */
  /* Its load order and the modules it bound symbols from (glibc's reldeps);
   * the dependencies under SymLock. */
  orc_rt_jit_ExitOrderNode Order;
  orc_rt_jit_CompiledModule *Code;
  orc_rt_jit_LinkedModule Link; /* entries, constructors, destructors */
  char Dso; /* its __dso_handle: its atexit handlers carry it */
  struct Module *Next;
} Module;

static pthread_mutex_t Lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static _Thread_local unsigned LockDepth;
static pthread_mutex_t SymLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t RetiredLock = PTHREAD_MUTEX_INITIALIZER;

static orc_rt_SessionRef Sess;
static orc_rt_jit_Jit *Jit;
static const orc_rt_jit_Options *Opts;
static bool JitGone;                 /* under Lock */
static Module *Loaded;               /* newest first; under Lock and SymLock */
static Module *Retired;              /* under RetiredLock */
static Slot *FreeSlots;              /* under Lock */
static unsigned NumSlots;            /* under Lock */
static orc_rt_jit_ModuleCache Cache; /* under Lock */
static unsigned long NextSerial;     /* under Lock */

/* -trace-shutdown also traces modules' unloading. */
static void trace(const char *What, const char *Path) {
  if (!Opts || !Opts->TraceShutdown)
    return;
  fflush(stdout);
  fprintf(stderr, "mini-lli: dlclose: '%s': %s\n", Path, What);
  fflush(stderr);
}

static void lock(void) {
  pthread_mutex_lock(&Lock);
  ++LockDepth;
}

static void sweep(void);

static void unlock(void) {
  if (LockDepth == 1)
    sweep();
  --LockDepth;
  pthread_mutex_unlock(&Lock);
}

/*---- dlerror ----*/

/* glibc's dlerror string stays valid until the next dlerror call on the
 * thread: one buffer for the pending message, one for the returned one. */
static _Thread_local char PendingErr[2048], ReturnedErr[2048];
static _Thread_local bool HavePending;

static void setError(const char *Fmt, ...)
    __attribute__((format(printf, 1, 2)));
static void setError(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  vsnprintf(PendingErr, sizeof(PendingErr), Fmt, Args);
  va_end(Args);
  /* One line, as glibc's: ORC follows "Symbols not found" with a line
   * about what could therefore not be materialized. */
  char *NL = strchr(PendingErr, '\n');
  if (NL)
    *NL = 0;
  HavePending = true;
}

static void setErrorFrom(const char *Path, orc_rt_ErrorRef Err) {
  /* The cause first: what the JIT reported while linking ("Symbols not found:
   * [ f ]"), bare -- the file is the context here, as in glibc's messages. */
  Err = orc_rt_Error_join(orc_rt_jit_Jit_takeSessionErrors(Jit, NULL), Err);
  const char *Msg = orc_rt_Error_getMessage(Err);
  /* Parser messages already start with the file name. */
  if (!strncmp(Msg, Path, strlen(Path)))
    setError("%s", Msg);
  else
    setError("%s: %s", Path, Msg);
  orc_rt_Error_consume(Err);
}

char *orc_rt_jit_dlerror(void) {
  if (!HavePending)
    return dlerror();
  HavePending = false;
  memcpy(ReturnedErr, PendingErr, sizeof(ReturnedErr));
  return ReturnedErr;
}

/*---- Finding modules ----*/

static bool isOurs(void *Handle) {
  for (Module *M = Loaded; M; M = M->Next)
    if (M == Handle)
      return true;
  return false;
}

/* Under SymLock. */
static bool findExport(Module *M, const char *Name, uint64_t *Addr) {
  for (size_t I = 0; I < M->Code->Exports.Size; ++I)
    if (!strcmp(M->Code->Exports.Items[I].Name, Name)) {
      *Addr = M->Link.ExportAddrs[I];
      return true;
    }
  return false;
}

/* Under SymLock: the RTLD_GLOBAL modules, oldest first (glibc's order).
 * *From (if not NULL) is the module that defines it. */
static bool findGlobal(const char *Name, uint64_t *Addr, Module **From) {
  bool Found = false;
  for (Module *M = Loaded; M; M = M->Next)
    if (M->Global && !M->Finalizing && findExport(M, Name, Addr)) {
      Found = true; /* keep going: the oldest wins */
      if (From)
        *From = M;
    }
  return Found;
}

/*---- Resolving a module's undefined symbols ----*/

/* Under SymLock: an RTLD_GLOBAL module's export; the module being linked in
 * the slot records that it bound it. */
static bool findForSlot(const char *Name, uint64_t *Addr, void *Ctx) {
  Slot *S = Ctx;
  Module *From;
  if (!findGlobal(Name, Addr, &From))
    return false;
  if (S->Owner)
    orc_rt_jit_ExitOrderNode_addDep(&S->Owner->Order, &From->Order);
  return true;
}

/* A module's JITDylib has one generator: names it does not define come from
 * the RTLD_GLOBAL modules (their stubs), else from the program's JITDylib
 * (the program, the driver's definitions, the process). */
static LLVMErrorRef generate(LLVMOrcDefinitionGeneratorRef G, void *Ctx,
                             LLVMOrcLookupStateRef *State,
                             LLVMOrcLookupKind Kind, LLVMOrcJITDylibRef JD,
                             LLVMOrcJITDylibLookupFlags Flags,
                             LLVMOrcCLookupSet Set, size_t N) {
  (void)G, (void)Kind, (void)Flags;
  return orc_rt_jit_generateFromModules(
      LLVMOrcLLJITGetExecutionSession(orc_rt_jit_Jit_llJIT(Jit)), JD, State,
      Set, N, &SymLock, findForSlot, Ctx, orc_rt_jit_Jit_programDylib(Jit));
}

static Slot *takeSlot(void) {
  if (FreeSlots) {
    Slot *S = FreeSlots;
    FreeSlots = S->NextFree;
    return S;
  }
  Slot *S = calloc(1, sizeof(*S));
  if (!S)
    return NULL;
  char Name[64];
  snprintf(Name, sizeof(Name), "<dlopen %u>", NumSlots++);
  LLVMOrcExecutionSessionRef ES =
      LLVMOrcLLJITGetExecutionSession(orc_rt_jit_Jit_llJIT(Jit));
  S->JD = LLVMOrcExecutionSessionCreateBareJITDylib(ES, Name);
  LLVMOrcJITDylibAddGenerator(
      S->JD, LLVMOrcCreateCustomCAPIDefinitionGenerator(generate, S, NULL));
  return S;
}

/* Empties the slot's JITDylib (freeing the code) and keeps it for reuse. */
static void releaseSlot(Slot *S) {
  pthread_mutex_lock(&SymLock);
  S->Owner = NULL;
  pthread_mutex_unlock(&SymLock);
  LLVMErrorRef E = LLVMOrcJITDylibClear(S->JD);
  if (E) {
    char *Msg = LLVMGetErrorMessage(E);
    fprintf(stderr, "mini-lli: warning: unloading a module: %s\n", Msg);
    LLVMDisposeErrorMessage(Msg);
  }
  S->NextFree = FreeSlots;
  FreeSlots = S;
}

/*---- Calling into a module ----*/

typedef struct {
  Module *M;
  void (*Fn)(void *);
  void *Arg;
  bool NoArg;
} ModuleCall;

/* Runs under a Session token (orc_rt_jit_LiveEntries_call) and the module's. */
static void callInModule(void *Ctx) {
  ModuleCall *C = Ctx;
  if (!orc_rt_TaskGroup_acquireToken(C->M->Group))
    return;
  if (C->NoArg)
    ((void (*)(void))C->Fn)();
  else
    C->Fn(C->Arg);
  orc_rt_TaskGroup_releaseToken(C->M->Group);
}

static void runInModule(Module *M, const char *What, uint64_t Addr,
                        void (*Fn)(void *), void *Arg, bool NoArg) {
  ModuleCall C = {M, Fn, Arg, NoArg};
  orc_rt_jit_LiveEntries_call(Sess, What, Addr, callInModule, &C);
}

static void runDtors(Module *M, bool Prioritized) {
  const orc_rt_jit_InitList *D = &M->Code->Dtors;
  for (size_t I = D->Size; I-- > 0;)
    if ((D->Items[I].Priority != 65535) == Prioritized)
      runInModule(M, D->Items[I].Symbol, M->Link.DtorAddrs[I],
                  (void (*)(void *))(uintptr_t)M->Link.DtorAddrs[I], NULL,
                  true);
}

/* As glibc's dlclose: the .fini_array runs backwards, and in it (in
 * crtbegin's __do_global_dtors_aux, which sits between the prioritized and
 * the other entries) __cxa_finalize runs the module's atexit handlers, newest
 * first, including ones registered meanwhile. */
static void finalize(Module *M) {
  pthread_mutex_lock(&SymLock);
  M->Finalizing = true;
  pthread_mutex_unlock(&SymLock);
  runDtors(M, false);
  orc_rt_jit_Handler H;
  while (orc_rt_jit_Runtime_popHandlerOf(&M->Dso, &H))
    runInModule(M, "atexit handler", (uintptr_t)H.Fn, H.Fn, H.Arg, H.NoArg);
  runDtors(M, true);
}

/*---- Unloading ----*/

static void freeModule(Module *M) {
  if (M->Slot)
    releaseSlot(M->Slot);
  orc_rt_TaskGroup_destroy(M->Group);
  orc_rt_jit_LinkedModule_dispose(&M->Link);
  orc_rt_jit_ExitOrderNode_dispose(&M->Order);
  free(M);
}

/* Under Lock: frees what has retired (unless the JIT is gone: its code went
 * with it, and the modules closed by shutdown keep theirs until then). */
static void sweep(void) {
  pthread_mutex_lock(&RetiredLock);
  Module *List = Retired;
  Retired = NULL;
  pthread_mutex_unlock(&RetiredLock);
  while (List) {
    Module *M = List;
    List = M->Next;
    if (JitGone || M->ByShutdown)
      M->Slot = NULL;
    if (M->Id && M->Slot)
      trace("last token back; code and data freed", M->Id->Path);
    freeModule(M);
  }
}

static void sweepTask(void *Ctx) {
  (void)Ctx;
  lock();
  unlock(); /* sweeps */
}

/* The module's group completed: no frame is inside its code any more. Runs
 * on the completing thread, which may be inside other JIT'd code: the work
 * is handed to the next dl* call on this thread or to the dispatcher. */
static void onModuleComplete(void *Ctx) {
  Module *M = Ctx;
  pthread_mutex_lock(&RetiredLock);
  M->Next = Retired;
  Retired = M;
  pthread_mutex_unlock(&RetiredLock);
  if (LockDepth || M->ByShutdown)
    return; /* swept when this thread unlocks / by onShutdown */
  orc_rt_TaskRef T = orc_rt_Task_create(sweepTask, NULL, NULL);
  if (T)
    orc_rt_Session_dispatch(Sess, T);
}

static void unlist(Module *M) {
  pthread_mutex_lock(&SymLock);
  for (Module **P = &Loaded; *P; P = &(*P)->Next)
    if (*P == M) {
      *P = M->Next;
      break;
    }
  pthread_mutex_unlock(&SymLock);
}

/* Under Lock: another loaded module bound symbols from M. */
static bool isNeeded(const Module *M) {
  bool Needed = false;
  pthread_mutex_lock(&SymLock);
  for (const Module *N = Loaded; N && !Needed; N = N->Next)
    Needed = orc_rt_jit_ExitOrderNode_uses(&N->Order, &M->Order);
  pthread_mutex_unlock(&SymLock);
  return Needed;
}

/* Under Lock: runs M's destructors and handlers, and denies new entries; the
 * code goes once the last token is back (at once if none is out). */
static void unload(Module *M) {
  finalize(M);
  unlist(M);
  trace("destructors done; new entries denied", M->Id->Path);
  orc_rt_TaskGroup_close(M->Group);
}

__attribute__((noinline)) int orc_rt_jit_dlclose(void *Handle) {
  /* A frame this thread left without returning (an exception, longjmp) still
   * holds its module's token: give it back now, or the module would stay
   * mapped until shutdown. JIT'd code calls this function directly, so its
   * caller resumes just above our return address; a frame still live on this
   * stack (dlclose called from inside a module) resumes above that. */
  orc_rt_jit_ModuleStubs_dropDeadFrames((uintptr_t)__builtin_frame_address(0) +
                                        2 * sizeof(void *));
  lock();
  if (!isOurs(Handle)) {
    unlock();
    HavePending = false;
    return dlclose(Handle);
  }
  Module *M = Handle;
  if (M->Finalizing || !M->Refs) {
    setError("%s: %s", M->Id->Path,
             M->Finalizing ? "dlclose: the module is being unloaded"
                           : "shared object not open"); /* glibc's */
    unlock();
    return -1;
  }
  if (--M->Refs || M->NoDelete) {
    unlock();
    return 0;
  }
  /* As glibc's reldeps: a module whose symbols another loaded module bound
   * stays loaded (its data may be referenced from there) until that one is
   * unloaded; then it goes too, after it. */
  if (isNeeded(M)) {
    trace("count zero; kept loaded for a module that uses its symbols",
          M->Id->Path);
    unlock();
    return 0;
  }
  unload(M);
  for (bool Again = true; Again;) {
    Again = false;
    Module *Oldest = NULL;
    for (Module *N = Loaded; N; N = N->Next)
      if (!N->Refs && !N->NoDelete && !N->Finalizing && !isNeeded(N))
        Oldest = N; /* the list is newest first: glibc's order */
    if (Oldest) {
      unload(Oldest);
      Again = true;
    }
  }
  unlock();
  return 0;
}

/*---- Loading ----*/

/* host/ModuleLink.h's ways into the program's JIT. */
static orc_rt_ErrorRef addObjects(LLVMOrcJITDylibRef JD,
                                  const LLVMMemoryBufferRef *Objects, size_t N,
                                  void *Ctx) {
  (void)Ctx;
  return orc_rt_jit_Jit_addObjectsTo(Jit, JD, Objects, N);
}

static orc_rt_ErrorRef lookupIn(LLVMOrcJITDylibRef JD, const char *const *Names,
                                size_t N, uint64_t *Addrs, void *Ctx) {
  (void)Ctx;
  return orc_rt_jit_Jit_lookupIn(Jit, JD, Names, N, Addrs);
}

static orc_rt_ErrorRef makeId(Module *M, const char *Path) {
  orc_rt_jit_StubModule *Id = calloc(1, sizeof(*Id));
  char *P = strdup(Path);
  orc_rt_TokenSourceRef TS =
      Id && P ? orc_rt_TaskGroup_getTokenSource(M->Group) : NULL;
  if (!TS) {
    free(Id);
    free(P);
    return orc_rt_Error_create("out of memory");
  }
  *Id = (orc_rt_jit_StubModule){.Tokens = TS, .Group = M->Group, .Path = P};
  M->Id = Id; /* permanent from here */
  return NULL;
}

typedef enum { Kind_Native, Kind_IR, Kind_Error } FileKind;

static bool hasIRSuffix(const char *Path) {
  size_t N = strlen(Path);
  return N > 3 &&
         (!strcmp(Path + N - 3, ".ll") || !strcmp(Path + N - 3, ".bc"));
}

/* IR is recognised by content: bitcode by its magic (raw or wrapped), text
 * if the file is not ELF and its first 4 KiB hold no NUL byte. */
static FileKind classify(const char *Path, struct stat *St) {
  int FD = open(Path, O_RDONLY | O_CLOEXEC);
  if (FD < 0) {
    if (!hasIRSuffix(Path))
      return Kind_Native; /* the real dlopen searches and reports */
    setError("%s: cannot open module: %s", Path, strerror(errno));
    return Kind_Error;
  }
  unsigned char Head[4096];
  ssize_t N = read(FD, Head, sizeof(Head));
  int ReadErr = errno;
  bool Stat = !fstat(FD, St);
  close(FD);
  if (N < 0 || !Stat) {
    setError("%s: cannot read module: %s", Path,
             strerror(N < 0 ? ReadErr : errno));
    return Kind_Error;
  }
  if (N >= 4 && !memcmp(Head,
                        "\x7f"
                        "ELF",
                        4))
    return Kind_Native;
  if (N >= 4 &&
      (!memcmp(Head, "BC\xc0\xde", 4) || !memcmp(Head, "\xde\xc0\x17\x0b", 4)))
    return Kind_IR;
  if (memchr(Head, 0, (size_t)N))
    return hasIRSuffix(Path) ? (setError("%s: not an LLVM IR module (neither "
                                         "bitcode nor text)",
                                         Path),
                                Kind_Error)
                             : Kind_Native;
  return Kind_IR;
}

static Module *findLoaded(const struct stat *St) {
  for (Module *M = Loaded; M; M = M->Next)
    if (!M->Finalizing && M->Dev == St->st_dev && M->Ino == St->st_ino)
      return M;
  return NULL;
}

/*---- Compiling (or taking from the cache) ----*/

static orc_rt_ErrorRef runPasses(LLVMModuleRef M, const char *Passes,
                                 void *Ctx) {
  (void)Ctx;
  LLVMTargetMachineRef TM = orc_rt_jit_Jit_createTargetMachine(Jit);
  orc_rt_ErrorRef Err = orc_rt_jit_runPasses(M, Passes, TM);
  if (TM)
    LLVMDisposeTargetMachine(TM);
  return Err;
}

static orc_rt_ErrorRef compileObjects(LLVMModuleRef M,
                                      orc_rt_jit_ObjectList *Out, void *Ctx) {
  (void)Ctx;
  return orc_rt_jit_Jit_compileObjects(Jit, M, Out);
}

static void warnCache(orc_rt_ErrorRef Err, void *Ctx) {
  (void)Ctx;
  fprintf(stderr, "mini-lli: warning: object cache: %s\n",
          orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
}

/* Under Lock. */
static orc_rt_ErrorRef compileModule(const char *Path,
                                     orc_rt_jit_CompiledModule **Out) {
  LLVMMemoryBufferRef Buf;
  orc_rt_ErrorRef Err = orc_rt_jit_readInput(Path, &Buf);
  if (Err)
    return Err;
  /* -enable-cache-manager makes the directory lli's cache, whose files hold
   * one object and nothing else (LLICache.h): modules are not stored there. */
  orc_rt_jit_ModuleCompiler By = {
      .CodegenSettings = orc_rt_jit_Jit_codegenSettings(Jit),
      .Passes = Opts->Passes,
      .Dir = Opts->EnableCacheManager ? NULL : Opts->ObjectCacheDir,
      .RunPasses = runPasses,
      .Compile = compileObjects,
      .Warn = warnCache};
  return orc_rt_jit_ModuleCache_get(&Cache, &By, Path, Buf, Out);
}

static Module *load(const char *Path, const struct stat *St) {
  Module *M = calloc(1, sizeof(*M));
  if (!M) {
    setError("%s: out of memory", Path);
    return NULL;
  }
  M->Dev = St->st_dev;
  M->Ino = St->st_ino;
  M->Order.Serial = ++NextSerial;
  orc_rt_ErrorRef Err = compileModule(Path, &M->Code);
  if (!Err && !(M->Slot = takeSlot()))
    Err = orc_rt_Error_create("out of memory");
  if (!Err) {
    pthread_mutex_lock(&SymLock);
    M->Slot->Owner = M;
    pthread_mutex_unlock(&SymLock);
  }
  if (!Err)
    Err = orc_rt_TaskGroup_createNested(
        &M->Group, orc_rt_Session_managedCodeTokenSource(Sess),
        onModuleComplete, M);
  if (!Err)
    Err = makeId(M, Path);
  if (!Err) {
    M->Link = (orc_rt_jit_LinkedModule){.LLJIT = orc_rt_jit_Jit_llJIT(Jit),
                                        .JD = M->Slot->JD,
                                        .Code = M->Code,
                                        .Id = M->Id,
                                        .DsoHandle = &M->Dso,
                                        .AddObjects = addObjects,
                                        .Lookup = lookupIn};
    Err = orc_rt_jit_LinkedModule_link(&M->Link);
  }
  if (Err) {
    setErrorFrom(Path, Err);
    if (M->Group) { /* completes at once: retired, swept by unlock */
      orc_rt_TaskGroup_close(M->Group);
      return NULL;
    }
    freeModule(M);
    return NULL;
  }
  M->Refs = 1;
  pthread_mutex_lock(&SymLock);
  M->Next = Loaded;
  Loaded = M;
  pthread_mutex_unlock(&SymLock);
  const orc_rt_jit_InitList *C = &M->Code->Ctors;
  for (size_t I = 0; I < C->Size; ++I)
    runInModule(M, C->Items[I].Symbol, M->Link.CtorAddrs[I],
                (void (*)(void *))(uintptr_t)M->Link.CtorAddrs[I], NULL, true);
  return M;
}

void *orc_rt_jit_dlopen(const char *Path, int Flags) {
  if (!Path) {
    HavePending = false;
    return dlopen(Path, Flags);
  }
  struct stat St;
  FileKind K = classify(Path, &St);
  if (K == Kind_Native) {
    HavePending = false;
    return dlopen(Path, Flags);
  }
  if (K == Kind_Error)
    return NULL;
  if (!(Flags & (RTLD_LAZY | RTLD_NOW))) {
    setError("%s: invalid mode for dlopen(): Invalid argument", Path);
    return NULL;
  }
  if (Opts->Engine == orc_rt_jit_Engine_MCJIT ||
      Opts->Engine == orc_rt_jit_Engine_Interpreter) {
    /* Modules get a JITDylib, stubs and a task group of their own: LLJIT's. */
    setError("%s: LLVM IR modules can be dlopen'ed only under -jit-kind=orc "
             "or orc-lazy",
             Path);
    return NULL;
  }
  lock();
  if (JitGone) {
    setError("%s: cannot load a module after the program's JIT was freed",
             Path);
    unlock();
    return NULL;
  }
  Module *M = findLoaded(&St);
  if (M) {
    ++M->Refs;
  } else if (!(Flags & RTLD_NOLOAD)) {
    M = load(Path, &St);
  }
  if (M) {
    pthread_mutex_lock(&SymLock);
    M->Global |= (Flags & RTLD_GLOBAL) != 0; /* never demoted, as glibc */
    M->NoDelete |= (Flags & RTLD_NODELETE) != 0;
    pthread_mutex_unlock(&SymLock);
  }
  unlock();
  return M;
}

void *orc_rt_jit_dlsym(void *Handle, const char *Name) {
  uint64_t Addr;
  if (Handle == RTLD_DEFAULT) {
    pthread_mutex_lock(&SymLock);
    bool Found = findGlobal(Name, &Addr, NULL);
    pthread_mutex_unlock(&SymLock);
    if (Found)
      return (void *)(uintptr_t)Addr;
  }
  pthread_mutex_lock(&SymLock);
  bool Ours = Handle != RTLD_DEFAULT && Handle != RTLD_NEXT && isOurs(Handle);
  bool Found = Ours && !((Module *)Handle)->Finalizing &&
               findExport(Handle, Name, &Addr);
  const char *Path = Ours ? ((Module *)Handle)->Id->Path : NULL;
  if (Ours && !Found)
    setError("%s: undefined symbol: %s", Path, Name);
  pthread_mutex_unlock(&SymLock);
  if (Ours)
    return Found ? (void *)(uintptr_t)Addr : NULL;
  HavePending = false;
  return dlsym(Handle, Name);
}

int orc_rt_jit_dladdr(const void *Addr, Dl_info *Info) {
  const char *Name;
  const orc_rt_jit_StubModule *M;
  if (orc_rt_jit_ModuleStubs_lookup((uintptr_t)Addr, &Name, &M)) {
    Info->dli_fname = M->Path;
    Info->dli_fbase = NULL; /* a module has no single base address */
    Info->dli_sname = Name;
    Info->dli_saddr = (void *)Addr;
    return 1;
  }
  return dladdr(Addr, Info);
}

int orc_rt_jit_dlinfo(void *Handle, int Request, void *Arg) {
  pthread_mutex_lock(&SymLock);
  bool Ours = isOurs(Handle);
  const char *Path = Ours ? ((Module *)Handle)->Id->Path : NULL;
  pthread_mutex_unlock(&SymLock);
  if (!Ours) {
    HavePending = false;
    return dlinfo(Handle, Request, Arg);
  }
  if (Request == RTLD_DI_ORIGIN) {
    char Dir[PATH_MAX];
    if (!realpath(Path, Dir)) {
      setError("%s: dlinfo: %s", Path, strerror(errno));
      return -1;
    }
    char *Slash = strrchr(Dir, '/');
    if (Slash)
      *(Slash == Dir ? Slash + 1 : Slash) = 0;
    strcpy(Arg, Dir);
    return 0;
  }
  setError("%s: dlinfo: request %d is not supported for an LLVM IR module "
           "(only RTLD_DI_ORIGIN)",
           Path, Request);
  return -1;
}

size_t orc_rt_jit_Dlopen_reportLiveFrames(FILE *Out) {
  return orc_rt_jit_ModuleStubs_reportLiveFrames(Out);
}

/*---- Exit ----*/

bool orc_rt_jit_Dlopen_runHandler(const orc_rt_jit_Handler *H) {
  pthread_mutex_lock(&SymLock);
  Module *M = Loaded;
  while (M && &M->Dso != H->Dso)
    M = M->Next;
  /* A listed module's group is not closed yet (dlclose unlists it first):
   * this token keeps it from being freed until the handler is done. */
  bool Pinned = M && orc_rt_TaskGroup_acquireToken(M->Group);
  pthread_mutex_unlock(&SymLock);
  if (!M)
    return false;
  if (Pinned) {
    runInModule(M, "atexit handler", (uintptr_t)H->Fn, H->Fn, H->Arg, H->NoArg);
    orc_rt_TaskGroup_releaseToken(M->Group);
  }
  return true;
}

static Module *moduleOf(orc_rt_jit_ExitOrderNode *Node) {
  return (Module *)((char *)Node - offsetof(Module, Order));
}

/* Under Lock: the N loaded modules in glibc's _dl_fini order
 * (ModuleExitOrder.h), ByAge the room to sort them in. */
static void finiOrder(orc_rt_jit_ExitOrderNode **Out,
                      orc_rt_jit_ExitOrderNode **ByAge, size_t N) {
  pthread_mutex_lock(&SymLock);
  size_t I = N;
  for (Module *M = Loaded; M; M = M->Next)
    ByAge[--I] = &M->Order; /* Loaded is newest first */
  orc_rt_jit_ExitOrder_sort(Out, ByAge, N);
  pthread_mutex_unlock(&SymLock);
}

static void finalizeByShutdown(Module *M) {
  finalize(M);
  unlist(M);
  M->ByShutdown = true;
  __atomic_store_n(&M->Id->ClosedByShutdown, true, __ATOMIC_RELEASE);
  orc_rt_TaskGroup_close(M->Group);
}

/* Shutdown was requested (the program's atexit handlers, the modules' among
 * them, and the program's destructors have run): the modules still loaded
 * are finalized in glibc's _dl_fini order, and their groups closed so the
 * drain can end. */
static void onDetach(void *Ctx) {
  (void)Ctx;
  /* This thread (typically the one that ran the entry) is outside every
   * module now: a frame it left with longjmp gives its token back here, or
   * the drain would wait for it forever. */
  orc_rt_jit_ModuleStubs_dropDeadFrames((uintptr_t)__builtin_frame_address(0));
  lock();
  /* Again for modules that destructors opened. */
  while (Loaded) {
    size_t N = 0;
    for (Module *M = Loaded; M; M = M->Next)
      ++N;
    orc_rt_jit_ExitOrderNode **Order = calloc(2 * N, sizeof(*Order));
    if (!Order) { /* the oldest first, then */
      Module *M = Loaded;
      while (M->Next)
        M = M->Next;
      finalizeByShutdown(M);
      continue;
    }
    finiOrder(Order, Order + N, N);
    for (size_t I = 0; I < N; ++I)
      if (isOurs(moduleOf(Order[I]))) /* a destructor may have closed it */
        finalizeByShutdown(moduleOf(Order[I]));
    free(Order);
  }
  unlock();
}

/*---- The Session service ----*/

/* After the drain, before the JIT is freed: no module has a token out. */
static void onShutdown(void *Ctx) {
  (void)Ctx;
  lock();
  JitGone = true;
  unlock(); /* sweeps, without touching the JITDylibs */
  lock();
  orc_rt_jit_ModuleCache_dispose(&Cache);
  while (FreeSlots) {
    Slot *S = FreeSlots;
    FreeSlots = S->NextFree;
    free(S);
  }
  unlock();
}

static const orc_rt_ServiceVTable Service = {onDetach, onShutdown};

orc_rt_ErrorRef orc_rt_jit_Dlopen_attach(orc_rt_SessionRef S, orc_rt_jit_Jit *J,
                                         const orc_rt_jit_Options *O) {
  Sess = S;
  Jit = J;
  Opts = O;
  return orc_rt_Session_addService(S, &Service, NULL);
}
