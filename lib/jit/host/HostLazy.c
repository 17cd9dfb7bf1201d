/*===- lib/jit/host/HostLazy.c - Host modules compiled function by function ===*/
/* orc_rt_JitOptions.Lazy and Tiered. A version's module is prepared as an
 * eagerly compiled one is (cache/ModuleCache.h: initializers, exports,
 * escaping functions routed through stubs) but not optimized, then cut up
 * as mini-lli's orc-lazy cuts (compile/LazySplit.h). Lazy optimizes each
 * body's module with the Jit's pipeline when it is compiled, as LLVM's
 * compile-on-demand layer does a partition: a load costs no whole-module
 * optimization (on SQLite, 10 s of a 19 s load at -O2), and no function is
 * inlined into another (a body's callees are declarations there). Tiered
 * leaves optimizing to tier 1 (tier/Tiers.h, below):
 *
 *   load:   what holds the variables (and a module that cannot be cut) is
 *           compiled now; every function body waits in the version's
 *           JITDylib, each name a lazy reexport of its body (the Jit's
 *           lazy-call-through manager, the version's indirect stubs). The
 *           symbols the module uses are looked up before the load returns,
 *           so a missing one fails the load (or the reload), not a call.
 *   call:   a body is compiled on the thread that first calls it (under the
 *           entry's token: the version cannot be freed meanwhile), with the
 *           Jit's target machine under TMLock, and linked into the version's
 *           JITDylib; later calls jump straight to it. With an object cache
 *           (Lazy), each body's object and the load's are kept by the
 *           content of their modules (compileCached).
 *   fail:   a body that does not compile (inline assembly that does not
 *           assemble: nothing the load could see) cannot be called. The
 *           lazy-call-through manager sends the call to a stub of a closed
 *           group, whose stale-call path lands in lazyFailed: the cause goes
 *           to the Session's error reporter, then the Jit's stale-call
 *           handler (the default: one line on stderr, then abort).
 *   free:   the version's JITDylib is cleared (bodies compiled or not), then
 *           its indirect stubs and its lazy-call-through manager go, with the
 *           manager's trampolines (one per function) and their table: each
 *           version has its own manager, since LLVM gives no single
 *           trampoline back. */

#include "jit/host/HostLazy.h"
#include "jit/cache/ObjectCache.h"
#include "jit/compile/CallOnceGuard.h"
#include "jit/compile/LazySplit.h"
#include "jit/compile/PersonalityRef.h"
#include "jit/host/HostTargetMachine.h"
#include "jit/host/SessionErrors.h"
#include "jit/ir/EmuTLS.h"
#include "jit/ir/FastISelLowering.h"
#include "jit/ir/OptNone.h"
#include "jit/support/Diag.h"
#include "jit/tier/Tiers.h"

#include <llvm-c/BitWriter.h>
#include <llvm-c/Error.h>
#include <llvm-c/Orc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct orc_rt_jit_HostLazy {
  orc_rt_jit_LazyParts Parts; /* the bodies and stubs, until defined */
  LLVMOrcThreadSafeContextRef TSC;
  char **Imports; /* the names the module uses from elsewhere */
  size_t NumImports;
  /* Lazy: the personality functions the bodies' code names, each defined a
   * DW.ref cell in the JITDylib (compile/PersonalityRef.h). */
  char **Personalities;
  size_t NumPersonalities;
  LLVMOrcIndirectStubsManagerRef ISM;
  /* Its own, so that its trampolines and their bookkeeping go with it. */
  LLVMOrcLazyCallThroughManagerRef LCTM;
  orc_rt_jit_Tiers *Tiers; /* Tiered: until stopTiers */
};

/*---- The LLJIT's compile layer, one compile at a time ----*/

/* Tier 0 goes through the LLJIT's IR layer (Tiers.h), one compile at a time
 * (compile/SerialCompile.h: begun in the IR transform, ended in the object
 * transform or the session's error reporter). What such a compile diagnoses
 * (the versions' contexts have tier0Diag for a handler, which only takes
 * note) fails it in the object transform: LLVM's default handler would exit
 * the host. */
static _Thread_local char *Diagnosed;
/* What this thread's compile of the LLJIT's is for (a failure names them). */
static _Thread_local char *CompilingFn, *CompilingMod;

static void tier0Diag(LLVMDiagnosticInfoRef DI, void *Ctx) {
  (void)Ctx;
  if (LLVMGetDiagInfoSeverity(DI) == LLVMDSError && !Diagnosed)
    Diagnosed = LLVMGetDiagInfoDescription(DI);
}

static void recordFailure(orc_rt_JitRef J, char *Fn, char *Mod, char *Msg);

LLVMErrorRef orc_rt_jit_HostLazy_objectTransform(void *Ctx,
                                                 LLVMMemoryBufferRef *Obj) {
  orc_rt_JitRef J = Ctx;
  orc_rt_jit_SerialCompile_end(&J->Serial);
  char *D = Diagnosed, *Fn = CompilingFn, *Mod = CompilingMod;
  Diagnosed = CompilingFn = CompilingMod = NULL;
  if (!D) {
    free(Fn);
    free(Mod);
    return NULL;
  }
  LLVMDisposeMemoryBuffer(*Obj); /* (an error: the buffer is ours to drop) */
  *Obj = NULL;
  LLVMErrorRef E = LLVMCreateStringError(D);
  recordFailure(J, Fn, Mod, strdup(D));
  LLVMDisposeMessage(D);
  return E;
}

/*---- A body that does not compile ----*/

/* The last body that failed to compile: what lazyFailed reports. */
/* The user's name of the first function MR is to compile (the caller
 * frees it), or NULL. */
static char *firstFunction(LLVMOrcMaterializationResponsibilityRef MR) {
  size_t N = 0;
  LLVMOrcSymbolStringPoolEntryRef *Req =
      LLVMOrcMaterializationResponsibilityGetRequestedSymbols(MR, &N);
  char *Fn = N ? strdup(LLVMOrcSymbolStringPoolEntryStr(Req[0])) : NULL;
  LLVMOrcDisposeSymbols(Req);
  if (Fn)
    orc_rt_jit_restoreUserNames(Fn);
  return Fn;
}

/* Keeps Fn, Mod and Msg (taken) as J's last failure. */
static void recordFailure(orc_rt_JitRef J, char *Fn, char *Mod, char *Msg) {
  pthread_mutex_lock(&J->SymLock);
  free(J->LazyFailure.Function);
  free(J->LazyFailure.Module);
  free(J->LazyFailure.Cause);
  J->LazyFailure.Function = Fn;
  J->LazyFailure.Module = Mod;
  J->LazyFailure.Cause = Msg;
  pthread_mutex_unlock(&J->SymLock);
}

/* Fn's link went without an error (the session reported none): J's last
 * failure, if it is still Fn's noted before the link, is forgotten. */
static void forgetFailure(orc_rt_JitRef J, const char *Fn) {
  pthread_mutex_lock(&J->SymLock);
  char *Old = J->LazyFailure.Function;
  if (!J->SessionErrors && !J->LazyFailure.Cause && Old && Fn &&
      !strcmp(Old, Fn)) {
    free(Old);
    free(J->LazyFailure.Module);
    J->LazyFailure.Function = J->LazyFailure.Module = NULL;
  }
  pthread_mutex_unlock(&J->SymLock);
}

/* Tiered: the tier-0 code of Function did not link (the cause is the
 * session's): noted for lazyFailed, which the failing call reaches next. */
static void tier0Failed(const char *Function, void *Ctx) {
  orc_rt_jit_HostVersion *V = Ctx;
  char *Fn = strdup(Function);
  if (Fn)
    orc_rt_jit_restoreUserNames(Fn);
  recordFailure(V->M->J, Fn, strdup(V->M->Name), NULL);
}

static void noteFailure(orc_rt_jit_HostVersion *V,
                        LLVMOrcMaterializationResponsibilityRef MR,
                        orc_rt_ErrorRef Cause) {
  char *Msg = strdup(Cause ? orc_rt_Error_getMessage(Cause) : "out of memory");
  orc_rt_Error_consume(Cause);
  recordFailure(V->M->J, firstFunction(MR), strdup(V->M->Name), Msg);
}

/* Where the lazy-call-through manager sends a call whose body could not be
 * compiled or linked (the failure stub's stale-call path). Does not return,
 * and a handler may leave it with longjmp: nothing is left on the heap. */
static void lazyFailed(const char *Function, const char *Module, void *Ctx) {
  (void)Function, (void)Module;
  orc_rt_JitRef J = Ctx;
  pthread_mutex_lock(&J->SymLock);
  char *Fn = J->LazyFailure.Function, *Mod = J->LazyFailure.Module,
       *Cause = J->LazyFailure.Cause;
  J->LazyFailure.Function = J->LazyFailure.Module = J->LazyFailure.Cause = NULL;
  orc_rt_JitStaleCallFn OnStale = J->OnStale;
  void *StaleCtx = J->StaleCtx;
  pthread_mutex_unlock(&J->SymLock);
  char *Linking = orc_rt_jit_Host_takeSessionErrors(J);
  char F[256], M[1024], Why[2048];
  snprintf(F, sizeof(F), "%s", Fn ? Fn : "?");
  snprintf(M, sizeof(M), "%s", Mod ? Mod : "?");
  snprintf(Why, sizeof(Why), "%s",
           Cause     ? Cause
           : Linking ? Linking
                     : "unknown error");
  free(Fn), free(Mod), free(Cause), free(Linking);
  orc_rt_jit_restoreUserNames(Why); /* ("f$body: <inline asm>...": f's) */
  orc_rt_Session_reportError(
      J->S, orc_rt_Error_createf("orc_rt_Jit: %s: cannot compile '%s' on "
                                 "its first call: %s",
                                 M, F, Why));
  if (OnStale)
    OnStale(F, M, StaleCtx);
  fflush(stdout);
  fprintf(stderr,
          "orc-rt-c: error: call to '%s' in module '%s', which could not be "
          "compiled: %s\n",
          F, M, Why);
  abort(); /* (a stale-call handler must not return either) */
}

/* A lazy-call-through manager for V, whose error handler is the Jit's
 * failure stub (made with the first lazy version): a stub of a group closed
 * from the start, so every call to it is denied and goes to lazyFailed with
 * the Jit. Under Lock. */
static orc_rt_ErrorRef needFailStub(orc_rt_JitRef J);
static orc_rt_ErrorRef makeLazyCallThrough(orc_rt_jit_HostVersion *V) {
  orc_rt_JitRef J = V->M->J;
  orc_rt_ErrorRef Err = needFailStub(J);
  return Err ? Err
             : orc_rt_jit_fromLLVMError(
                   LLVMOrcCreateLocalLazyCallThroughManager(
                       J->Triple, LLVMOrcLLJITGetExecutionSession(J->LLJIT),
                       (LLVMOrcJITTargetAddress)J->LazyFailStub,
                       &V->Lazy->LCTM),
                   "cannot set up lazy compilation: ");
}

static orc_rt_ErrorRef needFailStub(orc_rt_JitRef J) {
  if (J->LazyFailStub)
    return NULL;
  orc_rt_jit_StubModule *Id = calloc(1, sizeof(*Id));
  char *Path = strdup("<lazy compilation>");
  orc_rt_TaskGroupRef G = Id && Path ? orc_rt_TaskGroup_create() : NULL;
  orc_rt_TokenSourceRef TS = G ? orc_rt_TaskGroup_getTokenSource(G) : NULL;
  uint64_t Stub = 0;
  if (TS) {
    orc_rt_TaskGroup_close(G);
    *Id = (orc_rt_jit_StubModule){.Tokens = TS,
                                  .Group = G,
                                  .Path = Path,
                                  .Unlisted = true,
                                  .OnStale = lazyFailed,
                                  .StaleCtx = J};
    Stub = orc_rt_jit_ModuleStubs_create(Id, Path, 0, false, true);
  }
  if (!Stub) {
    if (TS)
      orc_rt_TokenSource_dispose(TS);
    if (G)
      orc_rt_TaskGroup_destroy(G);
    free(Path);
    free(Id);
    return orc_rt_Error_create("out of memory");
  }
  /* Id, its group and the stub are permanent from here (stubs are). */
  J->LazyFailStub = Stub;
  return NULL;
}

/*---- Compiling, through the object cache ----*/

/* Compiles M (optimized with Passes first, if not NULL) into *Objs. With an
 * object cache, M's bitcode (before the passes) and the Jit's settings are
 * the key: a part or a body an earlier Jit (or version) compiled the same
 * is read back instead; one that cannot be written only costs the next
 * load, and is reported as the eager compile's is. */
static orc_rt_ErrorRef compileCached(orc_rt_JitRef J, LLVMModuleRef M,
                                     const char *Passes,
                                     orc_rt_jit_ObjectList *Objs) {
  orc_rt_jit_Digest Key = {0};
  /* (Tiered keeps only tier 1's code: tier/Tiers.h) */
  const char *Dir = J->Opts.Tiered ? NULL : J->CacheDir;
  if (Dir) {
    LLVMMemoryBufferRef BC = LLVMWriteBitcodeToMemoryBuffer(M);
    if (!BC)
      return orc_rt_Error_create("out of memory");
    Key = orc_rt_jit_ObjectCache_key(LLVMGetBufferStart(BC),
                                     LLVMGetBufferSize(BC), J->Settings, Passes,
                                     ORC_RT_JIT_OBJECTCACHE_LAZY_PART);
    LLVMDisposeMemoryBuffer(BC);
    orc_rt_ErrorRef Err =
        orc_rt_jit_ObjectCache_loadObjects(Dir, Key, &Objs->Items, &Objs->Size);
    if (Err || Objs->Size)
      return Err;
  }
  orc_rt_ErrorRef Err =
      Passes ? J->Compile.RunPasses(M, Passes, J->Compile.Ctx) : NULL;
  if (!Err)
    Err = J->Compile.Compile(M, Objs, J->Compile.Ctx);
  if (!Err && Dir && !Objs->Volatile)
    orc_rt_jit_ObjectCache_storeObjects(Dir, Key, Objs->Items, Objs->Size,
                                        J->Compile.Warn, J->Compile.Ctx);
  return Err;
}

/*---- Compiling a body on its first call ----*/

typedef struct {
  orc_rt_JitRef J;
  orc_rt_jit_ObjectList Objs;
  orc_rt_ErrorRef Err;
} BodyCompile;

static LLVMErrorRef compileBody(void *Ctx, LLVMModuleRef M) {
  BodyCompile *C = Ctx;
  /* (with the body's own pipeline: see the file comment) */
  C->Err = compileCached(C->J, M, C->J->Compile.Passes, &C->Objs);
  return NULL;
}

/* compile/LazyMaterialize.h's emit hook, on the calling thread: compiled
 * here (so a failure is ours to report) and linked through the LLJIT's
 * object layer. libstdc++'s call_once state is kept across (LLVM uses
 * call_once; the body may be called from inside one). */
static void emitBody(void *Ctx, LLVMOrcMaterializationResponsibilityRef MR,
                     LLVMOrcThreadSafeModuleRef TSM) {
  orc_rt_jit_HostVersion *V = Ctx;
  orc_rt_JitRef J = V->M->J;
  orc_rt_jit_CallOnce_save();
  BodyCompile C = {J, {NULL, 0, false}, NULL};
  LLVMErrorRef E = LLVMOrcThreadSafeModuleWithModuleDo(TSM, compileBody, &C);
  LLVMOrcDisposeThreadSafeModule(TSM);
  if (E)
    C.Err = orc_rt_Error_join(C.Err, orc_rt_jit_fromLLVMError(E, NULL));
  if (!C.Err && C.Objs.Size == 1) {
    /* A link that fails (a symbol the code generator called, missing)
     * reports only its cause, to the session: the body's names are noted
     * first, and forgotten once the link went without an error. */
    char *Fn = firstFunction(MR);
    recordFailure(J, Fn ? strdup(Fn) : NULL, strdup(V->M->Name), NULL);
    LLVMOrcObjectLayerEmit(LLVMOrcLLJITGetObjLinkingLayer(J->LLJIT), MR,
                           C.Objs.Items[0]);
    C.Objs.Size = 0;
    forgetFailure(J, Fn);
    free(Fn);
  } else {
    noteFailure(V, MR, C.Err);
    LLVMOrcMaterializationResponsibilityFailMaterialization(MR);
    LLVMOrcDisposeMaterializationResponsibility(MR);
  }
  orc_rt_jit_ObjectList_dispose(&C.Objs);
  orc_rt_jit_CallOnce_restore();
}

/*---- Loading ----*/

/* X is a declaration the module needs resolved: not an intrinsic, not a
 * weak reference (which may stay unresolved). */
static bool isImport(LLVMValueRef X) {
  size_t Len;
  const char *Name = LLVMGetValueName2(X, &Len);
  return LLVMIsDeclaration(X) && LLVMGetLinkage(X) != LLVMExternalWeakLinkage &&
         Len && strncmp(Name, "llvm.", 5);
}

static bool addImport(struct orc_rt_jit_HostLazy *L, LLVMValueRef X) {
  size_t Len;
  const char *Name = LLVMGetValueName2(X, &Len);
  return (L->Imports[L->NumImports++] = strndup(Name, Len)) != NULL;
}

/* The names of what M declares and needs from elsewhere. */
static orc_rt_ErrorRef collectImports(LLVMModuleRef M,
                                      struct orc_rt_jit_HostLazy *L) {
  size_t N = 0;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
    N += isImport(G);
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    N += isImport(F);
  if (!(L->Imports = calloc(N + 1, sizeof(char *))))
    return orc_rt_Error_create("out of memory");
  bool OK = true;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G && OK;
       G = LLVMGetNextGlobal(G))
    OK = !isImport(G) || addImport(L, G);
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && OK;
       F = LLVMGetNextFunction(F))
    OK = !isImport(F) || addImport(L, F);
  return OK ? NULL : orc_rt_Error_create("out of memory");
}

static orc_rt_ErrorRef collectPersonalities(LLVMModuleRef M,
                                            struct orc_rt_jit_HostLazy *L) {
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F)) {
    const char *Name;
    size_t Len;
    bool Known = !orc_rt_jit_personalityOf(F, &Name, &Len) || !Len;
    for (size_t I = 0; I < L->NumPersonalities && !Known; ++I)
      Known = strlen(L->Personalities[I]) == Len &&
              !memcmp(L->Personalities[I], Name, Len);
    if (Known)
      continue;
    char **Grown =
        realloc(L->Personalities, (L->NumPersonalities + 1) * sizeof(*Grown));
    char *Copy = Grown ? strndup(Name, Len) : NULL;
    if (Grown)
      L->Personalities = Grown;
    if (!Copy)
      return orc_rt_Error_create("out of memory");
    L->Personalities[L->NumPersonalities++] = Copy;
  }
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_HostLazy_compile(orc_rt_jit_HostVersion *V,
                                            const orc_rt_jit_ModuleCompiler *By,
                                            const char *Source,
                                            LLVMMemoryBufferRef Buf) {
  orc_rt_JitRef J = V->M->J;
  struct orc_rt_jit_HostLazy *L = calloc(1, sizeof(*L));
  orc_rt_jit_CompiledModule *E = calloc(1, sizeof(*E));
  if (!L || !E) {
    free(L);
    free(E);
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_createf("%s: out of memory", Source);
  }
  V->Lazy = L;
  V->Code = E;
  LLVMContextRef Ctx;
  LLVMModuleRef M;
  orc_rt_ErrorRef Err =
      orc_rt_jit_prepareForLoading(By, Source, Buf, E, &Ctx, &M);
  if (Err)
    return Err;
  if (J->Opts.Tiered) /* (see tier0Diag) */
    LLVMContextSetDiagnosticHandler(Ctx, tier0Diag, NULL);
  L->TSC = LLVMOrcCreateNewThreadSafeContextFromLLVMContext(Ctx);
  /* The parts are made like M: with the Jit's layout, and thread-locals
   * lowered in the whole module (the bodies use them too). */
  LLVMSetDataLayout(M, J->DataLayout);
  if (!*LLVMGetTarget(M))
    LLVMSetTarget(M, J->Triple);
  Err = orc_rt_jit_lowerEmulatedTLS(M);
  bool Volatile = false; /* (the parts are cached by their own bytes) */
  if (!Err && J->NullMissingWeak) /* decided at the load, as ld.so does */
    Err = J->NullMissingWeak(M, J, &Volatile);
  if (!Err)
    Err = collectImports(M, L);
  if (!Err && !J->Opts.Tiered) /* (Tiered's: tier/Tiers.c) */
    Err = collectPersonalities(M, L);
  if (Err) {
    LLVMDisposeModule(M);
    return Err;
  }
  if (J->Opts.Tiered) /* tier 1 optimizes clang -O0's output (OptNone.h) */
    orc_rt_jit_dropO0OptNone(M);
  /* Tiered: every function gets a front (its entry follows the tier-up). */
  Err = orc_rt_jit_splitForLazy(M, 0, true, J->Opts.Tiered, NULL, &L->Parts);
  orc_rt_jit_ObjectList All = {NULL, 0, false};
  /* A module that could not be cut is compiled whole now: optimized whole
   * too (Lazy, at OptLevel > 0; Tiered's parts are tier 1's). */
  const char *WholePasses =
      !L->Parts.Bodies && !J->Opts.Tiered ? J->Compile.Passes : NULL;
  for (size_t I = 0; !Err && I < L->Parts.NumModules; ++I) {
    orc_rt_jit_ObjectList Objs = {NULL, 0, false};
    Err = compileCached(J, L->Parts.Modules[I], WholePasses, &Objs);
    LLVMDisposeModule(L->Parts.Modules[I]);
    L->Parts.Modules[I] = NULL;
    LLVMMemoryBufferRef *Grown =
        Err ? NULL
            : realloc(All.Items, (All.Size + Objs.Size + 1) * sizeof(*Grown));
    if (!Err && !Grown)
      Err = orc_rt_Error_create("out of memory");
    if (Grown) {
      All.Items = Grown;
      memcpy(All.Items + All.Size, Objs.Items, Objs.Size * sizeof(*Grown));
      All.Size += Objs.Size;
      free(Objs.Items);
    } else {
      orc_rt_jit_ObjectList_dispose(&Objs);
    }
  }
  if (!Err)
    Err = orc_rt_jit_CompiledModule_keepObjects(E, All.Items, All.Size);
  orc_rt_jit_ObjectList_dispose(&All);
  return Err;
}

/*---- Tiered ----*/

/* Tier 0 of a body (compile/LazyMaterialize.h's emit hook): the Tiers emit
 * it through the LLJIT (its transform: orc_rt_jit_HostLazy_transform), on
 * this thread, with libstdc++'s call_once state kept across. */
static void emitTier0(void *Ctx, LLVMOrcMaterializationResponsibilityRef MR,
                      LLVMOrcThreadSafeModuleRef TSM) {
  orc_rt_jit_HostVersion *V = Ctx;
  orc_rt_jit_CallOnce_save();
  orc_rt_jit_Tiers_emit(V->Lazy->Tiers, MR, TSM);
  orc_rt_jit_CallOnce_restore();
}

typedef struct {
  orc_rt_jit_Tiers *T;
  LLVMOrcJITDylibRef JD;
} TierModule;

static LLVMErrorRef transformModule(void *Ctx, LLVMModuleRef M) {
  TierModule *TM = Ctx;
  orc_rt_ErrorRef Err = orc_rt_jit_Tiers_transform(TM->T, TM->JD, M);
  if (!Err) /* (tier 1's copy is saved: only tier 0 sees it) */
    Err = orc_rt_jit_lowerForFastISel(M);
  if (!Err)
    return NULL;
  LLVMErrorRef E = LLVMCreateStringError(orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  return E;
}

LLVMErrorRef
orc_rt_jit_HostLazy_transform(void *Ctx, LLVMOrcThreadSafeModuleRef *ModInOut,
                              LLVMOrcMaterializationResponsibilityRef MR) {
  orc_rt_JitRef J = Ctx;
  LLVMOrcJITDylibRef JD =
      LLVMOrcMaterializationResponsibilityGetTargetDylib(MR);
  orc_rt_jit_Tiers *T = NULL;
  char *Mod = NULL;
  pthread_mutex_lock(&J->SymLock);
  for (orc_rt_jit_HostSlot *S = J->AllSlots; S && !T; S = S->NextAll)
    if (S->JD == JD && S->Version) {
      T = S->Version->Lazy->Tiers;
      Mod = strdup(S->Version->M->Name);
    }
  pthread_mutex_unlock(&J->SymLock);
  orc_rt_jit_SerialCompile_begin(&J->Serial); /* (ended after the compile) */
  free(CompilingFn);
  free(CompilingMod);
  CompilingFn = firstFunction(MR);
  CompilingMod = Mod;
  /* (A version's tiers stop only after its last call returned: no body of
   * it is compiled after that.) */
  TierModule TM = {T, JD};
  return T ? LLVMOrcThreadSafeModuleWithModuleDo(*ModInOut, transformModule,
                                                 &TM)
           : NULL;
}

static orc_rt_ErrorRef startTiers(orc_rt_jit_HostVersion *V) {
  orc_rt_JitRef J = V->M->J;
  orc_rt_jit_TierOptions O = {.J = J->LLJIT,
                              .Threshold =
                                  J->Opts.TierUpThreshold
                                      ? (int32_t)J->Opts.TierUpThreshold
                                      : ORC_RT_JIT_DEFAULT_TIER_UP_THRESHOLD,
                              .NewTM = orc_rt_jit_Host_newTM,
                              .TMCtx = J,
                              .CacheDir = J->CacheDir,
                              .Warn = J->Compile.Warn,
                              .WarnCtx = J->Compile.Ctx,
                              .Settings = J->Settings,
                              .Tier0Failed = tier0Failed,
                              .Tier0FailedCtx = V};
  orc_rt_ErrorRef Err = orc_rt_jit_Tiers_create(&V->Lazy->Tiers, &O);
  if (Err)
    return Err;
  pthread_mutex_lock(&J->SymLock);
  V->Slot->Version = V;
  pthread_mutex_unlock(&J->SymLock);
  return NULL;
}

/* Tiered: the lazy stubs are NAME$tier0, and NAME a front to them. */
static orc_rt_ErrorRef defineTieredStubs(orc_rt_jit_HostVersion *V) {
  struct orc_rt_jit_HostLazy *L = V->Lazy;
  orc_rt_JitRef J = V->M->J;
  size_t N = L->Parts.NumStubs;
  char **Names = calloc(N + 1, sizeof(char *));
  orc_rt_ErrorRef Err = Names ? NULL : orc_rt_Error_create("out of memory");
  for (size_t I = 0; !Err && I < N; ++I)
    if (!(Names[I] = orc_rt_jit_tier0Name(L->Parts.Stubs[I].Name)))
      Err = orc_rt_Error_create("out of memory");
  if (!Err)
    Err = orc_rt_jit_defineLazyStubs(J->LLJIT, V->Slot->JD, L->LCTM, L->ISM,
                                     L->Parts.Stubs, N, Names);
  if (!Err)
    Err =
        orc_rt_jit_Tiers_addFunctions(L->Tiers, V->Slot->JD, L->Parts.Stubs, N);
  for (size_t I = 0; Names && I < N; ++I)
    free(Names[I]);
  free(Names);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_HostLazy_define(orc_rt_jit_HostVersion *V) {
  struct orc_rt_jit_HostLazy *L = V->Lazy;
  orc_rt_JitRef J = V->M->J;
  LLVMOrcJITDylibRef JD = V->Slot->JD;
  bool Tiered = J->Opts.Tiered && L->Parts.NumStubs;
  for (size_t I = 0; L->Parts.Bodies && I < L->NumPersonalities; ++I)
    orc_rt_jit_definePersonalityRef(J->LLJIT, JD, L->Personalities[I]);
  orc_rt_ErrorRef Err = Tiered ? startTiers(V) : NULL;
  if (!Err)
    Err = orc_rt_jit_defineLazyBodies(&L->Parts, J->LLJIT, JD, &L->TSC,
                                      Tiered ? emitTier0 : emitBody, V);
  if (!Err && L->Parts.NumStubs) {
    Err = makeLazyCallThrough(V);
    if (!Err && !(L->ISM = LLVMOrcCreateLocalIndirectStubsManager(J->Triple)))
      Err = orc_rt_Error_create("out of memory");
    if (!Err)
      Err = Tiered ? defineTieredStubs(V)
                   : orc_rt_jit_defineLazyStubs(J->LLJIT, JD, L->LCTM, L->ISM,
                                                L->Parts.Stubs,
                                                L->Parts.NumStubs, NULL);
  }
  orc_rt_jit_LazyParts_dispose(&L->Parts);
  if (L->TSC) { /* no bodies wait: nothing compiles in the context again */
    LLVMOrcDisposeThreadSafeContext(L->TSC);
    L->TSC = NULL;
  }
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_HostLazy_resolveImports(
    orc_rt_jit_HostVersion *V,
    orc_rt_ErrorRef (*Lookup)(LLVMOrcJITDylibRef JD, const char *const *Names,
                              size_t N, uint64_t *Addrs, void *Ctx),
    void *Ctx) {
  struct orc_rt_jit_HostLazy *L = V->Lazy;
  uint64_t *Addrs = calloc(L->NumImports + 1, sizeof(*Addrs));
  if (!Addrs)
    return orc_rt_Error_create("out of memory");
  orc_rt_ErrorRef Err =
      L->NumImports ? Lookup(V->Slot->JD, (const char *const *)L->Imports,
                             L->NumImports, Addrs, Ctx)
                    : NULL;
  free(Addrs);
  /* Tiered: functions whose address escapes are compiled now (Tiers.h). */
  if (!Err && L->Tiers)
    Err = orc_rt_jit_Tiers_compileEager(L->Tiers);
  return Err;
}

static void addStats(orc_rt_jit_Tiers *T, orc_rt_JitTierStats *Out) {
  orc_rt_jit_TierStats S;
  orc_rt_jit_Tiers_stats(T, &S);
  Out->Tier0Functions += S.Tier0Functions;
  Out->Tier1Functions += S.Tier1Functions;
  Out->Tier0Freed += S.Tier0Freed;
  Out->FailedTierUps += S.Failed;
}

void orc_rt_jit_HostLazy_addTierStats(orc_rt_jit_HostVersion *V,
                                      orc_rt_JitTierStats *Out) {
  if (V->Lazy && V->Lazy->Tiers)
    addStats(V->Lazy->Tiers, Out);
}

void orc_rt_jit_HostLazy_stopTiers(orc_rt_jit_HostVersion *V) {
  struct orc_rt_jit_HostLazy *L = V->Lazy;
  if (!L || !L->Tiers)
    return;
  orc_rt_JitRef J = V->M->J;
  pthread_mutex_lock(&J->SymLock);
  V->Slot->Version = NULL;
  orc_rt_jit_Tiers *T = L->Tiers;
  L->Tiers = NULL;
  pthread_mutex_unlock(&J->SymLock);
  orc_rt_jit_Tiers_waitForLinks(T);
  orc_rt_jit_Tiers_freeDrainedNow(T);
  orc_rt_jit_Tiers_retireTier0(T);
  orc_rt_JitTierStats Final = {0};
  addStats(T, &Final);
  orc_rt_jit_Tiers_dispose(T);
  pthread_mutex_lock(&J->SymLock);
  J->RetiredTiers.Tier0Functions += Final.Tier0Functions;
  J->RetiredTiers.Tier1Functions += Final.Tier1Functions;
  J->RetiredTiers.Tier0Freed += Final.Tier0Freed;
  J->RetiredTiers.FailedTierUps += Final.FailedTierUps;
  pthread_mutex_unlock(&J->SymLock);
}

void orc_rt_jit_HostLazy_free(orc_rt_jit_HostVersion *V) {
  struct orc_rt_jit_HostLazy *L = V->Lazy;
  if (V->Code)
    orc_rt_jit_CompiledModule_dispose(V->Code);
  V->Code = NULL;
  if (!L)
    return;
  orc_rt_jit_LazyParts_dispose(&L->Parts);
  if (L->TSC)
    LLVMOrcDisposeThreadSafeContext(L->TSC);
  for (size_t I = 0; I < L->NumImports; ++I)
    free(L->Imports[I]);
  free(L->Imports);
  for (size_t I = 0; I < L->NumPersonalities; ++I)
    free(L->Personalities[I]);
  free(L->Personalities);
  /* After the JITDylib was cleared (or the Jit is going): nothing refers to
   * the stubs any more. */
  if (L->ISM)
    LLVMOrcDisposeIndirectStubsManager(L->ISM);
  if (L->LCTM)
    LLVMOrcDisposeLazyCallThroughManager(L->LCTM);
  free(L);
  V->Lazy = NULL;
}
