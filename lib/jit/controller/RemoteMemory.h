/*===- lib/jit/controller/RemoteMemory.h - RuntimeDyld sections at executor addresses ===*/
/* The memory of a remote run (-remote-mcjit): RuntimeDyld, MCJIT's linker,
 * lays out and relocates each object in mini-lli's memory, and the bytes are
 * then copied into the executor process, where the code runs. LLVM-C gives a
 * memory manager no way to tell RuntimeDyld that a section will run at
 * another address (lli's remote memory manager calls mapSectionAddress), so
 * the two addresses are made equal: one arena is reserved in the executor
 * and mapped at the same address in mini-lli, and every section is carved
 * from it. Sections are then relocated for exactly where they run.
 *
 * Each object's sections are page-aligned and consecutive in the arena; its
 * finalization sends them to the executor's SimpleExecutorMemoryManager in
 * one initialize call (code read-execute, read-only data read-only, the rest
 * read-write), with its .eh_frame registered there by the executor's own
 * alloc action, as lli's remote memory manager does. */

#ifndef ORC_RT_C_LIB_JIT_CONTROLLER_REMOTEMEMORY_H
#define ORC_RT_C_LIB_JIT_CONTROLLER_REMOTEMEMORY_H

#include "jit/controller/ExecutorClient.h"

#include <llvm-c/Orc.h>

typedef struct orc_rt_jit_RemoteMemory orc_rt_jit_RemoteMemory;

/* Reserves the arena in E and maps it at the same address here. */
orc_rt_ErrorRef orc_rt_jit_RemoteMemory_create(orc_rt_jit_RemoteMemory **Result,
                                               orc_rt_jit_Executor *E);

/* An RTDyld object linking layer whose objects go to the executor. */
LLVMOrcObjectLayerRef
orc_rt_jit_RemoteMemory_createLayer(orc_rt_jit_RemoteMemory *M,
                                    LLVMOrcExecutionSessionRef ES);

/* Unmaps mini-lli's copy (after the layer is gone). The executor's memory
 * stays until the executor ends. */
void orc_rt_jit_RemoteMemory_dispose(orc_rt_jit_RemoteMemory *M);

#endif
