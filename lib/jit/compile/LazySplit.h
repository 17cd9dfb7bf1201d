/*===- lib/jit/compile/LazySplit.h - Cutting a module up for lazy compilation ===*/
/* For -jit-kind=orc-lazy: every function body is renamed NAME$body and every
 * use of the function (calls, address taken, data) goes to NAME, which the JIT
 * defines as a lazy-reexport stub that compiles NAME$body on its first call.
 * Per function (the default, like lli's orc-lazy), each body is compiled in a
 * module of its own, built when the body is first looked up, and the global
 * variables stay in the original module; with -per-module-lazy the module
 * stays whole. Splitting is linear in the size of the module: the bodies'
 * basic blocks are moved, never cloned, first into one holder module that the
 * JIT never compiles, then from there into a body's own module; only the
 * operands that name a global value are rewritten, to a declaration of the
 * same name. Local symbols are given unique external names first so the parts
 * can refer to each other. Weak bodies stay weak. Only functions that are only
 * ever called directly get a stub; one whose address escapes is compiled when
 * the code taking its address is linked. Split bodies carry no debug info.
 * Modules with aliases, ifuncs or blockaddress constants, or whose code uses a
 * constant of globals that the LLVM-C API cannot rebuild (ptrauth,
 * shufflevector), are added whole, without stubs. */

#ifndef ORC_RT_C_LIB_JIT_COMPILE_LAZYSPLIT_H
#define ORC_RT_C_LIB_JIT_COMPILE_LAZYSPLIT_H

#include "jit/compile/LazyMaterialize.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char *Name, *Body;
  bool Weak;
  /* Its address escapes (not only called directly): it got a stub only
   * because EveryFunction asked for one. */
  bool Escapes;
  /* It has a signal handler's type (void (int), or void (int, siginfo_t *,
   * void *)): if its address escapes, it may be one. */
  bool HandlerType;
} orc_rt_jit_LazyStub;

typedef struct {
  LLVMModuleRef *Modules; /* each to be added to the JIT (ownership passes) */
  size_t NumModules;
  orc_rt_jit_LazyStub *Stubs;
  size_t NumStubs;
  orc_rt_jit_LazyBodies *Bodies; /* for orc_rt_jit_defineLazyBodies, or NULL */
} orc_rt_jit_LazyParts;

/* Takes ownership of M (it becomes one of the parts). EveryFunction: every
 * function with a body gets a stub, those whose address escapes too (for
 * tiered compilation, whose stubs are permanent fronts: a function pointer
 * to one stays valid and follows the tier-up), but a weak one, and one whose
 * escaping address carries data (an alignment above 8, prefix data, kcfi or
 * function-sanitizer type data): its address stays its code's. */
/* Holder: NULL, or M read lazily again (ir/Module.h: M's bodies are
 * not read either; taken too), with M's names: M keeps its variables and
 * gets declarations of its functions, and each body is read from Holder
 * when first looked up (PerFunction only). */
orc_rt_ErrorRef orc_rt_jit_splitForLazy(LLVMModuleRef M, unsigned ModuleIndex,
                                        bool PerFunction, bool EveryFunction,
                                        LLVMModuleRef Holder,
                                        orc_rt_jit_LazyParts *Out);

/* Defines P's bodies (if any) in JD: each is compiled, through J's IR
 * transform layer (or Emit, if not NULL: LazyMaterialize.h), in a module of
 * its own when first looked up. Takes the bodies and the caller's reference
 * to the modules' context (*TSC becomes NULL), which they need for as long as
 * some are left. */
orc_rt_ErrorRef orc_rt_jit_defineLazyBodies(orc_rt_jit_LazyParts *P,
                                            LLVMOrcLLJITRef J,
                                            LLVMOrcJITDylibRef JD,
                                            LLVMOrcThreadSafeContextRef *TSC,
                                            orc_rt_jit_LazyEmitFn Emit,
                                            void *EmitCtx);

/* Defines the N stubs in JD: each name (Names[I], or Stubs[I].Name if Names
 * is NULL) a lazy reexport of its body, through LCTM and ISM (which must
 * outlive JD's definitions). */
orc_rt_ErrorRef orc_rt_jit_defineLazyStubs(
    LLVMOrcLLJITRef J, LLVMOrcJITDylibRef JD,
    LLVMOrcLazyCallThroughManagerRef LCTM, LLVMOrcIndirectStubsManagerRef ISM,
    const orc_rt_jit_LazyStub *Stubs, size_t N, char *const *Names);

/* Frees the stub names, any module not yet taken (NULL entries skipped) and
 * the bodies if not defined. */
void orc_rt_jit_LazyParts_dispose(orc_rt_jit_LazyParts *P);

#endif
