/*===- lib/jit/host/HostModule.c - orc_rt_JitModule: load, look up, unload ===*/
/* A module is its current version (HostVersion.c) and the fronts through
 * which its functions are called: permanent entries that a reload points at
 * the next version's stubs (HostReload.c). Its life (HostParts.h has the
 * locks):
 *
 *   load:   build its first version -> fronts -> constructors
 *   unload: the current version's destructors and atexit handlers -> close
 *           its group -> (last token back) its code freed; the module's
 *           bookkeeping goes with its last version, then OnFreed
 *   detach: each module still loaded is finalized the same way and its group
 *           closed "by shutdown": its code goes with the whole JIT after the
 *           Session's drain. */

#include "jit/host/HostModule.h"
#include "jit/compile/SymbolImport.h"
#include "jit/host/HostThreadDtors.h"
#include "jit/host/HostVersion.h"
#include "jit/host/ModuleLink.h"
#include "jit/ir/EmuTLS.h"
#include "jit/modules/ModuleStubs.h"
#include "jit/support/Diag.h"
#include "jit/support/GrowArray.h"

#include "orc-rt-c/NestedGroup.h"

#include <llvm-c/Error.h>
#include <llvm-c/Orc.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*---- Resolving a module's undefined symbols ----*/

/* Under SymLock: M's front for Key, or 0. */
static uint64_t frontOf(orc_rt_JitModuleRef M, const char *Key) {
  for (size_t I = 0; I < M->NumFronts; ++I)
    if (!strcmp(M->Fronts[I].Key, Key))
      return M->Fronts[I].Front;
  return 0;
}

/* Under SymLock: what M exports as Name now: a function's front, a
 * variable's storage (kept variables included, which the current version
 * only declares). */
static bool exportOf(orc_rt_JitModuleRef M, const char *Name, uint64_t *Addr) {
  const orc_rt_jit_HostVersion *V = M->Cur;
  const orc_rt_jit_ExportList *X = &V->Code->Exports;
  for (size_t I = 0; I < X->Size; ++I)
    if (!strcmp(X->Items[I].Name, Name)) {
      /* Over another's JIT a module has one version: its stubs are its
       * entries (no front, so no second jump on every call). */
      *Addr = X->Items[I].IsFunction && !M->J->Owned ? frontOf(M, Name)
                                                     : V->Link.ExportAddrs[I];
      return *Addr != 0;
    }
  for (size_t I = 0; I < V->NumVars; ++I)
    if (V->Vars[I].Key.External && !strcmp(V->Vars[I].Key.Name, Name)) {
      *Addr = V->Vars[I].Addr;
      return true;
    }
  return false;
}

/* Under SymLock: the exports of the loaded modules, oldest first wins (as
 * RTLD_GLOBAL libraries). The variables' companions are the loader's. */
static bool findExport(orc_rt_JitRef J, const char *Name, uint64_t *Addr,
                       orc_rt_JitModuleRef *From) {
  if (!strncmp(Name, "__orc_rt_var:", 13))
    return false;
  bool Found = false;
  for (orc_rt_JitModuleRef M = J->Loaded; M; M = M->Next) {
    uint64_t A;
    if (M->Hidden || M->Unloading || M->ByShutdown || !exportOf(M, Name, &A))
      continue;
    *Addr = A;
    *From = M;
    Found = true; /* keep going: the oldest wins */
  }
  return Found;
}

bool orc_rt_jit_Host_isDefinedInJit(orc_rt_JitRef J, const char *Name) {
  LLVMOrcSymbolStringPoolEntryRef S =
      LLVMOrcLLJITMangleAndIntern(J->LLJIT, Name);
  uint64_t Addr;
  orc_rt_JitModuleRef From;
  pthread_mutex_lock(&J->SymLock);
  bool Found = orc_rt_jit_PtrSet_has(&J->HostNames, S) ||
               findExport(J, Name, &Addr, &From);
  pthread_mutex_unlock(&J->SymLock);
  LLVMOrcReleaseSymbolStringPoolEntry(S);
  return Found;
}

/* Under SymLock: the module's own __dso_handle (its slot records that the
 * code named it), a name the host added, or a name another loaded module
 * exports (see findExport; the module being linked records that it bound
 * it). */
static bool findForSlot(LLVMOrcSymbolStringPoolEntryRef Sym, uint64_t *Addr,
                        void *Ctx) {
  orc_rt_jit_HostSlot *Slot = Ctx;
  const char *Name = LLVMOrcSymbolStringPoolEntryStr(Sym);
  if (Slot->Dso && !strcmp(Name, "__dso_handle")) { /* the module's own */
    *Addr = (uintptr_t)Slot->Dso;
    Slot->DsoBound = true;
    return true;
  }
  /* Thread-local destructors keep their version (HostThreadDtors.c); over
   * another's JIT, the owner's runtime has its own. */
  if (!Slot->J->Owned && !strcmp(Name, "__cxa_thread_atexit")) {
    *Addr = (uintptr_t)orc_rt_jit_Host_threadAtexit;
    return true;
  }
  /* The host's symbols come first (keyed by the same pool's entries). */
  if (orc_rt_jit_PtrSet_has(&Slot->J->HostNames, Sym)) {
    *Addr = (uintptr_t)orc_rt_jit_PtrSet_get(&Slot->J->HostNames, Sym);
    return true;
  }
  orc_rt_JitModuleRef From;
  if (!findExport(Slot->J, Name, Addr, &From) || From == Slot->Owner)
    return false;
  if (Slot->Owner)
    orc_rt_jit_ExitOrderNode_addDep(&Slot->Owner->Order, &From->Order);
  return true;
}

/* A module's JITDylib's one generator: names it does not define come from
 * the other loaded modules (their stubs), else from the main JITDylib (the
 * host's symbols, the process's) or, over another's JIT, its owner's. */
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
      findForSlot, Slot,
      J->Owned ? J->Owner.Fallback : LLVMOrcLLJITGetMainJITDylib(J->LLJIT));
}

LLVMOrcDefinitionGeneratorRef
orc_rt_jit_Host_generatorFor(orc_rt_jit_HostSlot *S) {
  return LLVMOrcCreateCustomCAPIDefinitionGenerator(generate, S, NULL);
}

/*---- Fronts ----*/

/* Makes the fronts V's functions need and M does not have yet, jumping to
 * V's stubs: one per exported function, and one per escaping function (not
 * handed out: a function pointer an older version gave out is called
 * through it). Under Lock. */
static orc_rt_ErrorRef frontFor(orc_rt_JitModuleRef M, char *Key,
                                uint64_t Stub) {
  orc_rt_JitRef J = M->J;
  pthread_mutex_lock(&J->SymLock);
  uint64_t F = frontOf(M, Key);
  pthread_mutex_unlock(&J->SymLock);
  if (F) {
    free(Key);
    return NULL;
  }
  F = orc_rt_jit_ModuleStubs_createFront(M->Id, Key[0] == 1 ? Key + 1 : Key,
                                         Stub);
  pthread_mutex_lock(&J->SymLock);
  bool Room = F && orc_rt_jit_growArray(&M->Fronts, &M->CapFronts,
                                        M->NumFronts + 1, sizeof(*M->Fronts));
  if (Room)
    M->Fronts[M->NumFronts++] = (orc_rt_jit_HostFront){Key, F};
  pthread_mutex_unlock(&J->SymLock);
  if (Room)
    return NULL;
  free(Key);
  return orc_rt_Error_createf("%s: out of memory", M->Name);
}

static char *escapeKey(const char *Target) {
  size_t N = strlen(Target);
  char *K = malloc(N + 2);
  if (K) {
    K[0] = 1;
    memcpy(K + 1, Target, N + 1);
  }
  return K;
}

orc_rt_ErrorRef orc_rt_jit_Host_makeFronts(orc_rt_JitModuleRef M,
                                           orc_rt_jit_HostVersion *V) {
  orc_rt_ErrorRef Err = NULL;
  const orc_rt_jit_ExportList *X = &V->Code->Exports;
  for (size_t I = 0; !Err && I < X->Size; ++I) {
    if (!X->Items[I].IsFunction)
      continue;
    char *Key = strdup(X->Items[I].Name);
    Err = Key ? frontFor(M, Key, V->Link.ExportAddrs[I])
              : orc_rt_Error_createf("%s: out of memory", M->Name);
  }
  const orc_rt_jit_EscapeList *E = &V->Code->Escapes;
  for (size_t I = 0; !Err && I < E->Size; ++I) {
    char *Key = escapeKey(E->Items[I].Target);
    Err = Key ? frontFor(M, Key, V->Link.EscapeStubs[I])
              : orc_rt_Error_createf("%s: out of memory", M->Name);
  }
  return Err;
}

/* Under Lock, after makeFronts(M, V): every front of V's functions jumps to
 * V's stub from here on. */
void orc_rt_jit_Host_retargetFronts(orc_rt_JitModuleRef M,
                                    orc_rt_jit_HostVersion *V) {
  orc_rt_JitRef J = M->J;
  pthread_mutex_lock(&J->SymLock);
  const orc_rt_jit_ExportList *X = &V->Code->Exports;
  for (size_t I = 0; I < X->Size; ++I) {
    uint64_t F = X->Items[I].IsFunction ? frontOf(M, X->Items[I].Name) : 0;
    if (F)
      orc_rt_jit_ModuleStubs_retarget(F, V->Link.ExportAddrs[I]);
  }
  const orc_rt_jit_EscapeList *E = &V->Code->Escapes;
  for (size_t I = 0; I < E->Size; ++I) {
    char *Key = escapeKey(E->Items[I].Target);
    uint64_t F = Key ? frontOf(M, Key) : 0;
    free(Key);
    if (F)
      orc_rt_jit_ModuleStubs_retarget(F, V->Link.EscapeStubs[I]);
  }
  pthread_mutex_unlock(&J->SymLock);
}

/* Names, for each of V's stubs, the front a call denied there goes on
 * through once V is superseded. Under Lock. */
void orc_rt_jit_Host_linkStubsToFronts(orc_rt_JitModuleRef M,
                                       orc_rt_jit_HostVersion *V) {
  orc_rt_JitRef J = M->J;
  pthread_mutex_lock(&J->SymLock);
  const orc_rt_jit_ExportList *X = &V->Code->Exports;
  for (size_t I = 0; I < X->Size; ++I)
    if (X->Items[I].IsFunction)
      orc_rt_jit_ModuleStubs_setFront(V->Link.ExportAddrs[I],
                                      frontOf(M, X->Items[I].Name));
  const orc_rt_jit_EscapeList *E = &V->Code->Escapes;
  for (size_t I = 0; I < E->Size; ++I) {
    char *Key = escapeKey(E->Items[I].Target);
    if (Key)
      orc_rt_jit_ModuleStubs_setFront(V->Link.EscapeStubs[I], frontOf(M, Key));
    free(Key);
  }
  pthread_mutex_unlock(&J->SymLock);
}

/*---- Loading ----*/

orc_rt_ErrorRef orc_rt_jit_Host_load(orc_rt_JitRef J, const char *Name,
                                     LLVMMemoryBufferRef Buf,
                                     orc_rt_JitModuleRef *Result) {
  pthread_mutex_lock(J->Lock);
  if (J->ShuttingDown) {
    pthread_mutex_unlock(J->Lock);
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_createf("%s: cannot load: the Session is shutting down",
                                Name);
  }
  orc_rt_JitModuleRef M = calloc(1, sizeof(*M));
  char *Copy = M ? strdup(Name) : NULL;
  if (!Copy) {
    free(M);
    pthread_mutex_unlock(J->Lock);
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_createf("%s: out of memory", Name);
  }
  M->J = J;
  M->Name = Copy;
  M->Order.Serial = ++J->NextSerial;
  M->Hidden = J->Owned; /* a dlopen shows it (RTLD_GLOBAL) once loaded */
  orc_rt_jit_HostVersion *V;
  orc_rt_ErrorRef Err = orc_rt_jit_Host_makeModuleId(M);
  if (Err) {
    orc_rt_jit_Host_freeModule(M);
    pthread_mutex_unlock(J->Lock);
    LLVMDisposeMemoryBuffer(Buf);
    return Err;
  }
  Err = orc_rt_jit_HostVersion_build(M, Buf, M->Name,
                                     orc_rt_jit_Host_generatorFor, &V);
  if (!Err && !J->Owned && (Err = orc_rt_jit_Host_makeFronts(M, V))) {
    orc_rt_TaskGroup_close(V->Group); /* completes: frees the version */
  }
  if (Err) { /* no version is left */
    orc_rt_jit_Host_freeModule(M);
    pthread_mutex_unlock(J->Lock);
    return Err;
  }
  pthread_mutex_lock(&J->SymLock);
  M->Cur = V;
  M->Next = J->Loaded;
  J->Loaded = M;
  pthread_mutex_unlock(&J->SymLock);
  if (J->Owned && J->Owner.OnLinked)
    J->Owner.OnLinked(M, J->Owner.Ctx);
  orc_rt_jit_HostVersion_construct(V);
  pthread_mutex_unlock(J->Lock);
  *Result = M;
  return NULL;
}

/*---- Looking up ----*/

/* What looking Name up gives the calling thread: M's export, or (M NULL)
 * the visible modules' (findExport); a thread_local, exported as its control
 * variable, gives this thread's copy, as glibc's dlsym does. False if not
 * found, or, *OutOfMemory set, if memory ran out before it could tell. */
static bool exportForThread(orc_rt_JitRef J, orc_rt_JitModuleRef M,
                            const char *Name, uint64_t *Addr,
                            bool *OutOfMemory) {
  char *Ctl = NULL;
  uint64_t CtlAddr = 0;
  orc_rt_JitModuleRef From;
  pthread_mutex_lock(&J->SymLock);
  bool Found = M ? exportOf(M, Name, Addr) : findExport(J, Name, Addr, &From);
  if (!Found) /* (the name is made only then: no allocation otherwise) */
    Ctl = orc_rt_jit_emuTLSControlName(Name, strlen(Name));
  *OutOfMemory = !Found && !Ctl;
  bool IsTLS = Ctl && (M ? exportOf(M, Ctl, &CtlAddr)
                         : findExport(J, Ctl, &CtlAddr, &From));
  pthread_mutex_unlock(&J->SymLock);
  free(Ctl);
  if (IsTLS) {
    *Addr =
        (uintptr_t)orc_rt_jit_emuTLSAddress((void *)(uintptr_t)CtlAddr, Name);
    Found = *Addr != 0;
  }
  return Found;
}

orc_rt_ErrorRef orc_rt_JitModule_lookup(orc_rt_JitModuleRef M, const char *Name,
                                        void **Result) {
  uint64_t Addr = 0;
  bool OutOfMemory = false;
  if (!strncmp(Name, "__orc_rt_var:", 13) ||
      !strcmp(Name, ORC_RT_JIT_TLS_IMPORTS) ||
      !exportForThread(M->J, M, Name, &Addr, &OutOfMemory))
    return OutOfMemory ? orc_rt_Error_createf("%s: looking up '%s': out of "
                                              "memory",
                                              M->Name, Name)
                       : orc_rt_Error_createf("%s: no exported symbol '%s'",
                                              M->Name, Name);
  *Result = (void *)(uintptr_t)Addr;
  return NULL;
}

/*---- Unloading ----*/

/* Under SymLock: another loaded module bound symbols from M. */
bool orc_rt_jit_Host_isNeeded(orc_rt_JitRef J, orc_rt_JitModuleRef M) {
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
  orc_rt_jit_HostVersion *V = M->Cur;
  pthread_mutex_lock(&J->SymLock);
  M->Finalizing = true; /* (an unload its destructors make passes it over) */
  pthread_mutex_unlock(&J->SymLock);
  orc_rt_jit_HostVersion_finalize(V);
  unlist(J, M);
  pthread_mutex_lock(&J->SymLock);
  M->Gone = true;
  pthread_mutex_unlock(&J->SymLock);
  orc_rt_TaskGroup_close(V->Group); /* may free M (its last version) */
}

void orc_rt_JitModule_unload(orc_rt_JitModuleRef M, orc_rt_CallbackFn OnFreed,
                             void *Ctx) {
  orc_rt_JitRef J = M->J;
  /* Frames this thread left by longjmp (a stale-call handler's) or an
   * exception give their modules' tokens back first: the module can go once
   * no live frame is inside it. */
  orc_rt_jit_ModuleStubs_dropDeadFrames((uintptr_t)__builtin_frame_address(0));
  pthread_mutex_lock(J->Lock);
  if (M->Unloading) { /* a second unload (its own destructor's): nothing */
    pthread_mutex_unlock(J->Lock);
    return;
  }
  M->OnFreed = OnFreed;
  M->OnFreedCtx = Ctx;
  if (M->Reloading) { /* by its versions' constructors or destructors */
    M->UnloadAfterReload = true;
    pthread_mutex_unlock(J->Lock);
    return;
  }
  if (M->ByShutdown) { /* finalized by shutdown already: freed with the JIT */
    pthread_mutex_unlock(J->Lock);
    return;
  }
  pthread_mutex_lock(&J->SymLock);
  M->Unloading = true;
  bool Needed = orc_rt_jit_Host_isNeeded(J, M);
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
      if (N->Unloading && !N->Finalizing && !orc_rt_jit_Host_isNeeded(J, N))
        Next = N;
    pthread_mutex_unlock(&J->SymLock);
    if (Next) {
      unloadNow(J, Next);
      Again = true;
    }
  }
  pthread_mutex_unlock(J->Lock);
}

/*---- What a dlopen needs (JitOver.h) ----*/

void orc_rt_jit_JitModule_setVisible(orc_rt_JitModuleRef M, bool Visible) {
  pthread_mutex_lock(&M->J->SymLock);
  M->Hidden = !Visible;
  pthread_mutex_unlock(&M->J->SymLock);
}

bool orc_rt_jit_Jit_findGlobal(orc_rt_JitRef J, const char *Name,
                               uint64_t *Addr) {
  bool OutOfMemory; /* (then not found, as dlsym would say) */
  return exportForThread(J, NULL, Name, Addr, &OutOfMemory);
}

bool orc_rt_jit_JitModule_isNeeded(orc_rt_JitModuleRef M) {
  pthread_mutex_lock(&M->J->SymLock);
  bool Needed = orc_rt_jit_Host_isNeeded(M->J, M);
  pthread_mutex_unlock(&M->J->SymLock);
  return Needed;
}

bool orc_rt_jit_Jit_runHandlerOf(orc_rt_JitRef J, const void *Dso,
                                 const orc_rt_jit_AtexitHandler *H) {
  pthread_mutex_lock(&J->SymLock);
  orc_rt_JitModuleRef M = J->Loaded;
  while (M && (!M->Cur || &M->Cur->Dso != Dso))
    M = M->Next;
  orc_rt_jit_HostVersion *V = M ? M->Cur : NULL;
  /* A listed module's version is not closed yet (unload unlists it first):
   * this token keeps it from being freed until the handler is done. */
  bool Pinned = V && orc_rt_TaskGroup_acquireToken(V->Group);
  pthread_mutex_unlock(&J->SymLock);
  if (!V)
    return false;
  if (Pinned) {
    orc_rt_jit_HostVersion_run(V, "atexit handler", H);
    orc_rt_TaskGroup_releaseToken(V->Group);
  }
  return true;
}

/*---- At the Session's detach ----*/

static orc_rt_JitModuleRef moduleOf(orc_rt_jit_ExitOrderNode *Node) {
  return (orc_rt_JitModuleRef)((char *)Node -
                               offsetof(struct orc_rt_OpaqueJitModule, Order));
}

static void finalizeByShutdown(orc_rt_JitModuleRef M) {
  orc_rt_jit_HostVersion *V = M->Cur;
  orc_rt_jit_HostVersion_finalize(V);
  M->ByShutdown = V->ByShutdown = true;
  /* Release: pairs with the acquire load in ModuleStubs.c's denied, which
   * reads it after its token was denied by this close. */
  __atomic_store_n(&V->Id->ClosedByShutdown, true, __ATOMIC_RELEASE);
  orc_rt_TaskGroup_close(V->Group);
}

/* Under SymLock: whether M is still loaded (a destructor may have unloaded
 * it) and not finalized yet; one kept for a module that uses it is. */
static bool pending(orc_rt_JitRef J, orc_rt_JitModuleRef M) {
  for (orc_rt_JitModuleRef N = J->Loaded; N; N = N->Next)
    if (N == M)
      return !M->ByShutdown;
  return false;
}

/* Under Lock: the modules still loaded, in glibc's _dl_fini order
 * (modules/ModuleExitOrder.h: newest first, a module before those it bound
 * symbols from), until their destructors load no more. */
void orc_rt_jit_Host_finalizeAll(orc_rt_JitRef J) {
  while (true) {
    pthread_mutex_lock(&J->SymLock);
    size_t N = 0;
    for (orc_rt_JitModuleRef M = J->Loaded; M; M = M->Next)
      N += pending(J, M);
    orc_rt_jit_ExitOrderNode **Order = N ? calloc(2 * N, sizeof(*Order)) : NULL;
    orc_rt_JitModuleRef Oldest = NULL;
    if (Order) {
      size_t I = N;
      for (orc_rt_JitModuleRef M = J->Loaded; M; M = M->Next)
        if (pending(J, M))
          Order[N + --I] = &M->Order; /* Loaded is newest first */
      orc_rt_jit_ExitOrder_sort(Order, Order + N, N);
    } else {
      for (orc_rt_JitModuleRef M = J->Loaded; M; M = M->Next)
        if (pending(J, M))
          Oldest = M; /* out of memory: the oldest first, then */
    }
    pthread_mutex_unlock(&J->SymLock);
    if (!N)
      return;
    if (!Order) {
      finalizeByShutdown(Oldest);
      continue;
    }
    for (size_t I = 0; I < N; ++I) {
      orc_rt_JitModuleRef M = moduleOf(Order[I]);
      pthread_mutex_lock(&J->SymLock);
      bool Still = pending(J, M);
      pthread_mutex_unlock(&J->SymLock);
      if (Still)
        finalizeByShutdown(M);
    }
    free(Order);
  }
}
