/*===- lib/jit/host/HostJit.h - orc-rt-c/Jit.h's objects -----------------===*/
/* What a Jit (HostJit.c) and its modules (HostModule.c) are made of. A Jit is
 * one LLJIT: its main JITDylib holds the host's symbols (addSymbol) and finds
 * the process's; each module is linked into a JITDylib of its own whose
 * generator finds the other loaded modules' exports, then the main
 * JITDylib's symbols. Each module has a task group nested under the
 * Session's managed-code group, and its functions are reached through
 * token-taking stubs (modules/ModuleStubs.h). Locks:
 *
 *   Lock     serialises loads and unloads (held across compiling, linking,
 *            constructors and destructors, which may load or unload again
 *            on the same thread: recursive).
 *   SymLock  guards Loaded, the free JITDylibs and what the definition
 *            generators read (which run on whatever thread links and must
 *            not wait for a load in progress). */

#ifndef ORC_RT_C_LIB_JIT_HOST_HOSTJIT_H
#define ORC_RT_C_LIB_JIT_HOST_HOSTJIT_H

#include "jit/cache/ModuleCache.h"
#include "jit/host/ModuleLink.h"
#include "jit/modules/ModuleExitOrder.h"
#include "jit/modules/ModuleStubs.h"

#include "orc-rt-c/Jit.h"

#include <llvm-c/LLJIT.h>
#include <llvm-c/TargetMachine.h>

#include <pthread.h>

/* A JITDylib for one module at a time; cleared and reused after unloading
 * (ORC keeps a JITDylib's name and generator until the session ends). */
typedef struct orc_rt_jit_HostSlot {
  struct orc_rt_OpaqueJit *J;
  LLVMOrcJITDylibRef JD;
  struct orc_rt_OpaqueJitModule *Owner; /* under SymLock */
  struct orc_rt_jit_HostSlot *NextFree, *NextAll;
} orc_rt_jit_HostSlot;

struct orc_rt_OpaqueJitModule {
  struct orc_rt_OpaqueJit *J;
  orc_rt_jit_StubModule *Id; /* permanent once a stub points at it */
  orc_rt_TaskGroupRef Group;
  orc_rt_jit_HostSlot *Slot;
  orc_rt_jit_CompiledModule *Code; /* owned by J->Cache */
  orc_rt_jit_LinkedModule Link;    /* entries, constructors, destructors */
  orc_rt_jit_ExitOrderNode Order;  /* the modules it bound symbols from */
  bool Unloading;  /* unload was called; kept while a module uses it */
  bool ByShutdown; /* finalized by the Session's shutdown */
  orc_rt_CallbackFn OnFreed;
  void *OnFreedCtx;
  char Dso; /* its __dso_handle: its atexit handlers carry it */
  struct orc_rt_OpaqueJitModule *Next;
};

struct orc_rt_OpaqueJit {
  orc_rt_SessionRef S;
  orc_rt_JitOptions Opts;
  char *CacheDir;
  LLVMOrcLLJITRef LLJIT;
  LLVMTargetMachineRef TM; /* for compiling modules and running passes */
  char *Triple, *CPU, *Features, *DataLayout, *Settings;
  char Passes[24]; /* "default<O2>", or "" at -O0 */
  pthread_mutex_t Lock, SymLock;
  orc_rt_jit_ModuleCache Cache;          /* under Lock */
  orc_rt_jit_ModuleCompiler Compile;     /* under Lock */
  struct orc_rt_OpaqueJitModule *Loaded; /* newest first; under SymLock */
  orc_rt_jit_HostSlot *FreeSlots;        /* under SymLock */
  orc_rt_jit_HostSlot *AllSlots;         /* under Lock */
  unsigned NumSlots;
  unsigned long NextSerial;
  orc_rt_JitStaleCallFn OnStale;
  void *StaleCtx;
  /* What the ExecutionSession reported during the current load (the cause of
   * a failed link), under SymLock. */
  char *SessionErrors;
  bool ShuttingDown; /* under Lock */
};

/* Loads the module in Buf (consumed) under J->Lock. */
orc_rt_ErrorRef orc_rt_jit_Host_load(struct orc_rt_OpaqueJit *J,
                                     const char *Name, LLVMMemoryBufferRef Buf,
                                     orc_rt_JitModuleRef *Result);

/* Frees M's bookkeeping (not its code: that is its JITDylib's). */
void orc_rt_jit_Host_freeModule(orc_rt_JitModuleRef M);

/* At the Session's detach: every module still loaded is finalized (newest
 * first, as at exit) and its group closed by shutdown. */
void orc_rt_jit_Host_finalizeAll(struct orc_rt_OpaqueJit *J);

/* The session errors reported since the last call, joined (NULL if none). */
char *orc_rt_jit_Host_takeSessionErrors(struct orc_rt_OpaqueJit *J);

#endif
