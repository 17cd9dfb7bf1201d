/*===- lib/jit/ir/KeptVariables.h - Variables that keep their storage across a reload ===*/
/* (placeholder; the real header comes from the keptvars branch) */
#ifndef ORC_RT_C_LIB_JIT_IR_KEPTVARIABLES_H
#define ORC_RT_C_LIB_JIT_IR_KEPTVARIABLES_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char *Name;
  char *TypeKey;
  bool External;
} orc_rt_jit_KeptVar;

char *orc_rt_jit_typeKey(LLVMValueRef GlobalVar);
orc_rt_ErrorRef orc_rt_jit_keepVariables(LLVMModuleRef M,
                                         const orc_rt_jit_KeptVar *Keep,
                                         size_t N);
char *orc_rt_jit_varCompanionName(const orc_rt_jit_KeptVar *V);
bool orc_rt_jit_parseVarCompanion(const char *Symbol, orc_rt_jit_KeptVar *Out);
char *orc_rt_jit_keptSymbolName(const orc_rt_jit_KeptVar *V);
void orc_rt_jit_KeptVar_dispose(orc_rt_jit_KeptVar *V);

#endif
