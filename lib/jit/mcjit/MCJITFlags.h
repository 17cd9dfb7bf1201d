/*===- lib/jit/mcjit/MCJITFlags.h - lli's MCJIT codegen flags, on the IR --------===*/
/* lli's MCJIT copies its codegen flags into the TargetMachine's
 * TargetOptions. LLVM-C's target machines take none of them but -target-abi,
 * so for -jit-kind=mcjit (in process and -remote-mcjit) mini-lli gives the
 * IR, before it is compiled, what each flag that changes x86-64 code under
 * lli-22's MCJIT does to it (CodeGenFlags.h says which flags those are):
 *
 *  -fp-contract=fast   every FP operation may be contracted (the `contract`
 *                      fast-math flag: the DAG fuses a multiply and an add
 *                      when both carry it, as it fuses all of them under
 *                      FPOpFusion::Fast);
 *  -fp-contract=off    llvm.fmuladd (and its constrained form) becomes a
 *                      multiply and an add, as codegen lowers it under
 *                      FPOpFusion::Strict;
 *  -tailcallopt        fastcc becomes tailcc, the calling convention that is
 *                      fastcc with GuaranteedTailCallOpt (x86-64 treats the
 *                      two alike: callee-popped arguments, every call in tail
 *                      position a jump). One difference is left: with the
 *                      option lli also turns a call of any convention that
 *                      ends its block before `unreachable` (exit, abort, a
 *                      throw) into a jump; here it stays a call, which only
 *                      the stack depth inside that call can tell;
 *  -exception-model=sjlj|arm|wineh|wasm
 *                      x86-64 ELF then emits no unwind tables (CFI only for
 *                      DWARF unwinding): every function becomes nounwind
 *                      without uwtable, which leaves it without them too. A
 *                      module with exception handling (a personality
 *                      function) is refused: lli-22's MCJIT crashes on it
 *                      (SjLj lowering needs a runtime x86-64 does not have);
 *  -enable-jmc-instrument
 *                      the jmc-instrumenter pass, as codegen runs it;
 *  -x86-sse2avx, -fatal-warnings
 *                      act only on the assembler: a program without inline
 *                      assembly is compiled the same; one with it is refused
 *                      (LLVM-C cannot give the assembler these options);
 *  -target-abi         given to the target machine itself
 *                      (orc_rt_jit_createTargetMachine). */

#ifndef ORC_RT_C_LIB_JIT_MCJIT_MCJITFLAGS_H
#define ORC_RT_C_LIB_JIT_MCJIT_MCJITFLAGS_H

#include "jit/lli/Options.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include <stdbool.h>

typedef enum {
  orc_rt_jit_FPContract_On, /* lli's default: only llvm.fmuladd may fuse */
  orc_rt_jit_FPContract_Fast,
  orc_rt_jit_FPContract_Off
} orc_rt_jit_FPContract;

typedef struct {
  orc_rt_jit_FPContract FPContract;
  bool TailCallOpt;
  const char *ExceptionModel; /* a model without unwind tables, or NULL */
  bool JMCInstrument;
  const char *AssemblerFlag; /* -x86-sse2avx or -fatal-warnings, or NULL */
  const char *ABI;           /* -target-abi, or NULL */
} orc_rt_jit_MCJITFlags;

/* The flags Opts gives lli's MCJIT (all defaults for the other engines,
 * whose lli counterparts ignore them). */
void orc_rt_jit_MCJITFlags_read(const orc_rt_jit_Options *Opts,
                                orc_rt_jit_MCJITFlags *F);

/* Whether F changes anything that orc_rt_jit_MCJITFlags_apply does. */
bool orc_rt_jit_MCJITFlags_any(const orc_rt_jit_MCJITFlags *F);

/* Rewrites M as described above; TM is the target machine M is compiled for
 * (for the passes). An error refuses the program. */
orc_rt_ErrorRef orc_rt_jit_MCJITFlags_apply(const orc_rt_jit_MCJITFlags *F,
                                            LLVMModuleRef M,
                                            LLVMTargetMachineRef TM);

#endif
