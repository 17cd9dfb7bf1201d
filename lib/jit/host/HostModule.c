/*===- lib/jit/host/HostModule.c - orc_rt_JitModule: load, look up, unload ===*/
/* A module's life (HostJit.h has the locks):
 *
 *   load:   compile (or take from the cache: cache/ModuleCache.h) -> link
 *           into a JITDylib of its own -> nested group under the Session's
 *           -> stubs -> constructors, under its token
 *   unload: destructors + its atexit handlers (__cxa_finalize of its
 *           __dso_handle), under its token -> close its group -> (last token
 *           back, on that thread) -> JITDylib removed, code freed, OnFreed
 *   detach: each module still loaded is finalized the same way and its group
 *           closed "by shutdown": its code goes with the whole JIT after the
 *           Session's drain. */

#include "jit/compile/SymbolImport.h"
#include "jit/host/HostJit.h"
#include "jit/host/ModuleLink.h"
#include "jit/support/Diag.h"

#include "orc-rt-c/NestedGroup.h"

#include <llvm-c/Error.h>
#include <llvm-c/Orc.h>

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
          "unloaded\n",
          Function, Module);
  abort();
}

/*---- Resolving a module's undefined symbols ----*/

/* Under SymLock: the exports of the loaded modules, oldest first wins (as
 * RTLD_GLOBAL libraries). */
static bool findExport(orc_rt_JitRef J, const char *Name, uint64_t *Addr,
                       orc_rt_JitModuleRef *From) {
  bool Found = false;
  for (orc_rt_JitModuleRef M = J->Loaded; M; M = M->Next) {
    if (M->Unloading || M->ByShutdown)
      continue;
    const orc_rt_jit_ExportList *X = &M->Code->Exports;
    for (size_t I = 0; I < X->Size; ++I)
      if (!strcmp(X->Items[I].Name, Name)) {
        *Addr = M->Link.ExportAddrs[I];
        *From = M;
        Found = true; /* keep going: the oldest wins */
        break;
      }
  }
  return Found;
}

/* Under SymLock: a name another loaded module exports (see findExport);
 * the module being linked records that it bound it. */
static bool findForSlot(const char *Name, uint64_t *Addr, void *Ctx) {
  orc_rt_jit_HostSlot *Slot = Ctx;
  orc_rt_JitModuleRef From;
  if (!findExport(Slot->J, Name, Addr, &From) || From == Slot->Owner)
    return false;
  if (Slot->Owner)
    orc_rt_jit_ExitOrderNode_addDep(&Slot->Owner->Order, &From->Order);
  return true;
}

/* A module's JITDylib's one generator: names it does not define come from
 * the other loaded modules (their stubs), else from the main JITDylib (the
 * host's symbols, the process's). */
static LLVMErrorRef generate(LLVMOrcDefinitionGeneratorRef G, void *Ctx,
                             LLVMOrcLookupStateRef *State,
                             LLVMOrcLookupKind Kind, LLVMOrcJITDylibRef JD,
                             LLVMOrcJITDylibLookupFlags Flags,
                             LLVMOrcCLookupSet Set, size_t N) {
  (void)G, (void)Kind, (void)Flags;
  orc_rt_jit_HostSlot *Slot = Ctx;
  orc_rt_JitRef J = Slot->J;
  return orc_rt_jit_generateFromModules(
      LLVMOrcLLJITGetExecutionSession(J->LLJIT), JD, State, Set, N, &J->SymLock,
      findForSlot, Slot, LLVMOrcLLJITGetMainJITDylib(J->LLJIT));
}

/*---- Linking (host/ModuleLink.h) ----*/

static orc_rt_ErrorRef addObjects(LLVMOrcJITDylibRef JD,
                                  const LLVMMemoryBufferRef *Objects, size_t N,
                                  void *Ctx) {
  orc_rt_JitRef J = Ctx;
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

/*---- Running code in a module, and freeing it ----*/

/* Under the module's token; false if it is refused (the module is going). */
static bool runInModule(orc_rt_JitModuleRef M, void (*Fn)(void)) {
  if (!orc_rt_TaskGroup_acquireToken(M->Group))
    return false;
  Fn();
  orc_rt_TaskGroup_releaseToken(M->Group);
  return true;
}

static void runInits(orc_rt_JitModuleRef M, const orc_rt_jit_InitList *L,
                     const uint64_t *Addrs, bool Reverse, int Prioritized) {
  for (size_t K = 0; K < L->Size; ++K) {
    size_t I = Reverse ? L->Size - 1 - K : K;
    if (Prioritized >= 0 && (L->Items[I].Priority != 65535) != Prioritized)
      continue;
    runInModule(M, (void (*)(void))(uintptr_t)Addrs[I]);
  }
}

/* As glibc's dlclose: the .fini_array backwards, and in it (crtbegin's
 * __do_global_dtors_aux, between the prioritized and the other entries)
 * __cxa_finalize of the module's handle: the atexit handlers it registered,
 * newest first. Under the module's token throughout. */
static void finalize(orc_rt_JitModuleRef M) {
  if (!orc_rt_TaskGroup_acquireToken(M->Group))
    return;
  runInits(M, &M->Code->Dtors, M->Link.DtorAddrs, true, 0);
  __cxa_finalize(&M->Dso);
  runInits(M, &M->Code->Dtors, M->Link.DtorAddrs, true, 1);
  orc_rt_TaskGroup_releaseToken(M->Group);
}

void orc_rt_jit_Host_freeModule(orc_rt_JitModuleRef M) {
  if (M->Id && !M->Link.StubsMade) { /* no stub points at it */
    orc_rt_TokenSource_dispose(M->Id->Tokens);
    free(M->Id->Path);
    free(M->Id);
  }
  orc_rt_TaskGroup_destroy(M->Group);
  orc_rt_jit_LinkedModule_dispose(&M->Link);
  orc_rt_jit_ExitOrderNode_dispose(&M->Order);
  free(M);
}

/* Empties the slot's JITDylib (freeing the module's code and data) and keeps
 * it for the next load. */
static void releaseSlot(orc_rt_JitRef J, orc_rt_jit_HostSlot *S) {
  pthread_mutex_lock(&J->SymLock);
  S->Owner = NULL;
  pthread_mutex_unlock(&J->SymLock);
  LLVMErrorRef E = LLVMOrcJITDylibClear(S->JD);
  if (E)
    LLVMConsumeError(E); /* nothing to tell: the module is gone either way */
  pthread_mutex_lock(&J->SymLock);
  S->NextFree = J->FreeSlots;
  J->FreeSlots = S;
  pthread_mutex_unlock(&J->SymLock);
}

/* The module's group completed: no frame is inside its code any more. Runs on
 * the thread that gave the last token back (in a stub's return path, which
 * holds no lock), or on the unloading thread if none was out. Closed by
 * shutdown: the code goes with the whole JIT, after the drain. */
static void onComplete(void *Ctx) {
  orc_rt_JitModuleRef M = Ctx;
  if (M->ByShutdown)
    return;
  orc_rt_CallbackFn OnFreed = M->OnFreed;
  void *OnFreedCtx = M->OnFreedCtx;
  if (M->Slot)
    releaseSlot(M->J, M->Slot);
  orc_rt_jit_Host_freeModule(M);
  if (OnFreed)
    OnFreed(OnFreedCtx);
}

/*---- Loading ----*/

/* A cleared JITDylib from an unloaded module, or a new one. Under Lock. */
static orc_rt_jit_HostSlot *takeSlot(orc_rt_JitRef J) {
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
  LLVMOrcJITDylibAddGenerator(
      S->JD, LLVMOrcCreateCustomCAPIDefinitionGenerator(generate, S, NULL));
  S->NextAll = J->AllSlots;
  J->AllSlots = S;
  return S;
}

static orc_rt_ErrorRef makeId(orc_rt_JitModuleRef M, const char *Name) {
  orc_rt_jit_StubModule *Id = calloc(1, sizeof(*Id));
  char *P = strdup(Name);
  orc_rt_TokenSourceRef TS =
      Id && P ? orc_rt_TaskGroup_getTokenSource(M->Group) : NULL;
  if (!TS) {
    free(Id);
    free(P);
    return orc_rt_Error_create("out of memory");
  }
  *Id = (orc_rt_jit_StubModule){.Tokens = TS,
                                .Group = M->Group,
                                .Path = P,
                                .OnStale = M->J->OnStale ? M->J->OnStale
                                                         : defaultStale,
                                .StaleCtx = M->J->StaleCtx};
  M->Id = Id; /* permanent from here: stubs point at it */
  return NULL;
}

/* The load failed: what LLVM's session reported meanwhile is its cause. */
static orc_rt_ErrorRef withSessionErrors(orc_rt_JitRef J, const char *Name,
                                         orc_rt_ErrorRef Err) {
  char *Session = orc_rt_jit_Host_takeSessionErrors(J);
  orc_rt_ErrorRef Out =
      orc_rt_Error_createf("%s: %s%s%s", Name, orc_rt_Error_getMessage(Err),
                           Session ? ": " : "", Session ? Session : "");
  orc_rt_Error_consume(Err);
  free(Session);
  return Out;
}

orc_rt_ErrorRef orc_rt_jit_Host_load(orc_rt_JitRef J, const char *Name,
                                     LLVMMemoryBufferRef Buf,
                                     orc_rt_JitModuleRef *Result) {
  pthread_mutex_lock(&J->Lock);
  if (J->ShuttingDown) {
    pthread_mutex_unlock(&J->Lock);
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_createf("%s: cannot load: the Session is shutting down",
                                Name);
  }
  free(orc_rt_jit_Host_takeSessionErrors(J)); /* an earlier load's */
  orc_rt_JitModuleRef M = calloc(1, sizeof(*M));
  orc_rt_ErrorRef Err =
      M ? orc_rt_jit_ModuleCache_get(&J->Cache, &J->Compile, Name, Buf,
                                     &M->Code)
        : (LLVMDisposeMemoryBuffer(Buf), orc_rt_Error_create("out of memory"));
  if (Err) { /* the cache's errors name the module (parse, verify) */
    free(M);
    pthread_mutex_unlock(&J->Lock);
    return Err;
  }
  M->J = J;
  M->Order.Serial = ++J->NextSerial;
  if (!(M->Slot = takeSlot(J)))
    Err = orc_rt_Error_create("out of memory");
  if (!Err) {
    pthread_mutex_lock(&J->SymLock);
    M->Slot->Owner = M;
    pthread_mutex_unlock(&J->SymLock);
    Err = orc_rt_TaskGroup_createNested(
        &M->Group, orc_rt_Session_managedCodeTokenSource(J->S), onComplete, M);
  }
  if (!Err)
    Err = makeId(M, Name);
  if (!Err) {
    M->Link = (orc_rt_jit_LinkedModule){.LLJIT = J->LLJIT,
                                        .JD = M->Slot->JD,
                                        .Code = M->Code,
                                        .Id = M->Id,
                                        .DsoHandle = &M->Dso,
                                        .AddObjects = addObjects,
                                        .Lookup = lookup,
                                        .Ctx = J};
    Err = orc_rt_jit_LinkedModule_link(&M->Link);
  }
  if (Err) {
    Err = withSessionErrors(J, Name, Err);
    if (M->Group) /* completes at once: onComplete frees the module */
      orc_rt_TaskGroup_close(M->Group);
    else {
      if (M->Slot)
        releaseSlot(J, M->Slot);
      orc_rt_jit_Host_freeModule(M);
    }
    pthread_mutex_unlock(&J->Lock);
    return Err;
  }
  pthread_mutex_lock(&J->SymLock);
  M->Next = J->Loaded;
  J->Loaded = M;
  pthread_mutex_unlock(&J->SymLock);
  runInits(M, &M->Code->Ctors, M->Link.CtorAddrs, false, -1);
  pthread_mutex_unlock(&J->Lock);
  *Result = M;
  return NULL;
}

/*---- Looking up ----*/

orc_rt_ErrorRef orc_rt_JitModule_lookup(orc_rt_JitModuleRef M, const char *Name,
                                        void **Result) {
  const orc_rt_jit_ExportList *X = &M->Code->Exports;
  for (size_t I = 0; I < X->Size; ++I)
    if (!strcmp(X->Items[I].Name, Name)) {
      *Result = (void *)(uintptr_t)M->Link.ExportAddrs[I];
      return NULL;
    }
  return orc_rt_Error_createf("%s: no exported symbol '%s'", M->Id->Path, Name);
}

/*---- Unloading ----*/

/* Under SymLock: another loaded module bound symbols from M. */
static bool isNeeded(orc_rt_JitRef J, orc_rt_JitModuleRef M) {
  for (orc_rt_JitModuleRef N = J->Loaded; N; N = N->Next)
    if (N != M && !N->ByShutdown &&
        orc_rt_jit_ExitOrderNode_uses(&N->Order, &M->Order))
      return true;
  return false;
}

static void unlist(orc_rt_JitRef J, orc_rt_JitModuleRef M) {
  pthread_mutex_lock(&J->SymLock);
  for (orc_rt_JitModuleRef *P = &J->Loaded; *P; P = &(*P)->Next)
    if (*P == M) {
      *P = M->Next;
      break;
    }
  pthread_mutex_unlock(&J->SymLock);
}

/* Under Lock: M's destructors and handlers run, new entries are denied, and
 * its code goes once the last token is back. */
static void unloadNow(orc_rt_JitRef J, orc_rt_JitModuleRef M) {
  finalize(M);
  unlist(J, M);
  orc_rt_TaskGroup_close(M->Group); /* may free M (onComplete) */
}

void orc_rt_JitModule_unload(orc_rt_JitModuleRef M, orc_rt_CallbackFn OnFreed,
                             void *Ctx) {
  orc_rt_JitRef J = M->J;
  pthread_mutex_lock(&J->Lock);
  M->OnFreed = OnFreed;
  M->OnFreedCtx = Ctx;
  if (M->ByShutdown) { /* finalized by shutdown already: freed with the JIT */
    pthread_mutex_unlock(&J->Lock);
    return;
  }
  pthread_mutex_lock(&J->SymLock);
  M->Unloading = true;
  bool Needed = isNeeded(J, M);
  pthread_mutex_unlock(&J->SymLock);
  if (!Needed)
    unloadNow(J, M);
  /* As glibc's reldeps: what only unloaded modules used goes too, the
   * oldest... newest first (the list is newest first: glibc's order). */
  for (bool Again = !Needed; Again;) {
    Again = false;
    orc_rt_JitModuleRef Next = NULL;
    pthread_mutex_lock(&J->SymLock);
    for (orc_rt_JitModuleRef N = J->Loaded; N && !Next; N = N->Next)
      if (N->Unloading && !isNeeded(J, N))
        Next = N;
    pthread_mutex_unlock(&J->SymLock);
    if (Next) {
      unloadNow(J, Next);
      Again = true;
    }
  }
  pthread_mutex_unlock(&J->Lock);
}

/* Under Lock, at the Session's detach. */
void orc_rt_jit_Host_finalizeAll(orc_rt_JitRef J) {
  for (orc_rt_JitModuleRef M = J->Loaded; M; M = M->Next) {
    if (M->ByShutdown)
      continue;
    finalize(M);
    M->ByShutdown = true;
    __atomic_store_n(&M->Id->ClosedByShutdown, true, __ATOMIC_RELEASE);
    orc_rt_TaskGroup_close(M->Group);
  }
}
