/*===- lib/services/JITLoaderGDB.h - GDB JIT interface --------------------===*/
/* Adds the GDB JIT interface alloc action
 * (llvm_orc_registerJITLoaderGDBAllocAction). */

#ifndef ORC_RT_C_LIB_SERVICES_JITLOADERGDB_H
#define ORC_RT_C_LIB_SERVICES_JITLOADERGDB_H

#include "services/ExecutorServices.h"

#include <stdint.h>

/* The GDB JIT interface's declarations (version 1), as debuggers and LLVM's
 * in-process registrars (JITLink's debug plugin, RuntimeDyld's GDB listener)
 * know them. The descriptor is defined in JITLoaderGDB.c. */
struct jit_code_entry {
  struct jit_code_entry *next_entry;
  struct jit_code_entry *prev_entry;
  const char *symfile_addr;
  uint64_t symfile_size;
};

struct jit_descriptor {
  uint32_t version;
  uint32_t action_flag; /* 0 none, 1 register, 2 unregister */
  struct jit_code_entry *relevant_entry;
  struct jit_code_entry *first_entry;
};

ORC_RT_C_API extern struct jit_descriptor __jit_debug_descriptor;

orc_rt_ErrorRef orc_rt_internal_addJITLoaderGDB(orc_rt_ExecutorServicesRef ES);

/* The alloc action, exported under LLVM's name.
 * Error(AddrRange DebugObject, bool AutoRegister). */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
llvm_orc_registerJITLoaderGDBAllocAction(const char *ArgData, size_t ArgSize);

#endif
