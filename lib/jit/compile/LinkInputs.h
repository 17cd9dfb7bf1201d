/*===- lib/jit/compile/LinkInputs.h - -extra-object and -extra-archive for an LLJIT ===*/
/* The object files and archives of lli's command line, added to a JITDylib of
 * an LLJIT: the program's own (Jit.c) or the remote run's (RemoteProgram.c).
 * Errors name the file, as lli's do. */

#ifndef ORC_RT_C_LIB_JIT_COMPILE_LINKINPUTS_H
#define ORC_RT_C_LIB_JIT_COMPILE_LINKINPUTS_H

#include "jit/compile/EagerLink.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/LLJIT.h>

/* Reads Path and adds the object to JD, linked on first lookup; with Eager
 * (-jit-kind=mcjit, else NULL) what it defines is noted there. */
orc_rt_ErrorRef orc_rt_jit_addObjectFile(LLVMOrcLLJITRef J,
                                         LLVMOrcJITDylibRef JD,
                                         const char *Path,
                                         orc_rt_jit_EagerLink *Eager);

/* Gives JD a generator that links the archive's members on demand. */
orc_rt_ErrorRef orc_rt_jit_addArchive(LLVMOrcLLJITRef J, LLVMOrcJITDylibRef JD,
                                      const char *Path);

#endif
