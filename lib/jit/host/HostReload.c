/*===- lib/jit/host/HostReload.c - orc_rt_JitModule_reload: hot reload ----===*/
/* A reload replaces a module's current version with a new one built from
 * new bytes, under the Jit's Lock (HostParts.h):
 *
 *   1. build the new version (HostVersion.c): compiled with the current
 *      version's variables as declarations of their storage, linked into a
 *      JITDylib of its own, its stubs and its own group; fronts for its new
 *      functions. Any failure ends the reload here: the new version is gone,
 *      the current one untouched.
 *   2. the old version's destructors and atexit handlers (as at dlclose),
 *      then the new version's constructors (as at dlopen): the load/unload
 *      hooks of a C hot-reload library, in that order, so a kept variable's
 *      object is destroyed before it is constructed again.
 *   3. the switch: every front is pointed at the new version's stub (one
 *      8-byte store each), the old version's stubs learn their fronts, the
 *      old version is marked superseded and its group closed. A call that
 *      read a front before its store either got the old version's token
 *      before the close (it runs in the old code, which stays until it
 *      returns) or is denied and goes on through the front to the new
 *      version (modules/ModuleStubs.c's denied).
 *   4. the old version's code and data are freed when its last call
 *      returns -- unless its data holds a variable the new version kept, or
 *      another module bound its symbols: then it stays mapped (its code
 *      unreachable) until the module is unloaded or no longer needs it. */

#include "jit/host/HostReload.h"
#include "jit/host/HostModule.h"
#include "jit/host/HostVersion.h"

#include "orc-rt-c/Jit.h"

#include <stdlib.h>

/* Under SymLock: V's data holds a variable of Cur's. */
static bool holdsVariableOf(const orc_rt_jit_HostVersion *V,
                            const orc_rt_jit_HostVersion *Cur) {
  for (size_t I = 0; I < Cur->NumVars; ++I)
    if (Cur->Vars[I].Owner == V)
      return true;
  return false;
}

/* Under Lock, after the switch to Cur: which versions stay mapped for their
 * data; the kept-but-drained ones that no longer need to are freed. */
static void repin(orc_rt_JitModuleRef M, orc_rt_jit_HostVersion *Old) {
  orc_rt_JitRef J = M->J;
  orc_rt_jit_HostVersion *Cur = M->Cur, *Free = NULL;
  pthread_mutex_lock(&J->SymLock);
  Old->Bound = Old->Bound || orc_rt_jit_Host_isNeeded(J, M);
  Old->Pinned = Old->Bound || holdsVariableOf(Old, Cur);
  for (orc_rt_jit_HostVersion **P = &M->Pinned; *P;) {
    orc_rt_jit_HostVersion *V = *P;
    if (V->Bound || holdsVariableOf(V, Cur)) {
      P = &V->NextPinned;
      continue;
    }
    *P = V->NextPinned;
    V->NextPinned = Free;
    Free = V;
  }
  pthread_mutex_unlock(&J->SymLock);
  while (Free) {
    orc_rt_jit_HostVersion *Next = Free->NextPinned;
    orc_rt_jit_HostVersion_release(Free);
    Free = Next;
  }
}

orc_rt_ErrorRef orc_rt_jit_Host_reload(orc_rt_JitModuleRef M,
                                       LLVMMemoryBufferRef Buf,
                                       const char *Source) {
  orc_rt_JitRef J = M->J;
  pthread_mutex_lock(J->Lock);
  const char *Why =
      J->Owned ? "its Jit's owner does not reload modules"
      : J->ShuttingDown || M->ByShutdown ? "the Session is shutting down"
      : M->Unloading                     ? "it is being unloaded"
      : M->Reloading ? "a reload of it is under way (its constructors or "
                       "destructors reload it)"
                     : NULL;
  if (Why) {
    pthread_mutex_unlock(J->Lock);
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_createf("%s: cannot reload: %s", M->Name, Why);
  }
  orc_rt_jit_HostVersion *Old = M->Cur, *New;
  orc_rt_ErrorRef Err = orc_rt_jit_HostVersion_build(
      M, Buf, Source, orc_rt_jit_Host_generatorFor, &New);
  if (!Err && (Err = orc_rt_jit_Host_makeFronts(M, New)))
    orc_rt_TaskGroup_close(New->Group); /* completes: frees the version */
  if (Err) {
    pthread_mutex_unlock(J->Lock);
    return Err;
  }
  M->Reloading = true;
  orc_rt_jit_HostVersion_finalize(Old);
  orc_rt_jit_HostVersion_construct(New);
  M->Reloading = false;
  orc_rt_jit_Host_retargetFronts(M, New);
  orc_rt_jit_Host_linkStubsToFronts(M, Old);
  pthread_mutex_lock(&J->SymLock);
  M->Cur = New;
  pthread_mutex_unlock(&J->SymLock);
  repin(M, Old);
  /* Release: orders the fronts' new targets and the old stubs' fronts
   * (stored above) before the mark; pairs with the acquire load in
   * ModuleStubs.c's denied, which reads the mark after this close denied
   * its token. */
  __atomic_store_n(&Old->Id->Superseded, true, __ATOMIC_RELEASE);
  orc_rt_TaskGroup_close(Old->Group); /* may free Old (its last call is out) */
  if (M->UnloadAfterReload)           /* (M is the host's no more) */
    orc_rt_JitModule_unload(M, M->OnFreed, M->OnFreedCtx);
  pthread_mutex_unlock(J->Lock);
  return NULL;
}
