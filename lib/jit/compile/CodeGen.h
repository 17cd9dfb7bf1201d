/*===- lib/jit/compile/CodeGen.h - Compiling a module on several threads --===*/
/* For -jit-kind=orc: a module is compiled to object files before it is added
 * to the JIT, so the objects can go to the object cache and the work can be
 * spread over the CPUs. A large module is cut into up to Threads parts of
 * about equal size (counted in instructions), one per thread, each in its own
 * LLVMContext (a context is not thread-safe), and compiled concurrently:
 *
 *   - local symbols get unique external names first, so the parts can refer
 *     to each other (ModuleIndex keeps the names unique across modules);
 *   - part 0 keeps every global variable, alias, comdat member and function
 *     whose blocks have their address taken; the other parts get function
 *     bodies only and refer to the rest by name;
 *   - the other parts are read from one bitcode copy of the module, each on
 *     its own thread, while part 0 is compiled from the original.
 *
 * Small modules, modules with ifuncs, and Threads <= 1 compile whole on the
 * calling thread. The parts are linked together by the JIT like any objects.
 *
 * DataApart (for -jd, see JITDylibs.h) always cuts, and leaves part 0 only
 * the functions pinned there: another JITDylib that uses the module's data
 * then waits for the variables' object alone, not for the code, which may be
 * waiting for that JITDylib's data in turn.
 *
 * Preemptible (for code in the small code model: orc-tiered) makes every
 * declaration preemptible before code generation
 * (ir/PreemptibleDeclarations.h): M's own, which may be defined anywhere in
 * the process, and, when M is cut, what each part only declares, since the
 * parts are linked as separate objects, maybe out of a 32-bit reach of each
 * other (a promoted local or a -fno-pic definition, declared in the other
 * parts, would otherwise be reached PC-relative). */

#ifndef ORC_RT_C_LIB_JIT_COMPILE_CODEGEN_H
#define ORC_RT_C_LIB_JIT_COMPILE_CODEGEN_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  LLVMMemoryBufferRef *Items;
  size_t Size;
  /* The code depends on what else was loaded when it was compiled (a weak
   * reference nulled or kept: ir/WeakRefs.h): not to be reused for another
   * load, nor cached. */
  bool Volatile;
} orc_rt_jit_ObjectList;

void orc_rt_jit_ObjectList_dispose(orc_rt_jit_ObjectList *L);

/* Makes a target machine for one compile thread; must be thread-safe. */
typedef LLVMTargetMachineRef (*orc_rt_jit_TargetMachineFactory)(void *Ctx);

/* Compiles M into object files (Out, owned by the caller). M is changed (and
 * stays owned by the caller). The calling thread compiles with MainTM (lent);
 * the other threads with target machines from NewTM. */
orc_rt_ErrorRef orc_rt_jit_compileModule(LLVMModuleRef M, unsigned ModuleIndex,
                                         unsigned Threads, bool DataApart,
                                         bool Preemptible,
                                         LLVMTargetMachineRef MainTM,
                                         orc_rt_jit_TargetMachineFactory NewTM,
                                         void *TMCtx,
                                         orc_rt_jit_ObjectList *Out);

#endif
