/*===- lib/jit/cache/ObjectCache.h - Compiled modules kept across runs ----===*/
/* mini-lli's -object-cache-dir. One file per input module, named by a 128-bit
 * hash of everything that decides the code: the module file's bytes, the
 * module's position among the inputs (it names promoted local symbols) or that
 * it is a module the program dlopens, the target triple, CPU, features and
 * codegen level, the -passes pipeline, and the versions of orc-rt-c and LLVM.
 * A hit skips parsing and compiling: the file holds the module's object files
 * and what was taken out of the IR (constructors, destructors; function names
 * for reports; for a dlopen'ed module its exports and escaping functions).
 *
 * Concurrent runs: a file is written under a unique temporary name in the same
 * directory and renamed into place, so readers see a whole file or none; two
 * runs that miss together both compile and the last rename wins (same bytes).
 * Corrupt files (truncated, edited, wrong version): the header carries the key,
 * the payload size and a checksum; a file that does not check out is a miss,
 * and the recompiled entry replaces it. */

#ifndef ORC_RT_C_LIB_JIT_CACHE_OBJECTCACHE_H
#define ORC_RT_C_LIB_JIT_CACHE_OBJECTCACHE_H

#include "jit/ir/DlopenIR.h"
#include "jit/ir/Module.h"
#include "jit/support/ContentHash.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>

/* What a cache entry holds besides the objects: slices of the driver's lists
 * (the entries one module added). */
typedef struct {
  const orc_rt_jit_Init *Ctors, *Dtors;
  size_t NumCtors, NumDtors;
  const orc_rt_jit_Name *Names;
  size_t NumNames;
  const orc_rt_jit_Export *Exports;
  size_t NumExports;
  const orc_rt_jit_Escape *Escapes;
  size_t NumEscapes;
} orc_rt_jit_CacheManifest;

/* Where a hit's lists go. Ctors and Dtors are appended to; Names, Exports and
 * Escapes may be NULL (then an entry that has any is a miss); Exports and
 * Escapes must be empty. */
typedef struct {
  orc_rt_jit_InitList *Ctors, *Dtors;
  orc_rt_jit_NameList *Names;
  orc_rt_jit_ExportList *Exports;
  orc_rt_jit_EscapeList *Escapes;
} orc_rt_jit_CacheLists;

/* ModuleIndex of a module the program dlopens (not one of its inputs). */
#define ORC_RT_JIT_OBJECTCACHE_DLOPEN 0xffffffffu
/* ModuleIndex of a function's module, or of the part that holds the
 * variables, of a module a host's Lazy Jit compiles (host/HostLazy.c). */
#define ORC_RT_JIT_OBJECTCACHE_LAZY_PART 0xfffffffeu

/* The key of a module: Input is the module file's bytes, CodegenSettings the
 * target settings (orc_rt_jit_Jit_codegenSettings), Passes the -passes
 * pipeline (NULL if none), ModuleIndex its position among the inputs or
 * ORC_RT_JIT_OBJECTCACHE_DLOPEN. */
orc_rt_jit_Digest orc_rt_jit_ObjectCache_key(const void *Input, size_t Size,
                                             const char *CodegenSettings,
                                             const char *Passes,
                                             unsigned ModuleIndex);

/* Looks Key up in Dir. On a hit sets *Hit, adds the entry's lists to Into's
 * and returns its objects in *Objects (*NumObjects of them, the caller owns
 * both). A missing or corrupt file is a miss (*Hit false, Into's lists as
 * they were, no error); an error means out of memory. */
orc_rt_ErrorRef orc_rt_jit_ObjectCache_load(const char *Dir,
                                            orc_rt_jit_Digest Key, bool *Hit,
                                            const orc_rt_jit_CacheLists *Into,
                                            LLVMMemoryBufferRef **Objects,
                                            size_t *NumObjects);

/* Writes an entry (creating Dir and its parents if needed). An error says why
 * the file could not be written; the caller may go on without the cache. */
orc_rt_ErrorRef orc_rt_jit_ObjectCache_store(const char *Dir,
                                             orc_rt_jit_Digest Key,
                                             const orc_rt_jit_CacheManifest *M,
                                             const LLVMMemoryBufferRef *Objects,
                                             size_t NumObjects);

/* For entries of objects alone (a function's code, tier 1's): its objects
 * (*NumObjects of them, the caller owns both) if Dir has Key with at least
 * one object; else none (NULL, 0). An error means out of memory. */
orc_rt_ErrorRef
orc_rt_jit_ObjectCache_loadObjects(const char *Dir, orc_rt_jit_Digest Key,
                                   LLVMMemoryBufferRef **Objects,
                                   size_t *NumObjects);

/* Writes an entry of objects alone. An entry that cannot be written is only
 * a slower next load: the error goes to Warn (may be NULL: dropped). */
void orc_rt_jit_ObjectCache_storeObjects(
    const char *Dir, orc_rt_jit_Digest Key, const LLVMMemoryBufferRef *Objects,
    size_t NumObjects, void (*Warn)(orc_rt_ErrorRef Err, void *Ctx),
    void *WarnCtx);

#endif
