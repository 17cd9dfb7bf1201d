/*===- lib/jit/host/HostJit.c - orc_rt_Jit: a JIT owned by a Session ------===*/

#include "jit/compile/SymbolImport.h"
#include "jit/host/CodeMemory.h"
#include "jit/host/HostLazy.h"
#include "jit/host/HostModule.h"
#include "jit/host/HostReload.h"
#include "jit/host/HostTargetMachine.h"
#include "jit/host/HostThreadDtors.h"
#include "jit/host/HostVersion.h"
#include "jit/host/SessionErrors.h"
#include "jit/ir/EmuTLS.h"
#include "jit/ir/Module.h"
#include "jit/ir/WeakRefs.h"
#include "jit/support/AbsolutePath.h"
#include "jit/support/Diag.h"

#include <llvm-c/Error.h>
#include <llvm-c/Orc.h>
#include <llvm-c/OrcEE.h>
#include <llvm-c/Target.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void orc_rt_JitOptions_init(orc_rt_JitOptions *O) {
  *O = (orc_rt_JitOptions){.OptLevel = 2,
                           .Lazy = false,
                           .Tiered = false,
                           .TierUpThreshold = 0,
                           .ObjectCacheDir = NULL};
}

/*---- Compiling (cache/ModuleCache.h's callbacks) ----*/

static orc_rt_ErrorRef runPasses(LLVMModuleRef M, const char *Passes,
                                 void *Ctx) {
  orc_rt_JitRef J = Ctx;
  pthread_mutex_lock(&J->TMLock);
  orc_rt_ErrorRef Err = orc_rt_jit_runPasses(M, Passes, J->TM);
  pthread_mutex_unlock(&J->TMLock);
  return Err;
}

typedef struct {
  orc_rt_JitRef J;
  bool Volatile;
} WeakCheck;

/* For nulling a module's weak references to names nothing defines before
 * it is compiled (ir/WeakRefs.h: RuntimeDyld ends the process on a null
 * address). Decided by what is loaded now, so the code is not reused unless
 * the process alone decided it: a thread_local's control variable, null
 * when the process defines the variable natively (ir/EmuTLS.h), is too. */
static orc_rt_ErrorRef isDefined(const char *Name, bool *Found, void *Ctx) {
  WeakCheck *W = Ctx;
  static const char Control[] = "__emutls_v.";
  *Found = dlsym(RTLD_DEFAULT, Name) != NULL;
  if (*Found || (!strncmp(Name, Control, sizeof(Control) - 1) &&
                 dlsym(RTLD_DEFAULT, Name + sizeof(Control) - 1)))
    return NULL;
  *Found = orc_rt_jit_Host_isDefinedInJit(W->J, Name);
  W->Volatile = true;
  return NULL;
}

static orc_rt_ErrorRef nullMissingWeak(LLVMModuleRef M, orc_rt_JitRef J,
                                       bool *Volatile) {
  WeakCheck W = {J, false};
  orc_rt_ErrorRef Err = orc_rt_jit_nullUndefinedWeak(M, NULL, 0, isDefined, &W);
  *Volatile |= W.Volatile;
  return Err;
}

static orc_rt_ErrorRef compile(LLVMModuleRef M, orc_rt_jit_ObjectList *Out,
                               void *Ctx) {
  orc_rt_JitRef J = Ctx;
  LLVMSetDataLayout(M, J->DataLayout);
  if (!*LLVMGetTarget(M))
    LLVMSetTarget(M, J->Triple);
  /* No static TLS model without a platform runtime. */
  orc_rt_ErrorRef Err = orc_rt_jit_lowerEmulatedTLS(M);
  if (!Err)
    Err = nullMissingWeak(M, J, &Out->Volatile);
  if (Err)
    return Err;
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMDiagnosticHandler Old = LLVMContextGetDiagnosticHandler(C);
  void *OldCtx = LLVMContextGetDiagnosticContext(C);
  char *First = NULL;
  /* Inline assembly that does not assemble is the load's error. */
  LLVMContextSetDiagnosticHandler(C, orc_rt_jit_keepFirstError, &First);
  pthread_mutex_lock(&J->TMLock);
  Err = orc_rt_jit_compileModule(M, 0, 1, false, false, J->TM, NULL, NULL, Out);
  pthread_mutex_unlock(&J->TMLock);
  LLVMContextSetDiagnosticHandler(C, Old, OldCtx);
  size_t Len;
  const char *Name = LLVMGetModuleIdentifier(M, &Len);
  if (First && !Err)
    Err = orc_rt_Error_createf("%.*s: %s", (int)Len, Name, First);
  LLVMDisposeMessage(First);
  return Err;
}

/* A compiled module could not be written to the cache directory: it loads
 * anyway, and the host hears of it through the Session's error reporter. */
static void warnCache(orc_rt_ErrorRef Err, void *Ctx) {
  orc_rt_JitRef J = Ctx;
  orc_rt_Session_reportError(
      J->S, orc_rt_Error_createf("orc_rt_Jit: object cache: %s",
                                 orc_rt_Error_getMessage(Err)));
  orc_rt_Error_consume(Err);
}

/*---- What the modules' code needs from the Jit ----*/

/* A thread_local a module declares (ir/EmuTLS.h): another module's or the
 * process's (libstdc++'s call_once state, glibc's errno). A module declaring
 * one that nothing defines is refused at load (HostVersion.c), so this is a
 * backstop (a native library that defined it closed since): like a stale
 * call, that ends the process, with one line naming it. */
static void *tlsAddress(void *Ctl, const char *Name) {
  void *Addr = orc_rt_jit_emuTLSAddress(Ctl, Name);
  if (Addr)
    return Addr;
  fflush(stdout);
  fprintf(stderr, "orc-rt-c: error: thread_local variable '%s' not found\n",
          Name);
  abort();
}

/* Defines Name at Addr in J's main JITDylib (false: already defined). */
static bool defineInMain(orc_rt_JitRef J, const char *Name, void *Addr) {
  LLVMOrcCSymbolMapPair Pair;
  Pair.Name = LLVMOrcLLJITMangleAndIntern(J->LLJIT, Name);
  Pair.Sym = (LLVMJITEvaluatedSymbol){
      (uintptr_t)Addr,
      {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable,
       0}};
  LLVMOrcMaterializationUnitRef MU = LLVMOrcAbsoluteSymbols(&Pair, 1);
  LLVMErrorRef E =
      LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(J->LLJIT), MU);
  if (!E)
    return true;
  LLVMOrcDisposeMaterializationUnit(MU); /* the unit stays ours */
  LLVMConsumeError(E);
  return false;
}

/*---- Creating ----*/

/* The LLJIT's object layer: RuntimeDyld, into pages kept across unloads
 * (CodeMemory.h says why). */
static LLVMOrcObjectLayerRef createObjectLayer(void *Ctx,
                                               LLVMOrcExecutionSessionRef ES,
                                               const char *Triple) {
  orc_rt_JitRef J = Ctx;
  (void)Triple;
  return orc_rt_jit_CodeMemory_createLayer(J->CodeMem, ES);
}

static orc_rt_ErrorRef createLLJIT(orc_rt_JitRef J) {
  char *Msg = NULL;
  J->TM = orc_rt_jit_Host_createTM(J, J->Opts.OptLevel, &Msg);
  /* The LLJIT's own compiles are tier 0's when Tiered (the rest is ours). */
  LLVMTargetMachineRef ForJIT =
      J->TM ? orc_rt_jit_Host_createTM(J, J->Opts.Tiered ? 0 : J->Opts.OptLevel,
                                       &Msg)
            : NULL;
  if (!ForJIT) {
    orc_rt_ErrorRef Err =
        orc_rt_Error_createf("orc_rt_Jit_create: cannot target %s: %s",
                             J->Triple, Msg ? Msg : "no target machine");
    LLVMDisposeMessage(Msg);
    return Err;
  }
  if (!(J->CodeMem = orc_rt_jit_CodeMemory_create())) {
    LLVMDisposeTargetMachine(ForJIT);
    return orc_rt_Error_create("orc_rt_Jit_create: out of memory");
  }
  LLVMTargetDataRef DL = LLVMCreateTargetDataLayout(J->TM);
  J->DataLayout = LLVMCopyStringRepOfTargetData(DL);
  LLVMDisposeTargetData(DL);
  LLVMOrcLLJITBuilderRef B = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
      B, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(ForJIT));
  LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(B, createObjectLayer, J);
  orc_rt_ErrorRef Err = orc_rt_jit_fromLLVMError(
      LLVMOrcCreateLLJIT(&J->LLJIT, B), "orc_rt_Jit_create: ");
  if (Err)
    return Err;
  LLVMOrcExecutionSessionSetErrorReporter(
      LLVMOrcLLJITGetExecutionSession(J->LLJIT),
      orc_rt_jit_Host_reportSessionError, J);
  if (J->Opts.Tiered) {
    LLVMOrcIRTransformLayerSetTransform(
        LLVMOrcLLJITGetIRTransformLayer(J->LLJIT),
        orc_rt_jit_HostLazy_transform, J);
    LLVMOrcObjectTransformLayerSetTransform(
        LLVMOrcLLJITGetObjTransformLayer(J->LLJIT),
        orc_rt_jit_HostLazy_objectTransform, J);
  }
  /* The process's symbols, after the host's (which are defined in the main
   * JITDylib, and so found before any generator runs). */
  LLVMOrcDefinitionGeneratorRef G;
  Err = orc_rt_jit_fromLLVMError(
      LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
          &G, LLVMOrcLLJITGetGlobalPrefix(J->LLJIT), NULL, NULL),
      "orc_rt_Jit_create: ");
  if (!Err)
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(J->LLJIT), G);
  if (!Err &&
      !defineInMain(J, ORC_RT_JIT_TLS_ADDRESS, (void *)(uintptr_t)tlsAddress))
    Err = orc_rt_Error_create("orc_rt_Jit_create: cannot define the "
                              "thread_local helper");
  return Err;
}

static void disposeJit(orc_rt_JitRef J) {
  /* Before any version goes: a pinned one completes when unpinned. */
  orc_rt_jit_Host_cancelThreadDtors(J);
  /* Tiered versions' compile threads stop before their JITDylibs go. */
  for (orc_rt_jit_HostSlot *S = J->Opts.Tiered ? J->AllSlots : NULL; S;
       S = S->NextAll)
    if (S->Version)
      orc_rt_jit_HostLazy_stopTiers(S->Version);
  /* Lazy versions' JITDylibs refer to the lazy-call-through manager and to
   * their indirect stubs, which hold names from the JIT's symbol pool: clear
   * them, then free the managers (with the versions), then the JIT. */
  for (orc_rt_jit_HostSlot *S = J->LazyFailStub ? J->AllSlots : NULL; S;
       S = S->NextAll) {
    LLVMErrorRef E = LLVMOrcJITDylibClear(S->JD);
    if (E)
      LLVMConsumeError(E);
  }
  /* Modules unloaded after the Session's shutdown finalized them: their
   * OnFreed runs once their code is (here, or with the owner's LLJIT). */
  size_t NumFreed = 0;
  for (orc_rt_JitModuleRef M = J->Loaded; M; M = M->Next)
    NumFreed += M->OnFreed != NULL;
  struct {
    orc_rt_CallbackFn Fn;
    void *Ctx;
  } *Freed = NumFreed ? calloc(NumFreed, sizeof(*Freed)) : NULL;
  NumFreed = 0;
  for (orc_rt_JitModuleRef M = J->Loaded; M;) {
    orc_rt_JitModuleRef Next = M->Next;
    if (M->OnFreed && Freed) {
      Freed[NumFreed].Fn = M->OnFreed;
      Freed[NumFreed++].Ctx = M->OnFreedCtx;
    }
    orc_rt_jit_Host_freeModule(M);
    M = Next;
  }
  orc_rt_jit_PtrSet_freeInterned(&J->HostNames); /* (the LLJIT's pool's) */
  if (J->LLJIT && !J->Owned) { /* frees every module's code and data */
    LLVMErrorRef E = LLVMOrcDisposeLLJIT(J->LLJIT);
    if (E)
      LLVMConsumeError(E);
  }
  orc_rt_jit_CodeMemory_dispose(J->CodeMem); /* after every object went */
  for (size_t I = 0; I < NumFreed; ++I)
    Freed[I].Fn(Freed[I].Ctx);
  free(Freed);
  for (orc_rt_jit_HostSlot *S = J->AllSlots; S;) {
    orc_rt_jit_HostSlot *Next = S->NextAll;
    free(S);
    S = Next;
  }
  if (J->TM)
    LLVMDisposeTargetMachine(J->TM);
  orc_rt_jit_ModuleCache_dispose(&J->Cache);
  LLVMDisposeMessage(J->Triple);
  LLVMDisposeMessage(J->CPU);
  LLVMDisposeMessage(J->Features);
  LLVMDisposeMessage(J->DataLayout);
  free(J->Settings);
  free(J->CacheDir);
  free(J->SessionErrors);
  free(J->LazyFailure.Function);
  free(J->LazyFailure.Module);
  free(J->LazyFailure.Cause);
  pthread_mutex_destroy(&J->OwnLock);
  pthread_mutex_destroy(&J->SymLock);
  pthread_mutex_destroy(&J->TMLock);
  pthread_mutex_destroy(&J->CacheLock);
  orc_rt_jit_SerialCompile_dispose(&J->Serial);
  free(J);
}

/* Detach: the modules still loaded are finalized as at exit, their groups
 * closed (again for those their destructors load); the Session's drain then
 * waits for the calls inside them. */
static void onDetach(void *Ctx) {
  orc_rt_JitRef J = Ctx;
  /* This thread is outside every module frame below this one: a frame it
   * left with longjmp or an exception gives its token back here, or the
   * drain would wait for it forever. */
  orc_rt_jit_ModuleStubs_dropDeadFrames((uintptr_t)__builtin_frame_address(0));
  pthread_mutex_lock(J->Lock);
  orc_rt_jit_Host_finalizeAll(J);
  J->ShuttingDown = true;
  pthread_mutex_unlock(J->Lock);
}

/* After the drain: no frame is inside any module; the code goes (over
 * another's LLJIT: with it, later). */
static void onShutdown(void *Ctx) {
  orc_rt_JitRef J = Ctx;
  /* Added to a Session whose shutdown had begun: refused, and freed by the
   * creator (handTo). Acq_rel: pairs with handTo's exchange. */
  int Creating = 1;
  if (__atomic_compare_exchange_n(&J->Creating, &Creating, 2, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  if (J->Owned && J->Owner.OnGone)
    J->Owner.OnGone(J->Owner.Ctx);
  disposeJit(J);
}

static const orc_rt_ServiceVTable Service = {onDetach, onShutdown};

/* A Jit with its locks and options, nothing made yet. */
static orc_rt_JitRef newJit(orc_rt_SessionRef S,
                            const orc_rt_JitOptions *Opts) {
  orc_rt_JitRef J = calloc(1, sizeof(*J));
  if (!J)
    return NULL;
  pthread_mutexattr_t A;
  pthread_mutexattr_init(&A);
  pthread_mutexattr_settype(&A, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&J->OwnLock, &A);
  J->Lock = &J->OwnLock;
  pthread_mutexattr_destroy(&A);
  pthread_mutex_init(&J->SymLock, NULL);
  pthread_mutex_init(&J->TMLock, NULL);
  pthread_mutex_init(&J->CacheLock, NULL);
  orc_rt_jit_SerialCompile_init(&J->Serial);
  J->S = S;
  J->Opts = *Opts;
  return J;
}

/* Owned by S from here: freed at its shutdown, after the drain. A Session
 * whose managed-code group is closed refuses it: one waiting for its drain
 * would free it unused, one shut down already does so in addService (which
 * runs onShutdown at once), as may a shutdown racing with this on another
 * thread; onShutdown then leaves it to us (Creating). */
static orc_rt_ErrorRef handTo(orc_rt_SessionRef S, orc_rt_JitRef J,
                              orc_rt_JitRef *Result) {
  orc_rt_ErrorRef Err = NULL;
  bool Refused = orc_rt_Session_getState(S) == orc_rt_SessionState_ShuttingDown;
  if (!Refused) {
    __atomic_store_n(&J->Creating, 1, __ATOMIC_RELAXED);
    Err = orc_rt_Session_addService(S, &Service, J);
    /* Acq_rel: pairs with onShutdown's compare-exchange. */
    Refused =
        !Err && __atomic_exchange_n(&J->Creating, 0, __ATOMIC_ACQ_REL) == 2;
  }
  if (Refused)
    Err =
        orc_rt_Error_create("orc_rt_Jit_create: the Session is shutting down");
  if (Err) {
    disposeJit(J);
    return Err;
  }
  *Result = J;
  return NULL;
}

orc_rt_ErrorRef orc_rt_Jit_create(orc_rt_JitRef *Result, orc_rt_SessionRef S,
                                  const orc_rt_JitOptions *Opts) {
  orc_rt_JitOptions Defaults;
  orc_rt_JitOptions_init(&Defaults);
  if (!Opts)
    Opts = &Defaults;
  if (Opts->OptLevel > 3)
    return orc_rt_Error_createf("orc_rt_Jit_create: OptLevel %u is not 0-3",
                                Opts->OptLevel);
  if (Opts->Tiered && !Opts->OptLevel)
    return orc_rt_Error_create(
        "orc_rt_Jit_create: Tiered needs an OptLevel of 1-3 (the level of "
        "its optimized code); for quick code only, use Lazy with OptLevel 0");
  orc_rt_JitRef J = newJit(S, Opts);
  if (!J)
    return orc_rt_Error_create("orc_rt_Jit_create: out of memory");
  J->CacheDir = Opts->ObjectCacheDir
                    ? orc_rt_jit_absolutePath(Opts->ObjectCacheDir)
                    : NULL;
  J->Opts.ObjectCacheDir = J->CacheDir;
  if (J->Opts.OptLevel)
    snprintf(J->Passes, sizeof(J->Passes), "default<O%u>", J->Opts.OptLevel);
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  /* Inline assembly (module or function level) is parsed when an object is
   * emitted: without the parser LLVM aborts the process. */
  LLVMInitializeNativeAsmParser();
  J->Triple = LLVMGetDefaultTargetTriple();
  J->CPU = LLVMGetHostCPUName();
  J->Features = LLVMGetHostCPUFeatures();
  orc_rt_ErrorRef Err = NULL;
  if (Opts->ObjectCacheDir && !J->CacheDir)
    Err = orc_rt_Error_create("orc_rt_Jit_create: out of memory");
  if (!Err)
    Err = createLLJIT(J);
  if (!Err) {
    size_t N = strlen(J->Triple) + strlen(J->CPU) + strlen(J->Features) + 64;
    J->Settings = malloc(N);
    if (!J->Settings)
      Err = orc_rt_Error_create("orc_rt_Jit_create: out of memory");
    else
      snprintf(J->Settings, N, "host jit triple=%s cpu=%s features=%s O%u",
               J->Triple, J->CPU, J->Features, J->Opts.OptLevel);
  }
  if (Err) {
    disposeJit(J);
    return Err;
  }
  J->NullMissingWeak = nullMissingWeak;
  J->Compile =
      (orc_rt_jit_ModuleCompiler){.CodegenSettings = J->Settings,
                                  .Passes = J->Opts.OptLevel ? J->Passes : NULL,
                                  .Dir = J->CacheDir,
                                  .RunPasses = runPasses,
                                  .Compile = compile,
                                  .Warn = warnCache,
                                  .Ctx = J};
  return handTo(S, J, Result);
}

orc_rt_ErrorRef orc_rt_jit_Jit_createOver(orc_rt_JitRef *Result,
                                          orc_rt_SessionRef S,
                                          const orc_rt_jit_JitOwner *Owner) {
  orc_rt_JitOptions Opts;
  orc_rt_JitOptions_init(&Opts); /* (compiled as Owner->Compile says) */
  orc_rt_JitRef J = newJit(S, &Opts);
  if (!J)
    return orc_rt_Error_create("out of memory");
  J->Owned = true;
  J->Owner = *Owner;
  J->Lock = Owner->Lock;
  J->LLJIT = Owner->LLJIT;
  J->Compile = Owner->Compile;
  J->Settings = strdup(
      Owner->Compile.CodegenSettings ? Owner->Compile.CodegenSettings : "");
  if (!J->Settings) {
    disposeJit(J);
    return orc_rt_Error_create("out of memory");
  }
  return handTo(S, J, Result);
}

void orc_rt_Jit_getTierStats(orc_rt_JitRef J, orc_rt_JitTierStats *Out) {
  pthread_mutex_lock(&J->SymLock);
  *Out = J->RetiredTiers;
  for (orc_rt_jit_HostSlot *S = J->Opts.Tiered ? J->AllSlots : NULL; S;
       S = S->NextAll)
    if (S->Version)
      orc_rt_jit_HostLazy_addTierStats(S->Version, Out);
  pthread_mutex_unlock(&J->SymLock);
}

/*---- The host's symbols ----*/

orc_rt_ErrorRef orc_rt_Jit_addSymbol(orc_rt_JitRef J, const char *Name,
                                     void *Addr) {
  /* (The linker takes no null address: a weak reference to a name nothing
   * defines is made null before the link, ir/WeakRefs.h.) */
  if (!Addr)
    return orc_rt_Error_createf(
        "orc_rt_Jit_addSymbol: '%s': the address is NULL", Name);
  LLVMOrcSymbolStringPoolEntryRef E =
      LLVMOrcLLJITMangleAndIntern(J->LLJIT, Name);
  pthread_mutex_lock(&J->SymLock);
  bool Known = orc_rt_jit_PtrSet_has(&J->HostNames, E);
  int Put = Known ? 0 : orc_rt_jit_PtrSet_put(&J->HostNames, E, Addr);
  pthread_mutex_unlock(&J->SymLock);
  if (Put > 0)
    return NULL; /* (the set keeps E) */
  LLVMOrcReleaseSymbolStringPoolEntry(E);
  return Known ? orc_rt_Error_createf(
                     "orc_rt_Jit_addSymbol: '%s' is already defined", Name)
               : orc_rt_Error_createf(
                     "orc_rt_Jit_addSymbol: '%s': out of memory", Name);
}

void orc_rt_Jit_setStaleCallHandler(orc_rt_JitRef J, orc_rt_JitStaleCallFn Fn,
                                    void *Ctx) {
  pthread_mutex_lock(J->Lock);
  pthread_mutex_lock(&J->SymLock); /* (HostLazy.c reads them under it) */
  J->OnStale = Fn;
  J->StaleCtx = Ctx;
  pthread_mutex_unlock(&J->SymLock);
  pthread_mutex_unlock(J->Lock);
}

/*---- Loading ----*/

/* Path's bytes. Only a regular file: a device or a FIFO may never end (or
 * block), and a directory is no module. */
static orc_rt_ErrorRef readFile(const char *Fn, const char *Path,
                                LLVMMemoryBufferRef *Buf) {
  if (!Path)
    return orc_rt_Error_createf("%s: the path is NULL", Fn);
  struct stat St;
  if (stat(Path, &St))
    return orc_rt_Error_createf("%s: Could not open input file: %s", Path,
                                strerror(errno));
  if (!S_ISREG(St.st_mode))
    return orc_rt_Error_createf("%s: Could not open input file: %s", Path,
                                S_ISDIR(St.st_mode) ? "Is a directory"
                                                    : "not a regular file");
  return orc_rt_jit_readInput(Path, Buf);
}

/* Data's bytes, copied, named Name. */
static orc_rt_ErrorRef copyMemory(const char *Fn, const char *Name,
                                  const void *Data, size_t Size,
                                  LLVMMemoryBufferRef *Buf) {
  if (!Name)
    return orc_rt_Error_createf("%s: the name is NULL", Fn);
  if (!Data && Size)
    return orc_rt_Error_createf("%s: %s: the data is NULL", Fn, Name);
  *Buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(Data ? Data : "", Size, Name);
  return *Buf ? NULL : orc_rt_Error_createf("%s: out of memory", Name);
}

orc_rt_ErrorRef orc_rt_Jit_loadFile(orc_rt_JitRef J, const char *Path,
                                    orc_rt_JitModuleRef *Result) {
  LLVMMemoryBufferRef Buf;
  orc_rt_ErrorRef Err = readFile("orc_rt_Jit_loadFile", Path, &Buf);
  if (Err)
    return Err;
  return orc_rt_jit_Host_load(J, Path, Buf, Result);
}

orc_rt_ErrorRef orc_rt_Jit_loadMemory(orc_rt_JitRef J, const char *Name,
                                      const void *Data, size_t Size,
                                      orc_rt_JitModuleRef *Result) {
  LLVMMemoryBufferRef Buf;
  orc_rt_ErrorRef Err =
      copyMemory("orc_rt_Jit_loadMemory", Name, Data, Size, &Buf);
  if (Err)
    return Err;
  return orc_rt_jit_Host_load(J, Name, Buf, Result);
}

/*---- Reloading ----*/

orc_rt_ErrorRef orc_rt_JitModule_reloadFile(orc_rt_JitModuleRef M,
                                            const char *Path) {
  LLVMMemoryBufferRef Buf;
  orc_rt_ErrorRef Err = readFile("orc_rt_JitModule_reloadFile", Path, &Buf);
  if (Err)
    return Err;
  return orc_rt_jit_Host_reload(M, Buf, Path);
}

orc_rt_ErrorRef orc_rt_JitModule_reloadMemory(orc_rt_JitModuleRef M,
                                              const void *Data, size_t Size) {
  LLVMMemoryBufferRef Buf;
  orc_rt_ErrorRef Err =
      copyMemory("orc_rt_JitModule_reloadMemory", M->Name, Data, Size, &Buf);
  if (Err)
    return Err;
  return orc_rt_jit_Host_reload(M, Buf, M->Name);
}
