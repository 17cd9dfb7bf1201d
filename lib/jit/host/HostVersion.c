/*===- lib/jit/host/HostVersion.c - One compiled version of a host's module ===*/
/* A version's life (HostParts.h has the structures and the locks):
 *
 *   build:    compile (or take from the cache: cache/ModuleCache.h; the
 *             variables the previous version had are made declarations of
 *             its storage first, ir/KeptVariables.h) -> a JITDylib of its own
 *             with the kept variables defined at their addresses -> nested
 *             group under the Session's -> link and stubs (host/ModuleLink.h)
 *             -> its variables' storage read from the companions
 *   run:      constructors, then calls through its stubs, under its token
 *   finalize: destructors + its atexit handlers (__cxa_finalize of its
 *             __dso_handle), under its token
 *   close:    by a reload that replaced it, by unload, by the Session's
 *             shutdown; once its last token is back its JITDylib is cleared
 *             (code and data freed) -- unless it is pinned: its data holds a
 *             variable a later version kept, or another module bound its
 *             symbols. */

#include "jit/host/HostVersion.h"
#include "jit/compile/SymbolImport.h"
#include "jit/host/HostLazy.h"
#include "jit/host/SessionErrors.h"
#include "jit/ir/EmuTLS.h"
#include "jit/support/Diag.h"

#include "orc-rt-c/NestedGroup.h"

#include <llvm-c/Error.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* glibc's: runs (and forgets) the handlers registered with Dso, newest
 * first, as dlclose does for a library's. */
extern void __cxa_finalize(void *Dso);

/* The default stale-call handler (orc-rt-c/Jit.h). */
static void defaultStale(const char *Function, const char *Module, void *Ctx) {
  (void)Ctx;
  fflush(stdout);
  fprintf(stderr,
          "orc-rt-c: error: call to '%s' in module '%s', which has been "
          "unloaded or whose current version does not define it\n",
          Function, Module);
  abort();
}

/*---- Running code in a version ----*/

/* A constructor, destructor or atexit handler of V's (Fn, or Fn(Arg)),
 * under V's token and, over another's JIT, as its owner enters JIT'd code. */
typedef struct {
  orc_rt_jit_HostVersion *V;
  void (*Fn)(void *);
  void *Arg;
  bool NoArg;
} VersionCall;

static void callIn(void *Ctx) {
  VersionCall *C = Ctx;
  if (!orc_rt_TaskGroup_acquireToken(C->V->Group))
    return; /* refused: the version is going */
  if (C->NoArg)
    ((void (*)(void))C->Fn)();
  else
    C->Fn(C->Arg);
  orc_rt_TaskGroup_releaseToken(C->V->Group);
}

static void runIn(orc_rt_jit_HostVersion *V, const char *What,
                  const orc_rt_jit_AtexitHandler *H) {
  orc_rt_JitRef J = V->M->J;
  VersionCall C = {V, H->Fn, H->Arg, H->NoArg};
  if (J->Owned)
    J->Owner.Enter(What, (uintptr_t)H->Fn, callIn, &C, J->Owner.Ctx);
  else
    callIn(&C);
}

static void runInits(orc_rt_jit_HostVersion *V, const orc_rt_jit_InitList *L,
                     const uint64_t *Addrs, bool Reverse, int Prioritized) {
  for (size_t K = 0; K < L->Size; ++K) {
    size_t I = Reverse ? L->Size - 1 - K : K;
    if (Prioritized >= 0 && (L->Items[I].Priority != 65535) != Prioritized)
      continue;
    orc_rt_jit_AtexitHandler H = {(void (*)(void *))(uintptr_t)Addrs[I], NULL,
                                  true};
    runIn(V, L->Items[I].Symbol, &H);
  }
}

void orc_rt_jit_HostVersion_construct(orc_rt_jit_HostVersion *V) {
  runInits(V, &V->Code->Ctors, V->Link.CtorAddrs, false, -1);
}

/* The atexit handlers V registered, newest first (including ones registered
 * meanwhile): glibc's __cxa_finalize of its handle, or the owner's list.
 * Code that never named its __dso_handle registered none (its atexit calls
 * __cxa_atexit with it: ir/DlopenIR.h), and __cxa_finalize, which walks the
 * process's whole list, is skipped. */
static void runHandlers(orc_rt_jit_HostVersion *V) {
  orc_rt_JitRef J = V->M->J;
  if (!J->Owned) {
    pthread_mutex_lock(&J->SymLock);
    bool Named = V->Slot && V->Slot->DsoBound;
    pthread_mutex_unlock(&J->SymLock);
    if (Named)
      __cxa_finalize(&V->Dso);
    return;
  }
  orc_rt_jit_AtexitHandler H;
  while (J->Owner.PopHandler(&V->Dso, &H, J->Owner.Ctx))
    runIn(V, "atexit handler", &H);
}

/* As glibc's dlclose: the .fini_array backwards, and in it (crtbegin's
 * __do_global_dtors_aux, between the prioritized and the other entries)
 * __cxa_finalize of the version's handle: the atexit handlers it
 * registered, newest first. Under the version's token throughout. */
void orc_rt_jit_HostVersion_finalize(orc_rt_jit_HostVersion *V) {
  if (!orc_rt_TaskGroup_acquireToken(V->Group))
    return;
  runInits(V, &V->Code->Dtors, V->Link.DtorAddrs, true, 0);
  runHandlers(V);
  runInits(V, &V->Code->Dtors, V->Link.DtorAddrs, true, 1);
  orc_rt_TaskGroup_releaseToken(V->Group);
}

void orc_rt_jit_HostVersion_run(orc_rt_jit_HostVersion *V, const char *What,
                                const orc_rt_jit_AtexitHandler *H) {
  runIn(V, What, H);
}

/*---- Freeing ----*/

/* V's stubs become its module's (they take no token: a call through one
 * goes on through its front, or is a stale call), and V's Id, group and
 * token slot index are freed once no thread is still reading them
 * (modules/ModuleStubs.h). Its code is gone: its group completed (or no
 * call ever entered it: a failed build). */
static void retire(orc_rt_jit_HostVersion *V) {
  const orc_rt_jit_ExportList *X = &V->Code->Exports;
  const orc_rt_jit_EscapeList *E = &V->Code->Escapes;
  uint64_t *Stubs = calloc(X->Size + E->Size + 1, sizeof(*Stubs));
  if (!Stubs)
    return; /* V->Id stays, as before retiring was possible */
  /* Each stub once: an escaping function's entry is its escape stub. (One
   * the set has no memory for is listed anyway: better twice than never.) */
  orc_rt_jit_PtrSet Listed = {0};
  size_t N = 0;
  for (size_t I = 0; V->Link.EscapeStubs && I < E->Size; ++I)
    if (orc_rt_jit_PtrSet_insert(&Listed,
                                 (void *)(uintptr_t)V->Link.EscapeStubs[I]))
      Stubs[N++] = V->Link.EscapeStubs[I];
  for (size_t I = 0; V->Link.ExportAddrs && I < X->Size; ++I)
    if (X->Items[I].IsFunction &&
        orc_rt_jit_PtrSet_insert(&Listed,
                                 (void *)(uintptr_t)V->Link.ExportAddrs[I]))
      Stubs[N++] = V->Link.ExportAddrs[I];
  orc_rt_jit_PtrSet_free(&Listed);
  __atomic_store_n(&V->M->IdUsed, true, __ATOMIC_RELAXED); /* any thread */
  orc_rt_jit_ModuleStubs_retire(V->Id, Stubs, N, V->M->Id);
  free(Stubs);
  V->Id = NULL;
}

static void freeVersion(orc_rt_jit_HostVersion *V) {
  orc_rt_JitRef J = V->M->J;
  V->DsoMagic = 0; /* (a destructor registered with it is not ours now) */
  if (V->Id && !V->Link.StubsMade) { /* no stub points at it */
    orc_rt_TokenSource_dispose(V->Id->Tokens);
    free(V->Id->Path);
    free(V->Id);
  } else if (V->Id && V->Code && V->M->Id && !V->ByShutdown) {
    retire(V); /* (reads V->Code, the cache's once put back below) */
  }
  if (V->Lazy)
    orc_rt_jit_HostLazy_free(V); /* (its code too) */
  if (V->Code) {                 /* any thread */
    pthread_mutex_lock(&J->CacheLock);
    orc_rt_jit_ModuleCache_put(&J->Cache, V->Code);
    pthread_mutex_unlock(&J->CacheLock);
  }
  if (V->Group)
    orc_rt_TaskGroup_destroy(V->Group);
  orc_rt_jit_LinkedModule_dispose(&V->Link);
  for (size_t I = 0; I < V->NumVars; ++I)
    orc_rt_jit_KeptVar_dispose(&V->Vars[I].Key);
  free(V->Vars);
  free(V);
}

/* Empties the slot's JITDylib (freeing the version's code and data) and
 * keeps it for the next version. */
static void releaseSlot(orc_rt_JitRef J, orc_rt_jit_HostSlot *S) {
  pthread_mutex_lock(&J->SymLock);
  S->Owner = NULL;
  S->Dso = NULL;
  pthread_mutex_unlock(&J->SymLock);
  LLVMErrorRef E = LLVMOrcJITDylibClear(S->JD);
  if (E)
    LLVMConsumeError(E); /* nothing to tell: the version is gone either way */
  pthread_mutex_lock(&J->SymLock);
  S->NextFree = J->FreeSlots;
  J->FreeSlots = S;
  pthread_mutex_unlock(&J->SymLock);
}

/* Its code and data go, and its bookkeeping. */
void orc_rt_jit_HostVersion_release(orc_rt_jit_HostVersion *V) {
  if (V->Lazy)
    orc_rt_jit_HostLazy_stopTiers(V);
  if (V->Slot)
    releaseSlot(V->M->J, V->Slot);
  freeVersion(V);
}

/* M's bookkeeping and its versions' (their code is their JITDylibs'). */
void orc_rt_jit_Host_freeModule(orc_rt_JitModuleRef M) {
  if (M->Cur)
    freeVersion(M->Cur);
  while (M->Pinned) {
    orc_rt_jit_HostVersion *Next = M->Pinned->NextPinned;
    freeVersion(M->Pinned);
    M->Pinned = Next;
  }
  if (M->Id && !M->NumFronts &&
      !__atomic_load_n(&M->IdUsed, __ATOMIC_RELAXED)) { /* no stub uses it */
    free(M->Id->Path);
    free(M->Id);
  }
  for (size_t I = 0; I < M->NumFronts; ++I)
    free(M->Fronts[I].Key);
  free(M->Fronts);
  orc_rt_jit_ExitOrderNode_dispose(&M->Order);
  free(M->Name);
  free(M);
}

/* The version's group completed: no frame is inside its code any more. Runs
 * on the thread that gave the last token back (in a stub's return path,
 * which holds no lock), or on the closing thread if none was out. Closed by
 * shutdown: the code goes with the whole JIT, after the drain. The module
 * goes with its last version, once it is unloaded (Gone). */
static void onComplete(void *Ctx) {
  orc_rt_jit_HostVersion *V = Ctx;
  orc_rt_JitModuleRef M = V->M;
  orc_rt_JitRef J = M->J;
  if (V->ByShutdown)
    return;
  pthread_mutex_lock(&J->SymLock);
  if (V->ThreadDtors) { /* completes at the last one's unpin */
    V->CompleteAfterThreadDtors = true;
    pthread_mutex_unlock(&J->SymLock);
    return;
  }
  if (M->Cur == V) /* unloaded */
    M->Cur = NULL;
  bool Keep = V->Pinned && !M->Gone;
  if (Keep) {
    V->NextPinned = M->Pinned;
    M->Pinned = V;
  }
  bool Last = --M->LiveVersions == 0 && M->Gone;
  orc_rt_jit_HostVersion *Pinned = Last ? M->Pinned : NULL;
  if (Last)
    M->Pinned = NULL;
  pthread_mutex_unlock(&J->SymLock);
  if (!Keep)
    orc_rt_jit_HostVersion_release(V);
  if (!Last)
    return;
  while (Pinned) {
    orc_rt_jit_HostVersion *Next = Pinned->NextPinned;
    orc_rt_jit_HostVersion_release(Pinned);
    Pinned = Next;
  }
  orc_rt_CallbackFn OnFreed = M->OnFreed;
  void *OnFreedCtx = M->OnFreedCtx;
  orc_rt_jit_Host_freeModule(M);
  if (OnFreed)
    OnFreed(OnFreedCtx);
}

void orc_rt_jit_HostVersion_pinForThreadDtor(orc_rt_jit_HostVersion *V) {
  pthread_mutex_lock(&V->M->J->SymLock);
  ++V->ThreadDtors;
  pthread_mutex_unlock(&V->M->J->SymLock);
}

void orc_rt_jit_HostVersion_unpinThreadDtor(orc_rt_jit_HostVersion *V) {
  pthread_mutex_lock(&V->M->J->SymLock);
  bool Now = --V->ThreadDtors == 0 && V->CompleteAfterThreadDtors;
  pthread_mutex_unlock(&V->M->J->SymLock);
  if (Now)
    onComplete(V);
}

orc_rt_jit_HostVersion *orc_rt_jit_HostVersion_ofDso(void *Dso) {
  if (!Dso)
    return NULL;
  orc_rt_jit_HostVersion *V =
      (orc_rt_jit_HostVersion *)((char *)Dso -
                                 offsetof(orc_rt_jit_HostVersion, Dso));
  return V->DsoMagic == ORC_RT_JIT_DSO_MAGIC ? V : NULL;
}

/*---- Building ----*/

/* A cleared JITDylib of a freed version, or a new one. Under Lock. */
static orc_rt_jit_HostSlot *
takeSlot(orc_rt_JitRef J,
         LLVMOrcDefinitionGeneratorRef (*Gen)(orc_rt_jit_HostSlot *)) {
  pthread_mutex_lock(&J->SymLock);
  orc_rt_jit_HostSlot *S = J->FreeSlots;
  if (S)
    J->FreeSlots = S->NextFree;
  pthread_mutex_unlock(&J->SymLock);
  if (S)
    return S;
  S = calloc(1, sizeof(*S));
  if (!S)
    return NULL;
  char Name[64];
  snprintf(Name, sizeof(Name), "<module %u>", J->NumSlots++);
  S->J = J;
  S->JD = LLVMOrcExecutionSessionCreateBareJITDylib(
      LLVMOrcLLJITGetExecutionSession(J->LLJIT), Name);
  LLVMOrcJITDylibAddGenerator(S->JD, Gen(S));
  pthread_mutex_lock(&J->SymLock); /* (walked under it: HostJit.c) */
  S->NextAll = J->AllSlots;
  J->AllSlots = S;
  pthread_mutex_unlock(&J->SymLock);
  return S;
}

/* A stub identity named after M; NULL if out of memory. TS and Group:
 * a version's, or none (M's own). */
static orc_rt_jit_StubModule *newId(orc_rt_JitModuleRef M,
                                    orc_rt_TokenSourceRef TS,
                                    orc_rt_TaskGroupRef Group) {
  orc_rt_JitRef J = M->J;
  orc_rt_jit_StubModule *Id = calloc(1, sizeof(*Id));
  char *P = Id ? strdup(M->Name) : NULL;
  if (!P) {
    free(Id);
    return NULL;
  }
  /* Over another's JIT, ModuleStubs.h's default (mini-lli's line). */
  void (*Stale)(const char *, const char *, void *) = J->OnStale ? J->OnStale
                                                      : J->Owned ? NULL
                                                                 : defaultStale;
  *Id = (orc_rt_jit_StubModule){.Tokens = TS,
                                .Group = Group,
                                .Path = P,
                                .Superseded = !Group,
                                .OnStale = Stale,
                                .StaleCtx = J->StaleCtx};
  return Id;
}

orc_rt_ErrorRef orc_rt_jit_Host_makeModuleId(orc_rt_JitModuleRef M) {
  M->Id = newId(M, NULL, NULL);
  return M->Id ? NULL : orc_rt_Error_createf("%s: out of memory", M->Name);
}

static orc_rt_ErrorRef makeId(orc_rt_jit_HostVersion *V) {
  orc_rt_TokenSourceRef TS = orc_rt_TaskGroup_getTokenSource(V->Group);
  orc_rt_jit_StubModule *Id = TS ? newId(V->M, TS, V->Group) : NULL;
  if (!Id) {
    orc_rt_TokenSource_dispose(TS);
    return orc_rt_Error_create("out of memory");
  }
  V->Id = Id; /* permanent from here until retired: stubs point at it */
  return NULL;
}

/* How a version is compiled: the Jit's compiler, with the previous
 * version's variables made declarations of their storage first. */
typedef struct {
  orc_rt_JitRef J;
  const orc_rt_jit_HostVar *Prev;
  size_t NumPrev;
  const char *Source; /* what errors name: where the bytes came from */
} BuildCtx;

/* The part of a triple before its Nth '-' (its length). */
static size_t tripleParts(const char *T, int N) {
  size_t L = 0;
  for (; T[L] && (T[L] != '-' || --N > 0); ++L)
    ;
  return L;
}

/* Mod is for the Jit's target, as far as it says: the same architecture, an
 * operating system of Linux or none, pointers of the same size and bytes in
 * the same order. (Its data layout is the Jit's from here; code made for
 * another would compute other things, differently at each OptLevel.) */
static orc_rt_ErrorRef checkTarget(LLVMModuleRef Mod, orc_rt_JitRef J) {
  if (J->Owned) /* (over another's LLJIT: its rules) */
    return NULL;
  size_t NameLen;
  const char *Name = LLVMGetModuleIdentifier(Mod, &NameLen);
  const char *T = LLVMGetTarget(Mod);
  /* (normalized: arch-vendor-os[-environment], "x86_64-linux-gnu" too) */
  char *Norm = *T ? LLVMNormalizeTargetTriple(T) : NULL;
  if (Norm) {
    size_t Arch = tripleParts(Norm, 1), JitArch = tripleParts(J->Triple, 1);
    const char *Os = Norm + tripleParts(Norm, 2);
    Os += *Os == '-';
    bool OsOk = !*Os || !strncmp(Os, "linux", 5) || !strncmp(Os, "unknown", 7);
    bool Ok = Arch == JitArch && !strncmp(Norm, J->Triple, Arch) && OsOk;
    LLVMDisposeMessage(Norm);
    if (!Ok)
      return orc_rt_Error_createf(
          "%.*s: the module is for %s, which this Jit (%s) cannot run",
          (int)NameLen, Name, T, J->Triple);
  }
  const char *Layout = LLVMGetDataLayoutStr(Mod);
  if (!*Layout)
    return NULL;
  LLVMTargetDataRef Its = LLVMCreateTargetData(Layout);
  LLVMTargetDataRef Ours = LLVMCreateTargetData(J->DataLayout);
  bool Same = LLVMByteOrder(Its) == LLVMByteOrder(Ours) &&
              LLVMPointerSize(Its) == LLVMPointerSize(Ours);
  orc_rt_ErrorRef Err =
      Same ? NULL
           : orc_rt_Error_createf(
                 "%.*s: the module's data layout (%s-endian, %u-byte "
                 "pointers) is not this Jit's (%s-endian, %u-byte pointers)",
                 (int)NameLen, Name,
                 LLVMByteOrder(Its) == LLVMBigEndian ? "big" : "little",
                 LLVMPointerSize(Its),
                 LLVMByteOrder(Ours) == LLVMBigEndian ? "big" : "little",
                 LLVMPointerSize(Ours));
  LLVMDisposeTargetData(Its);
  LLVMDisposeTargetData(Ours);
  return Err;
}

static orc_rt_ErrorRef prepare(LLVMModuleRef Mod, void *Ctx) {
  BuildCtx *B = Ctx;
  orc_rt_ErrorRef Checked = checkTarget(Mod, B->J);
  if (Checked)
    return Checked;
  orc_rt_jit_KeptVar *Keep = calloc(B->NumPrev + 1, sizeof(*Keep));
  if (!Keep)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < B->NumPrev; ++I)
    Keep[I] = B->Prev[I].Key;
  orc_rt_ErrorRef Err = orc_rt_jit_keepVariables(Mod, Keep, B->NumPrev);
  free(Keep);
  return Err ? Err : orc_rt_jit_listTLSImports(Mod);
}

/* A thread_local V declares that no module or library defines is an error
 * of the load, as an undefined data symbol is dlopen's (ir/EmuTLS.h). */
static orc_rt_ErrorRef checkTLSImports(orc_rt_jit_HostVersion *V) {
  const orc_rt_jit_ExportList *X = &V->Code->Exports;
  for (size_t I = 0; I < X->Size; ++I)
    if (!strcmp(X->Items[I].Name, ORC_RT_JIT_TLS_IMPORTS))
      return orc_rt_jit_checkTLSImports(
          (const void *)(uintptr_t)V->Link.ExportAddrs[I]);
  return NULL;
}

static orc_rt_ErrorRef runPasses(LLVMModuleRef Mod, const char *Passes,
                                 void *Ctx) {
  orc_rt_JitRef J = ((BuildCtx *)Ctx)->J;
  return J->Compile.RunPasses(Mod, Passes, J->Compile.Ctx);
}

static orc_rt_ErrorRef compile(LLVMModuleRef Mod, orc_rt_jit_ObjectList *Out,
                               void *Ctx) {
  orc_rt_JitRef J = ((BuildCtx *)Ctx)->J;
  return J->Compile.Compile(Mod, Out, J->Compile.Ctx);
}

static void warn(orc_rt_ErrorRef Err, void *Ctx) {
  orc_rt_JitRef J = ((BuildCtx *)Ctx)->J;
  J->Compile.Warn(Err, J->Compile.Ctx);
}

/* The Jit's settings and the kept variables' names and types: what the
 * compiled code depends on besides the module's bytes. */
static char *settingsFor(const BuildCtx *B) {
  size_t N = strlen(B->J->Settings) + 16;
  for (size_t I = 0; I < B->NumPrev; ++I)
    N += strlen(B->Prev[I].Key.TypeKey) + strlen(B->Prev[I].Key.Name) + 3;
  char *S = malloc(N);
  if (!S)
    return NULL;
  size_t At = (size_t)snprintf(S, N, "%s keep", B->J->Settings);
  for (size_t I = 0; I < B->NumPrev; ++I)
    At += (size_t)snprintf(S + At, N - At, " %s:%s", B->Prev[I].Key.TypeKey,
                           B->Prev[I].Key.Name);
  return S;
}

static orc_rt_ErrorRef compileVersion(orc_rt_jit_HostVersion *V,
                                      const BuildCtx *B,
                                      LLVMMemoryBufferRef Buf) {
  orc_rt_JitRef J = V->M->J;
  char *Settings = settingsFor(B);
  if (!Settings) {
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_create("out of memory");
  }
  orc_rt_jit_ModuleCompiler By = J->Compile;
  By.CodegenSettings = Settings;
  if (J->Opts.Lazy || J->Opts.Tiered) /* per function: HostLazy.c */
    By.Passes = NULL;
  By.Prepare = prepare;
  By.RunPasses = runPasses;
  By.Compile = compile;
  By.Warn = warn;
  By.Ctx = (void *)B;
  orc_rt_ErrorRef Err;
  if (J->Opts.Lazy || J->Opts.Tiered) {
    Err = orc_rt_jit_HostLazy_compile(V, &By, B->Source, Buf);
  } else {
    pthread_mutex_lock(&J->CacheLock);
    Err = orc_rt_jit_ModuleCache_get(&J->Cache, &By, B->Source, Buf, &V->Code);
    pthread_mutex_unlock(&J->CacheLock);
  }
  free(Settings);
  return Err;
}

/* The previous version's variables, defined in V's JITDylib at their
 * storage under the names the kept declarations use. */
static orc_rt_ErrorRef defineKept(orc_rt_jit_HostVersion *V,
                                  const BuildCtx *B) {
  if (!B->NumPrev)
    return NULL;
  LLVMOrcCSymbolMapPairs Pairs = calloc(B->NumPrev, sizeof(*Pairs));
  if (!Pairs)
    return orc_rt_Error_create("out of memory");
  size_t N = 0;
  for (; N < B->NumPrev; ++N) {
    char *Sym = orc_rt_jit_keptSymbolName(&B->Prev[N].Key);
    if (!Sym)
      break;
    Pairs[N].Name = LLVMOrcLLJITMangleAndIntern(V->M->J->LLJIT, Sym);
    Pairs[N].Sym = (LLVMJITEvaluatedSymbol){
        B->Prev[N].Addr, {LLVMJITSymbolGenericFlagsExported, 0}};
    free(Sym);
  }
  if (N < B->NumPrev) {
    for (size_t K = 0; K < N; ++K)
      LLVMOrcReleaseSymbolStringPoolEntry(Pairs[K].Name);
    free(Pairs);
    return orc_rt_Error_create("out of memory");
  }
  orc_rt_jit_defineAbsolute(V->Slot->JD, Pairs, N);
  free(Pairs);
  return NULL;
}

/* The previous version's variable whose storage is at Addr, or NULL. */
static const orc_rt_jit_HostVar *storageAt(const BuildCtx *B, uint64_t Addr) {
  for (size_t K = 0; K < B->NumPrev; ++K)
    if (B->Prev[K].Addr == Addr)
      return &B->Prev[K];
  return NULL;
}

/* Its variables' storage, from the companions among its exports, whose
 * names say their form (ir/KeptVariables.h): an alias's address is the
 * variable's; a kept variable's companion holds the kept storage's address,
 * a variable of the previous version's, whose owner holds it. */
static orc_rt_ErrorRef readVars(orc_rt_jit_HostVersion *V, const BuildCtx *B) {
  const orc_rt_jit_ExportList *X = &V->Code->Exports;
  V->Vars = calloc(X->Size + 1, sizeof(*V->Vars));
  if (!V->Vars)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < X->Size; ++I) {
    orc_rt_jit_HostVar *Var = &V->Vars[V->NumVars];
    if (!orc_rt_jit_parseVarCompanion(X->Items[I].Name, &Var->Key))
      continue;
    ++V->NumVars;
    Var->Addr = V->Link.ExportAddrs[I];
    Var->Owner = V;
    if (!Var->Key.Kept)
      continue;
    memcpy(&Var->Addr, (const void *)(uintptr_t)V->Link.ExportAddrs[I],
           sizeof(Var->Addr));
    const orc_rt_jit_HostVar *Kept = storageAt(B, Var->Addr);
    if (!Kept)
      return orc_rt_Error_createf("variable '%s' keeps storage that no "
                                  "earlier version has",
                                  Var->Key.Name);
    Var->Owner = Kept->Owner;
  }
  return NULL;
}

/*---- Linking (host/ModuleLink.h) ----*/

static orc_rt_ErrorRef addObjects(LLVMOrcJITDylibRef JD,
                                  const LLVMMemoryBufferRef *Objects, size_t N,
                                  void *Ctx) {
  orc_rt_JitRef J = Ctx;
  if (J->Owned)
    return J->Owner.AddObjects(JD, Objects, N, J->Owner.Ctx);
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; I < N; ++I) {
    if (Err)
      LLVMDisposeMemoryBuffer(Objects[I]);
    else
      Err = orc_rt_jit_fromLLVMError(
          LLVMOrcLLJITAddObjectFile(J->LLJIT, JD, Objects[I]), NULL);
  }
  return Err;
}

static orc_rt_ErrorRef lookup(LLVMOrcJITDylibRef JD, const char *const *Names,
                              size_t N, uint64_t *Addrs, void *Ctx) {
  orc_rt_JitRef J = Ctx;
  if (J->Owned)
    return J->Owner.Lookup(JD, Names, N, Addrs, J->Owner.Ctx);
  LLVMOrcSymbolStringPoolEntryRef *Interned = calloc(N, sizeof(*Interned));
  if (!Interned)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < N; ++I)
    Interned[I] = LLVMOrcLLJITMangleAndIntern(J->LLJIT, Names[I]);
  LLVMErrorRef E =
      orc_rt_jit_lookupAndWait(LLVMOrcLLJITGetExecutionSession(J->LLJIT), JD,
                               Interned, N, Addrs, NULL, NULL);
  for (size_t I = 0; I < N; ++I)
    LLVMOrcReleaseSymbolStringPoolEntry(Interned[I]);
  free(Interned);
  return orc_rt_jit_fromLLVMError(E, NULL);
}

/* The load failed: what LLVM's session reported meanwhile is its cause
 * ("m.ll: Symbols not found: [ f ]"), and is the message. Only without one
 * does the load's own error say what failed: otherwise it just lists, in
 * consequence, the symbols of the module that were not linked, under the
 * library's internal names ("Failed to materialize symbols: ..."). */
static orc_rt_ErrorRef withSessionErrors(orc_rt_JitRef J, const char *Name,
                                         orc_rt_ErrorRef Err) {
  char *Session = orc_rt_jit_Host_takeSessionErrors(J);
  orc_rt_ErrorRef Out = orc_rt_Error_createf(
      "%s: %s", Name, Session ? Session : orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  free(Session);
  return Out;
}

orc_rt_ErrorRef orc_rt_jit_HostVersion_build(
    orc_rt_JitModuleRef M, LLVMMemoryBufferRef Buf, const char *Source,
    LLVMOrcDefinitionGeneratorRef (*Gen)(orc_rt_jit_HostSlot *),
    orc_rt_jit_HostVersion **Out) {
  orc_rt_JitRef J = M->J;
  /* LLVM would read no bytes as a module with nothing in it, and a reload
   * would silently drop every function (an editor that truncates a file
   * before writing it hands a watching host exactly that). */
  if (!LLVMGetBufferSize(Buf)) {
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_createf(
        "%s: file too short: empty (0 bytes), not a module of LLVM IR", Source);
  }
  free(orc_rt_jit_Host_takeSessionErrors(J)); /* an earlier load's */
  orc_rt_jit_HostVersion *V = calloc(1, sizeof(*V));
  if (!V) {
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_createf("%s: out of memory", Source);
  }
  V->M = M;
  V->DsoMagic = ORC_RT_JIT_DSO_MAGIC;
  BuildCtx B = {J, M->Cur ? M->Cur->Vars : NULL, M->Cur ? M->Cur->NumVars : 0,
                Source};
  /* The cache's errors name the module (parse, verify). */
  orc_rt_ErrorRef Err = compileVersion(V, &B, Buf);
  if (Err) {
    freeVersion(V);
    return Err;
  }
  if (!(V->Slot = takeSlot(J, Gen)))
    Err = orc_rt_Error_create("out of memory");
  if (!Err) {
    pthread_mutex_lock(&J->SymLock);
    V->Slot->Owner = M;
    V->Slot->Dso = &V->Dso;
    V->Slot->DsoBound = false;
    ++M->LiveVersions;
    pthread_mutex_unlock(&J->SymLock);
    Err = orc_rt_TaskGroup_createNested(
        &V->Group, orc_rt_Session_managedCodeTokenSource(J->S), onComplete, V);
    if (Err) {
      pthread_mutex_lock(&J->SymLock);
      --M->LiveVersions;
      pthread_mutex_unlock(&J->SymLock);
    }
  }
  if (!Err)
    Err = makeId(V);
  if (!Err)
    Err = defineKept(V, &B);
  if (!Err && V->Lazy)
    Err = orc_rt_jit_HostLazy_define(V);
  if (!Err) {
    V->Link = (orc_rt_jit_LinkedModule){.LLJIT = J->LLJIT,
                                        .JD = V->Slot->JD,
                                        .Code = V->Code,
                                        .Id = V->Id,
                                        .AddObjects = addObjects,
                                        .Lookup = lookup,
                                        .Ctx = J};
    Err = orc_rt_jit_LinkedModule_link(&V->Link);
  }
  if (!Err && V->Lazy)
    Err = orc_rt_jit_HostLazy_resolveImports(V, lookup, J);
  if (!Err)
    Err = checkTLSImports(V);
  if (!Err)
    Err = readVars(V, &B);
  if (!Err) {
    *Out = V;
    return NULL;
  }
  Err = withSessionErrors(J, Source, Err);
  if (V->Group) /* completes at once: onComplete frees the version */
    orc_rt_TaskGroup_close(V->Group);
  else
    orc_rt_jit_HostVersion_release(V);
  return Err;
}
