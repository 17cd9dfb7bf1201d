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

/* lli's -O0..-O3 as LLVM-C's level. */
LLVMCodeGenOptLevel orc_rt_jit_codeGenLevel(int OptLevel);

/* A target machine for Triple with the other settings (ABI: lli's
 * -target-abi, which only its MCJIT gives the target, or NULL), or NULL if
 * the triple names no target. The JIT's, the remote run's and each compile
 * thread's are all made here. */
LLVMTargetMachineRef orc_rt_jit_createTargetMachine(
    const char *Triple, const char *CPU, const char *Features, const char *ABI,
    LLVMCodeGenOptLevel Level, LLVMRelocMode Reloc, LLVMCodeModel CodeModel);

#endif
