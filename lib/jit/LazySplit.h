/*===- lib/jit/LazySplit.h - Cutting a module up for lazy compilation -----===*/
/* For -jit-kind=orc-lazy: every function body is renamed NAME$body and every
 * use of the function (calls, address taken, data) goes to NAME, which the JIT
 * defines as a lazy-reexport stub that compiles NAME$body on its first call.
 * Per function (the default, like lli's orc-lazy), each body gets its own
 * module and the global variables stay in one more; with -per-module-lazy, or
 * for a module with more than 256 function bodies (each part is a clone of the
 * whole module, so splitting those would cost more than it saves), the module
 * stays whole. Local symbols are given unique external names first so
 * the parts can refer to each other. Weak bodies stay weak. Only functions
 * that are only ever called directly get a stub; one whose address escapes is
 * compiled when the code taking its address is linked. Modules with aliases,
 * ifuncs or blockaddress constants are added whole, without stubs. */

#ifndef ORC_RT_C_LIB_JIT_LAZYSPLIT_H
#define ORC_RT_C_LIB_JIT_LAZYSPLIT_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char *Name, *Body;
  bool Weak;
} orc_rt_jit_LazyStub;

typedef struct {
  LLVMModuleRef *Modules; /* each to be added to the JIT (ownership passes) */
  size_t NumModules;
  orc_rt_jit_LazyStub *Stubs;
  size_t NumStubs;
} orc_rt_jit_LazyParts;

/* Takes ownership of M (it becomes one of the parts). */
orc_rt_ErrorRef orc_rt_jit_splitForLazy(LLVMModuleRef M, unsigned ModuleIndex,
                                        bool PerFunction,
                                        orc_rt_jit_LazyParts *Out);

/* Frees the stub names and any module not yet taken (NULL entries skipped). */
void orc_rt_jit_LazyParts_dispose(orc_rt_jit_LazyParts *P);

#endif
