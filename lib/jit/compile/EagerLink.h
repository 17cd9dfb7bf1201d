/*===- lib/jit/compile/EagerLink.h - Linking everything before anything runs ------===*/
/* MCJIT compiles and links every module and object it was given before the
 * first address it hands out; an LLJIT links an object only when one of its
 * symbols is looked up. For -jit-kind=mcjit (in process, Jit.c, and
 * -remote-mcjit, RemoteProgram.c) the names every module and object defines
 * are noted as they are added, and one lookup of all of them, before the
 * entry point's, links everything: an external nothing defines is reported
 * then, by any module that uses it, before the program runs. Archive members
 * stay linked on demand, as MCJIT links them. */

#ifndef ORC_RT_C_LIB_JIT_COMPILE_EAGERLINK_H
#define ORC_RT_C_LIB_JIT_COMPILE_EAGERLINK_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char **Names;
  bool *Raw; /* an object's symbol name (already mangled) */
  size_t Size, Capacity;
} orc_rt_jit_EagerLink;

/* Notes the symbols M defines that its object will export (not local, not
 * linkonce or available_externally, which need not be emitted). */
orc_rt_ErrorRef orc_rt_jit_EagerLink_noteModule(orc_rt_jit_EagerLink *L,
                                                LLVMModuleRef M);

/* Notes the symbols the object file Obj defines (Obj stays the caller's). */
orc_rt_ErrorRef orc_rt_jit_EagerLink_noteObject(orc_rt_jit_EagerLink *L,
                                                LLVMMemoryBufferRef Obj);

/* Links everything noted into JD so far: one lookup of every name, each
 * weakly referenced (an object's local symbols are not found, and need not
 * be). The error is the lookup's (the JIT's session reported the cause). */
LLVMErrorRef orc_rt_jit_EagerLink_run(orc_rt_jit_EagerLink *L,
                                      LLVMOrcLLJITRef J, LLVMOrcJITDylibRef JD);

void orc_rt_jit_EagerLink_dispose(orc_rt_jit_EagerLink *L);

#endif
