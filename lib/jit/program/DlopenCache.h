/*===- lib/jit/program/DlopenCache.h - dlopen'ed modules, compiled once ---===*/
/* What compiling a module's bytes for dlopen produced -- its object files and
 * what the loader takes out of the IR (exports, escaping functions,
 * constructors, destructors) -- kept by content, so that a module loaded
 * again in the same run is linked from these objects without being parsed or
 * compiled again. With -object-cache-dir the same is kept on disk
 * (ObjectCache.h), so a module loaded in a later run is not compiled again
 * either. The key is -object-cache-dir's (ObjectCache_key): a hash of the
 * file's bytes, the JIT's codegen settings, the -passes pipeline and the
 * versions of orc-rt-c and LLVM. Entries are never evicted from memory. */

#ifndef ORC_RT_C_LIB_JIT_PROGRAM_DLOPENCACHE_H
#define ORC_RT_C_LIB_JIT_PROGRAM_DLOPENCACHE_H

#include "jit/ir/DlopenIR.h"
#include "jit/ir/Module.h"
#include "jit/program/Jit.h"
#include "jit/support/ContentHash.h"

typedef struct orc_rt_jit_CompiledModule {
  orc_rt_jit_Digest Key;
  char **Objs; /* object file bytes */
  size_t *ObjSizes, NumObjs;
  orc_rt_jit_ExportList Exports;
  orc_rt_jit_EscapeList Escapes;
  orc_rt_jit_InitList Ctors, Dtors;
  struct orc_rt_jit_CompiledModule *Next;
} orc_rt_jit_CompiledModule;

typedef struct {
  orc_rt_jit_CompiledModule *Head;
} orc_rt_jit_ModuleCache;

/* The compiled form of the file at Path, from C, from Opts' -object-cache-dir
 * or compiled now with J's settings and Opts' -passes (and stored there); then
 * added to C. One caller at a time (see orc_rt_jit_Jit_compileObjects). */
orc_rt_ErrorRef orc_rt_jit_ModuleCache_get(orc_rt_jit_ModuleCache *C,
                                           orc_rt_jit_Jit *J,
                                           const orc_rt_jit_Options *Opts,
                                           const char *Path,
                                           orc_rt_jit_CompiledModule **Out);

void orc_rt_jit_ModuleCache_dispose(orc_rt_jit_ModuleCache *C);

#endif
