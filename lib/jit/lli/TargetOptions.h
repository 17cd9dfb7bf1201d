/*===- lib/jit/lli/TargetOptions.h - lli's target options to LLVM-C settings ===*/
/* -mtriple, -march, -mcpu, -mattr, -relocation-model and -code-model as lli
 * reads them: the host's triple, CPU and features unless given (-mcpu=native
 * or empty is the host's CPU; -mattr adds to the host's features only when
 * the CPU is the host's, as codegen::getFeatureList does). Used by every
 * engine, so they all compile for the same machine. */

#ifndef ORC_RT_C_LIB_JIT_LLI_TARGETOPTIONS_H
#define ORC_RT_C_LIB_JIT_LLI_TARGETOPTIONS_H

#include "jit/lli/Options.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/TargetMachine.h>

/* The strings are LLVM messages: free them with LLVMDisposeMessage. */
orc_rt_ErrorRef orc_rt_jit_targetSettings(const orc_rt_jit_Options *Opts,
                                          char **Triple, char **CPU,
                                          char **Features, LLVMRelocMode *Reloc,
                                          LLVMCodeModel *CodeModel);

#endif
