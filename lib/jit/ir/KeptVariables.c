/* provisional stub: replaced by the keptvars branch */
#include "jit/ir/KeptVariables.h"
#include <stdlib.h>
char *orc_rt_jit_typeKey(LLVMValueRef G) { (void)G; return NULL; }
orc_rt_ErrorRef orc_rt_jit_keepVariables(LLVMModuleRef M, const orc_rt_jit_KeptVar *K, size_t N) { (void)M; (void)K; (void)N; return NULL; }
char *orc_rt_jit_varCompanionName(const orc_rt_jit_KeptVar *V) { (void)V; return NULL; }
bool orc_rt_jit_parseVarCompanion(const char *S, orc_rt_jit_KeptVar *O) { (void)S; (void)O; return false; }
char *orc_rt_jit_keptSymbolName(const orc_rt_jit_KeptVar *V) { (void)V; return NULL; }
void orc_rt_jit_KeptVar_dispose(orc_rt_jit_KeptVar *V) { free(V->Name); free(V->TypeKey); }
