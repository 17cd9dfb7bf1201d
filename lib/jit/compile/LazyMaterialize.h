/*===- lib/jit/compile/LazyMaterialize.h - Lazy bodies as ORC units -------===*/
/* The ORC side of the per-function lazy split (LazySplit.h). The split leaves
 * every function body in one holder module that the JIT never compiles; here
 * those bodies are defined in a JITDylib by custom materialization units of up
 * to 64 symbols each. When some of a unit's symbols are looked up, the unit
 * hands the others back to the JITDylib in a new unit, moves the requested
 * bodies from the holder into a new module of their own (BodyMover.h, under
 * the context lock) and emits that through the LLJIT's IR transform layer.
 *
 * The bodies are shared by their units: each unit holds a reference, and the
 * last one released frees the holder, the symbol names and the context
 * reference. Units run on whatever thread ORC materializes on. */

#ifndef ORC_RT_C_LIB_JIT_COMPILE_LAZYMATERIALIZE_H
#define ORC_RT_C_LIB_JIT_COMPILE_LAZYMATERIALIZE_H

#include "jit/support/PtrSet.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>

/* The function bodies of a split module, waiting to be looked up. */
typedef struct orc_rt_jit_LazyBodies orc_rt_jit_LazyBodies;

/* The bodies in Holder, whose dirty constants (ConstantRebuild.h) are Dirty.
 * Takes Holder and the contents of Dirty (left empty), also when it fails;
 * NULL if out of memory. The caller holds the one reference. */
orc_rt_jit_LazyBodies *orc_rt_jit_LazyBodies_create(LLVMModuleRef Holder,
                                                    orc_rt_jit_PtrSet *Dirty);

/* The bodies of Holder, a module read lazily (ir/Module.h), read as each is
 * first looked up; their dirty constants are found then. BodyNames maps
 * each function of Holder whose body moves under another name (a stubbed
 * one: NAME$body, compile/LazySplit.h) to that name, malloc'ed. Takes
 * Holder and BodyNames (left empty), also when it fails; NULL if out of
 * memory. The caller holds the one reference. */
orc_rt_jit_LazyBodies *
orc_rt_jit_LazyBodies_createUnread(LLVMModuleRef Holder,
                                   orc_rt_jit_PtrSet *BodyNames);

/* Emits the module of the bodies MR is responsible for (any thread ORC
 * materializes on); takes MR and TSM. */
typedef void (*orc_rt_jit_LazyEmitFn)(
    void *Ctx, LLVMOrcMaterializationResponsibilityRef MR,
    LLVMOrcThreadSafeModuleRef TSM);

/* Defines each body of B in JD: it is compiled, through J's IR transform
 * layer (or Emit, if not NULL), in a module of its own when first looked up.
 * Takes the caller's reference to B, and its reference to the modules'
 * context (*TSC becomes NULL), which the bodies need for as long as some are
 * left. */
orc_rt_ErrorRef orc_rt_jit_LazyBodies_define(orc_rt_jit_LazyBodies *B,
                                             LLVMOrcLLJITRef J,
                                             LLVMOrcJITDylibRef JD,
                                             LLVMOrcThreadSafeContextRef *TSC,
                                             orc_rt_jit_LazyEmitFn Emit,
                                             void *EmitCtx);

/* Where the reasons a body could not be read go (the session's error
 * reporter, say), before its materialization fails; without one they are
 * dropped. Report takes the error. Set before orc_rt_jit_LazyBodies_define. */
void orc_rt_jit_LazyBodies_setReporter(orc_rt_jit_LazyBodies *B,
                                       void (*Report)(void *Ctx,
                                                      LLVMErrorRef Err),
                                       void *Ctx);

/* Drops a reference; the last one frees the bodies. */
void orc_rt_jit_LazyBodies_release(orc_rt_jit_LazyBodies *B);

#endif
