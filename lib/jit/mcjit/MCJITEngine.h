/*===- lib/jit/mcjit/MCJITEngine.h - -jit-kind=mcjit: LLVM's MCJIT --------===*/
/* The program's modules on LLVM's MCJIT (llvm-c/ExecutionEngine.h), as lli's
 * -jit-kind=mcjit runs them: one ExecutionEngine made with the first module,
 * later modules added to it, everything compiled on the first lookup, code
 * and data in a SectionMemoryManager, external symbols from the process
 * (and -dlopen libraries). The driver's overrides (atexit, exit,
 * pthread_create, ...) are global mappings, which MCJIT looks at before the
 * process, so JIT'd code reaches the same runtime as under LLJIT. The driver
 * runs the program through the addresses lookup gives, exactly as with
 * LLJIT; freeing the engine frees the code. */

#ifndef ORC_RT_C_LIB_JIT_MCJIT_MCJITENGINE_H
#define ORC_RT_C_LIB_JIT_MCJIT_MCJITENGINE_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include <stdint.h>

typedef struct orc_rt_jit_MCJIT orc_rt_jit_MCJIT;

/* The settings every module is compiled with: CPU and features go on each
 * function (as "target-cpu" / "target-features", unless the IR has them),
 * since LLVM-C's MCJIT builder takes neither. */
typedef struct {
  const char *Triple, *CPU, *Features;
  LLVMCodeGenOptLevel Level;
  LLVMCodeModel CodeModel;
  /* The driver's override of Name (mapped ahead of the process), or 0. */
  uint64_t (*Override)(const char *Name);
} orc_rt_jit_MCJITSettings;

orc_rt_ErrorRef orc_rt_jit_MCJIT_create(orc_rt_jit_MCJIT **Result,
                                        const orc_rt_jit_MCJITSettings *S);

/* Takes M and its context. */
orc_rt_ErrorRef orc_rt_jit_MCJIT_addModule(orc_rt_jit_MCJIT *E,
                                           LLVMContextRef Ctx, LLVMModuleRef M);

/* The address of a function or variable the modules define (compiling and
 * linking every module first, as MCJIT does). */
orc_rt_ErrorRef orc_rt_jit_MCJIT_lookup(orc_rt_jit_MCJIT *E, const char *Name,
                                        uint64_t *Addr);

/* Frees the engine, its code and data memory, then the modules' contexts. */
void orc_rt_jit_MCJIT_dispose(orc_rt_jit_MCJIT *E);

#endif
