/*===- lib/jit/lli/LLICache.h - lli's -enable-cache-manager object cache --===*/
/* lli's LLIObjectCache, file for file: the object compiled from the module
 * read from INPUT is "DIR/INPUT" (or INPUT, without -object-cache-dir) with
 * the text from its last '.' on replaced by ".o"; parent directories are
 * created; a file that is there is used as it is, whatever it holds (lli
 * keys the cache by the input's name only: an edited input reuses stale
 * code). mini-lli's own -object-cache-dir cache (ObjectCache.h) is keyed by
 * content instead; this one exists so that a cache filled by lli is read by
 * mini-lli and the other way round (see docs/CommandGuide/mini-lli.md);
 * modules with constructors or destructors are not cached (see Driver.c). */

#ifndef ORC_RT_C_LIB_JIT_LLI_LLICACHE_H
#define ORC_RT_C_LIB_JIT_LLI_LLICACHE_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

#include <stddef.h>

/* The cache file for Input, or NULL if lli would not cache it (stdin).
 * Caller frees. */
char *orc_rt_jit_LLICache_path(const char *Dir, const char *Input);

/* Reads the file at Path into *Obj; *Obj is NULL if there is none. */
void orc_rt_jit_LLICache_load(const char *Path, LLVMMemoryBufferRef *Obj);

/* Writes the one object a module compiled to (Ctx is the path), creating
 * the parent directories, as lli's notifyObjectCompiled. Failures are
 * silent, as lli's are. */
void orc_rt_jit_LLICache_store(const LLVMMemoryBufferRef *Objects,
                               size_t NumObjects, void *Ctx);

#endif
