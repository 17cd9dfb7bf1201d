/*===- lib/jit/host/HostParts.h - What a Jit and its modules are made of ===*/
/* The structures of a Jit (HostJit.c), its modules (HostModule.c) and their
 * versions (HostVersion.c), which every file of this folder reads; each
 * file's functions are in its own header. A Jit is one LLJIT: its main
 * JITDylib holds the host's symbols (addSymbol) and finds the process's;
 * each module is linked into a JITDylib of its own whose generator finds the
 * other loaded modules' exports, then the main JITDylib's symbols. Each
 * module has a task group nested under the Session's managed-code group,
 * and its functions are reached through token-taking stubs
 * (modules/ModuleStubs.h). Locks:
 *
 *   Lock     serialises loads and unloads (held across compiling, linking,
 *            constructors and destructors, which may load or unload again
 *            on the same thread: recursive).
 *   SymLock  guards Loaded, the free JITDylibs and what the definition
 *            generators read (which run on whatever thread links and must
 *            not wait for a load in progress).
 *   TMLock   guards the target machine, which a load and the first calls of
 *            lazily compiled functions (HostLazy.c) use from any thread.
 *   CacheLock guards the module cache: a load takes entries under Lock,
 *            and a version's last call gives its entry back on whatever
 *            thread makes it -- which must not wait for Lock (a constructor
 *            holding it may be joining that thread). */

#ifndef ORC_RT_C_LIB_JIT_HOST_HOSTPARTS_H
#define ORC_RT_C_LIB_JIT_HOST_HOSTPARTS_H

#include "jit/cache/ModuleCache.h"
#include "jit/compile/SerialCompile.h"
#include "jit/host/JitOver.h"
#include "jit/host/ModuleLink.h"
#include "jit/ir/KeptVariables.h"
#include "jit/modules/ModuleExitOrder.h"
#include "jit/modules/ModuleStubs.h"
#include "jit/support/PtrSet.h"

#include "orc-rt-c/Jit.h"

#include <llvm-c/LLJIT.h>
#include <llvm-c/TargetMachine.h>

#include <pthread.h>

/* A JITDylib for one module version at a time; cleared and reused after
 * that version is freed (ORC keeps a JITDylib's name and generator until the
 * session ends). */
typedef struct orc_rt_jit_HostSlot {
  struct orc_rt_OpaqueJit *J;
  LLVMOrcJITDylibRef JD;
  struct orc_rt_OpaqueJitModule *Owner;   /* under SymLock */
  struct orc_rt_jit_HostVersion *Version; /* Tiered: whose; under SymLock */
  /* Under SymLock: the version's __dso_handle, which the generator defines
   * when the code refers to it (DsoBound); a version whose code does not
   * registered no atexit handler, and its unload skips __cxa_finalize. */
  void *Dso;
  bool DsoBound;
  struct orc_rt_jit_HostSlot *NextFree, *NextAll;
} orc_rt_jit_HostSlot;

/* A variable of a module: one storage that the versions which keep it
 * share (ir/KeptVariables.h). */
typedef struct {
  orc_rt_jit_KeptVar Key;
  uint64_t Addr;
  struct orc_rt_jit_HostVersion *Owner; /* whose data holds it */
} orc_rt_jit_HostVar;

/* One compiled and linked version of a module (a load makes the first, each
 * reload the next): its code, data, stubs and task group. Freed once its
 * group completes after it was replaced or unloaded, except that a version
 * whose data holds a variable the current version keeps stays mapped
 * (Pinned) until the module goes. */
typedef struct orc_rt_jit_HostVersion {
  struct orc_rt_OpaqueJitModule *M;
  /* Permanent once a stub points at it, until retired (freed once its
   * code is gone, its stubs then M's: modules/ModuleStubs.h). */
  orc_rt_jit_StubModule *Id;
  orc_rt_TaskGroupRef Group;
  orc_rt_jit_HostSlot *Slot;
  orc_rt_jit_CompiledModule *Code; /* owned by J->Cache */
  orc_rt_jit_LinkedModule Link;    /* stubs, constructors, destructors */
  orc_rt_jit_HostVar *Vars;        /* its variables, by storage */
  size_t NumVars;
  bool Pinned;     /* under SymLock */
  bool Bound;      /* another module bound its symbols: pinned for good */
  bool ByShutdown; /* finalized by the Session's shutdown */
  /* Thread-local destructors its code registered and no thread has run yet
   * (HostThreadDtors.c); its group's completion waits for them
   * (CompleteAfterThreadDtors). Under SymLock. */
  unsigned ThreadDtors;
  bool CompleteAfterThreadDtors;
  uint32_t DsoMagic; /* ORC_RT_JIT_DSO_MAGIC: Dso is a version's */
  char Dso;          /* its __dso_handle: its atexit handlers carry it */
  struct orc_rt_jit_HostVersion *NextPinned;
  /* Compiled function by function (HostLazy.c): then Code is its own, not
   * the cache's. */
  struct orc_rt_jit_HostLazy *Lazy;
} orc_rt_jit_HostVersion;

/* A function's permanent entry (modules/ModuleStubs.h's front), by key: an
 * exported function's name, or "\1" and an escaping function's symbol. */
typedef struct {
  char *Key;
  uint64_t Front;
} orc_rt_jit_HostFront;

struct orc_rt_OpaqueJitModule {
  struct orc_rt_OpaqueJit *J;
  char *Name;
  /* Its fronts' module, and its retired versions' stubs' (marked
   * Superseded, no group): permanent once a stub points at it, as stubs are
   * (over another's JIT: its one version's stubs once it is unloaded). */
  orc_rt_jit_StubModule *Id;
  bool IdUsed; /* a version retired into it (atomic; fronts use it too) */
  orc_rt_jit_HostVersion *Cur;  /* under SymLock (written under Lock too) */
  orc_rt_jit_HostFront *Fronts; /* under SymLock (written under Lock too) */
  size_t NumFronts, CapFronts;
  orc_rt_jit_ExitOrderNode Order; /* the modules it bound symbols from */
  /* Versions not freed yet, and the freed-but-pinned ones; under SymLock. */
  unsigned LiveVersions;
  orc_rt_jit_HostVersion *Pinned;
  bool Hidden;     /* its exports resolve no other module's names */
  bool Unloading;  /* unload was called; kept while a module uses it */
  bool Finalizing; /* its unload runs its destructors; under SymLock */
  /* Under Lock: a reload of it is under way (its versions' destructors and
   * constructors may call the Jit), and an unload they made waits for its
   * end (UnloadAfterReload). */
  bool Reloading, UnloadAfterReload;
  bool Gone;       /* its last version's group is closed; under SymLock */
  bool ByShutdown; /* finalized by the Session's shutdown */
  orc_rt_CallbackFn OnFreed;
  void *OnFreedCtx;
  struct orc_rt_OpaqueJitModule *Next;
};

struct orc_rt_OpaqueJit {
  orc_rt_SessionRef S;
  orc_rt_JitOptions Opts;
  /* Over another's LLJIT (JitOver.h): Owned, and what the owner does. */
  bool Owned;
  orc_rt_jit_JitOwner Owner;
  char *CacheDir;
  LLVMOrcLLJITRef LLJIT;
  struct orc_rt_jit_CodeMemory *CodeMem; /* its objects' pages (not Owned) */
  /* Not Owned: nulls M's weak references to names nothing defines now
   * (HostJit.c; RuntimeDyld links no null address), setting *Volatile if the
   * outcome depends on what the Jit has loaded. */
  orc_rt_ErrorRef (*NullMissingWeak)(LLVMModuleRef M,
                                     struct orc_rt_OpaqueJit *J,
                                     bool *Volatile);
  LLVMTargetMachineRef TM; /* for compiling modules and running passes */
  char *Triple, *CPU, *Features, *DataLayout, *Settings;
  char Passes[24]; /* "default<O2>", or "" at -O0 */
  /* Lock is OwnLock, or over another's JIT its owner's (JitOver.h). */
  pthread_mutex_t OwnLock, *Lock, SymLock, TMLock, CacheLock;
  orc_rt_jit_SerialCompile Serial;       /* the LLJIT's compiles (Tiered) */
  orc_rt_jit_ModuleCache Cache;          /* under CacheLock */
  orc_rt_jit_ModuleCompiler Compile;     /* under Lock */
  struct orc_rt_OpaqueJitModule *Loaded; /* newest first; under SymLock */
  orc_rt_jit_HostSlot *FreeSlots;        /* under SymLock */
  orc_rt_jit_HostSlot *AllSlots;         /* written under Lock and SymLock */
  unsigned NumSlots;
  unsigned long NextSerial;
  /* What addSymbol defined: interned name (retained) -> address, under
   * SymLock. A module's generator finds them first (HostModule.c); they are
   * not in the main JITDylib, whose process symbols a module's lookup has
   * defined there (a host symbol of such a name could not be added). */
  orc_rt_jit_PtrSet HostNames;
  orc_rt_JitStaleCallFn OnStale;
  void *StaleCtx;
  /* What the ExecutionSession reported during the current load (the cause of
   * a failed link), under SymLock. */
  char *SessionErrors;
  bool ShuttingDown; /* under Lock */
  /* 1 while orc_rt_Jit_create hands it to the Session, 2 if the Session's
   * shutdown reached it meanwhile (HostJit.c: handTo, onShutdown). */
  int Creating;
  /* Lazy (HostLazy.c): the error handler of every lazy version's
   * lazy-call-through manager, a permanent stub made with the first lazy
   * version, under Lock; and the last body that failed to compile, under
   * SymLock. */
  uint64_t LazyFailStub;
  struct {
    char *Function, *Module, *Cause;
  } LazyFailure;
  /* Tiered: the counts of versions whose tiers are gone, under SymLock. */
  orc_rt_JitTierStats RetiredTiers;
  /* Thread-local destructors registered and not run (HostThreadDtors.c),
   * under SymLock. */
  struct orc_rt_jit_ThreadDtor *ThreadDtors;
};

#define ORC_RT_JIT_DSO_MAGIC 0x44534f56u /* "VOSD" */

#endif
