/*===- lib/jit/cache/ModuleCache.h - Loaded modules, compiled once --------===*/
/* What compiling a module's bytes for loading (dlopen, a host's load) produced -- its object files and
 * what the loader takes out of the IR (exports, escaping functions,
 * constructors, destructors) -- kept by content, so that a module loaded
 * again in the same run is linked from these objects without being parsed or
 * compiled again. With -object-cache-dir the same is kept on disk
 * (ObjectCache.h), so a module loaded in a later run is not compiled again
 * either. The key is -object-cache-dir's (ObjectCache_key): a hash of the
 * module's bytes, the JIT's codegen settings, the -passes pipeline and the
 * versions of orc-rt-c and LLVM. A user that gives entries back
 * (ModuleCache_put) lets the cache drop them: it keeps the last
 * ORC_RT_JIT_MODULECACHE_SPARE entries nobody uses, so a module unloaded and
 * loaded again is not compiled again, and forgets older ones; entries never
 * given back stay for the cache's life.
 * Nothing here knows which JIT compiles: its user says how (ModuleCompiler). */

#ifndef ORC_RT_C_LIB_JIT_CACHE_MODULECACHE_H
#define ORC_RT_C_LIB_JIT_CACHE_MODULECACHE_H

#include "jit/compile/CodeGen.h"
#include "jit/ir/DlopenIR.h"
#include "jit/ir/Module.h"
#include "jit/support/ContentHash.h"

typedef struct orc_rt_jit_CompiledModule {
  orc_rt_jit_Digest Key;
  char **Objs; /* object file bytes */
  size_t *ObjSizes, NumObjs;
  orc_rt_jit_ExportList Exports;
  orc_rt_jit_EscapeList Escapes;
  orc_rt_jit_InitList Ctors, Dtors;
  bool NoReuse;              /* its objects are Volatile (compile/CodeGen.h) */
  unsigned long Users;       /* gets minus puts */
  unsigned long UnusedSince; /* the cache's Clock when Users became 0 */
  struct orc_rt_jit_CompiledModule *Next;
} orc_rt_jit_CompiledModule;

#define ORC_RT_JIT_MODULECACHE_SPARE 16

typedef struct {
  orc_rt_jit_CompiledModule *Head;
  unsigned long Clock, Unused;
} orc_rt_jit_ModuleCache;

/* The compiled form of the file at Path, from C, from Opts' -object-cache-dir
 * or compiled now with J's settings and Opts' -passes (and stored there); then
 * added to C. One caller at a time (see orc_rt_jit_Jit_compileObjects). */
/* How the cache's user compiles a module, and what besides its bytes decides
 * the code. Compile and RunPasses are called with Ctx, on the caller's thread
 * and under whatever the caller holds; Warn (may be NULL) is told why an entry
 * could not be written to Dir (the module is loaded anyway) and consumes the
 * error. */
typedef struct {
  /* The JIT's triple, CPU, features, level, and whatever else Prepare's
   * result depends on besides the module's bytes. */
  const char *CodegenSettings;
  const char *Passes; /* an IR pass pipeline, or NULL for none */
  const char *Dir;    /* the on-disk cache, or NULL */
  /* May be NULL: changes the module just read, before the passes. */
  orc_rt_ErrorRef (*Prepare)(LLVMModuleRef M, void *Ctx);
  orc_rt_ErrorRef (*RunPasses)(LLVMModuleRef M, const char *Passes, void *Ctx);
  orc_rt_ErrorRef (*Compile)(LLVMModuleRef M, orc_rt_jit_ObjectList *Out,
                             void *Ctx);
  void (*Warn)(orc_rt_ErrorRef Err, void *Ctx);
  void *Ctx;
} orc_rt_jit_ModuleCompiler;

/* The compiled form of Buf's bytes (consumed; Name names the module in
 * errors): from C, from By->Dir, or compiled now by By (and stored there). */
orc_rt_ErrorRef orc_rt_jit_ModuleCache_get(orc_rt_jit_ModuleCache *C,
                                           const orc_rt_jit_ModuleCompiler *By,
                                           const char *Name,
                                           LLVMMemoryBufferRef Buf,
                                           orc_rt_jit_CompiledModule **Out);

/* What ModuleCache_get does to a module it compiles, up to the compile:
 * parses Buf (consumed; Name names the module in errors), lets By prepare it
 * and run its passes, and fills E's lists (constructors, destructors,
 * exports, escaping functions, which now name their stubs). On success the
 * caller owns *M and its *Ctx; on failure both are gone. For a user that
 * compiles the module its own way (a lazily compiled host module,
 * host/HostLazy.c). */
orc_rt_ErrorRef
orc_rt_jit_prepareForLoading(const orc_rt_jit_ModuleCompiler *By,
                             const char *Name, LLVMMemoryBufferRef Buf,
                             orc_rt_jit_CompiledModule *E, LLVMContextRef *Ctx,
                             LLVMModuleRef *M);

/* Copies N object files into E. */
orc_rt_ErrorRef orc_rt_jit_CompiledModule_keepObjects(
    orc_rt_jit_CompiledModule *E, const LLVMMemoryBufferRef *Objs, size_t N);

/* Frees an entry that is not in a cache (and its objects and lists). */
void orc_rt_jit_CompiledModule_dispose(orc_rt_jit_CompiledModule *E);

/* Gives back an entry ModuleCache_get handed out (its user is done with
 * its objects and lists). */
void orc_rt_jit_ModuleCache_put(orc_rt_jit_ModuleCache *C,
                                orc_rt_jit_CompiledModule *E);

void orc_rt_jit_ModuleCache_dispose(orc_rt_jit_ModuleCache *C);

#endif
