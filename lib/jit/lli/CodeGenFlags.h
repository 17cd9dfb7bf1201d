/*===- lib/jit/lli/CodeGenFlags.h - lli's code generation flags -----------===*/
/* The flags lli registers with codegen::RegisterCodeGenFlags (and the MC
 * flags that come with them): -frame-pointer, -function-sections,
 * -float-abi, -exception-model, -fp-contract, ... mini-lli reads each with
 * lli's spelling and values, and gives it lli-22's meaning:
 *
 *  - lli's orc and orc-lazy modes build their TargetMachine from -march,
 *    -mcpu, -mattr, -relocation-model and -code-model only (those are in
 *    Options.c's table); every flag here is parsed and has no effect there.
 *    lli never calls codegen::setFunctionAttributes, so the flags that only
 *    act through function attributes (-frame-pointer, -disable-tail-calls,
 *    -stackrealign, -trap-func, -denormal-fp-math-f32) have no effect in any
 *    mode. mini-lli does the same.
 *  - lli's MCJIT mode copies them into TargetOptions. A flag whose every
 *    value leaves a running x86-64 program unchanged there (sections, debug
 *    info, assembler output, other targets' ABIs, and the options LLVM 22
 *    reads from function attributes instead) is None. A flag that changes
 *    the code lli's MCJIT runs (-fp-contract=fast, -tailcallopt,
 *    -exception-model=sjlj, ...) is MCJIT: mini-lli's -jit-kind=mcjit (in
 *    process and -remote-mcjit) does the same to the IR before compiling it,
 *    since LLVM-C's target machines take none of these but -target-abi
 *    (MCJITFlags.h).
 * docs/CommandGuide/mini-lli.md lists every flag and its reason. */

#ifndef ORC_RT_C_LIB_JIT_LLI_CODEGENFLAGS_H
#define ORC_RT_C_LIB_JIT_LLI_CODEGENFLAGS_H

#include "orc-rt-c/Error.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  orc_rt_jit_CGValue_Bool,
  orc_rt_jit_CGValue_Enum, /* one of Values */
  orc_rt_jit_CGValue_UInt, /* cl::opt<unsigned> / <uint64_t> */
  orc_rt_jit_CGValue_Int,  /* cl::opt<int> */
  orc_rt_jit_CGValue_String
} orc_rt_jit_CGValueKind;

typedef enum {
  orc_rt_jit_CGEffect_None, /* no engine of lli's or mini-lli's changes */
  orc_rt_jit_CGEffect_MCJIT /* lli's MCJIT does; so does mini-lli's */
} orc_rt_jit_CGEffect;

typedef struct {
  const char *Name;
  orc_rt_jit_CGValueKind Kind;
  const char *Values;    /* Enum: "a|b|c", as lli lists them */
  const char *ValueName; /* for --help: "<value>", "<uint>", ... */
  const char *Help;      /* lli's help text */
  bool Hidden;           /* only in --help-hidden, as lli */
  orc_rt_jit_CGEffect Effect;
} orc_rt_jit_CodeGenFlag;

extern const orc_rt_jit_CodeGenFlag orc_rt_jit_CodeGenFlags[];
extern const size_t orc_rt_jit_CodeGenFlagCount;
/* At least orc_rt_jit_CodeGenFlagCount: the size of the options' table of
 * given values (orc_rt_jit_Options::CodeGenValues). */
#define ORC_RT_JIT_CODEGEN_FLAGS_MAX 80

/* The flag named Name[0, Len), or NULL. */
const orc_rt_jit_CodeGenFlag *orc_rt_jit_findCodeGenFlag(const char *Name,
                                                         size_t Len);

/* Checks Value (a bool already as "true" or "false") as lli's cl:: parser
 * would. */
orc_rt_ErrorRef orc_rt_jit_CodeGenFlag_check(const orc_rt_jit_CodeGenFlag *F,
                                             const char *Value);

/* The value given for the flag Name, from the options' table Values
 * (orc_rt_jit_Options::CodeGenValues), or NULL if it was not given. */
const char *orc_rt_jit_CodeGenFlag_value(const char *const *Values,
                                         const char *Name);

#endif
