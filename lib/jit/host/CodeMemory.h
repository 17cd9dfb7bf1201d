/*===- lib/jit/host/CodeMemory.h - A Jit's linked sections, pages reused ----===*/
/* The memory a host Jit links its objects into: RuntimeDyld's memory manager,
 * one allocation context per object, carved out of one range of address space
 * reserved per Jit (so that everything of one object sits within 2 GiB of
 * itself, as the small code model needs).
 *
 * Why not JITLink's in-process manager: it maps fresh pages for every object
 * and unmaps them when the object goes (mmap, page faults, zeroing, munmap:
 * about a quarter of a warm load/unload cycle), and LLVM-C offers no other
 * JITLink memory manager. Here the pages of an unloaded object are kept and
 * given to the next one: a warm cycle changes protections (code read-write
 * while it is written, then read-execute; read-only data likewise) and makes
 * no other system call.
 *
 * Kept pages are bounded: past ORC_RT_JIT_CODEMEMORY_KEEP bytes of free pages,
 * the rest go back to the system (madvise). Code is never writable and
 * executable at once. */

#ifndef ORC_RT_C_LIB_JIT_HOST_CODEMEMORY_H
#define ORC_RT_C_LIB_JIT_HOST_CODEMEMORY_H

#include <llvm-c/Orc.h>

#include <stddef.h>

#define ORC_RT_JIT_CODEMEMORY_KEEP ((size_t)4 << 20)

typedef struct orc_rt_jit_CodeMemory orc_rt_jit_CodeMemory;

/* NULL when out of memory. The address space is reserved at the first
 * allocation. */
orc_rt_jit_CodeMemory *orc_rt_jit_CodeMemory_create(void);

/* After every object linked into M is gone (the layer disposed). */
void orc_rt_jit_CodeMemory_dispose(orc_rt_jit_CodeMemory *M);

/* A RuntimeDyld object layer for ES whose objects take their memory from M. */
LLVMOrcObjectLayerRef
orc_rt_jit_CodeMemory_createLayer(orc_rt_jit_CodeMemory *M,
                                  LLVMOrcExecutionSessionRef ES);

#endif
