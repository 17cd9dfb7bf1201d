/*===- lib/jit/host/ModuleLink.h - A compiled module linked for loading ---===*/
/* What the loader (orc-rt-c/Jit.h's, HostVersion.c; under mini-lli's dlopen
 * too) does with a compiled module (cache/ModuleCache.h) and a JITDylib of
 * its own: defines the stubs its escaping function addresses name (its
 * __dso_handle is the JITDylib generator's, defined only if the code refers
 * to it), adds its objects, links everything with one
 * lookup (exports, constructors, destructors, escaping functions), points the
 * escape stubs at their functions, and makes an entry stub for each exported
 * function. And the generator step of its modules' JITDylibs: names found
 * among the loaded modules are defined in the JITDylib, the rest imported. */

#ifndef ORC_RT_C_LIB_JIT_HOST_MODULELINK_H
#define ORC_RT_C_LIB_JIT_HOST_MODULELINK_H

#include "jit/cache/ModuleCache.h"
#include "jit/modules/ModuleStubs.h"

#include <llvm-c/LLJIT.h>

#include <pthread.h>
#include <stdbool.h>

typedef struct {
  /* In: the LLJIT and JITDylib, the module, its stubs' identity, and how
   * to add objects and look names up in JD (takes the buffers; names
   * unmangled). */
  LLVMOrcLLJITRef LLJIT;
  LLVMOrcJITDylibRef JD;
  const orc_rt_jit_CompiledModule *Code;
  orc_rt_jit_StubModule *Id;
  orc_rt_ErrorRef (*AddObjects)(LLVMOrcJITDylibRef JD,
                                const LLVMMemoryBufferRef *Objects, size_t N,
                                void *Ctx);
  orc_rt_ErrorRef (*Lookup)(LLVMOrcJITDylibRef JD, const char *const *Names,
                            size_t N, uint64_t *Addrs, void *Ctx);
  void *Ctx;
  /* Out (orc_rt_jit_LinkedModule_dispose frees them): per export its entry
   * stub (a function) or address (a variable); the constructors' and
   * destructors' addresses; the escape stubs; whether any stub points at Id
   * (which is then permanent). */
  uint64_t *ExportAddrs, *CtorAddrs, *DtorAddrs, *EscapeStubs;
  bool StubsMade;
} orc_rt_jit_LinkedModule;

orc_rt_ErrorRef orc_rt_jit_LinkedModule_link(orc_rt_jit_LinkedModule *L);
void orc_rt_jit_LinkedModule_dispose(orc_rt_jit_LinkedModule *L);

/* A module JITDylib's generator step: under Lock, Find is asked for each name
 * (Sym, interned in the session's pool; true with the address of a loaded
 * module's export); those are defined in JD as absolute symbols, the others
 * imported from Fallback asynchronously (compile/SymbolImport.h), so that no
 * JIT thread blocks. */
typedef bool (*orc_rt_jit_FindExportFn)(LLVMOrcSymbolStringPoolEntryRef Sym,
                                        uint64_t *Addr, void *Ctx);
LLVMErrorRef orc_rt_jit_generateFromModules(
    LLVMOrcExecutionSessionRef ES, LLVMOrcJITDylibRef JD,
    LLVMOrcLookupStateRef *State, LLVMOrcCLookupSet Set, size_t N,
    pthread_mutex_t *Lock, orc_rt_jit_FindExportFn Find, void *FindCtx,
    LLVMOrcJITDylibRef Fallback);

#endif
