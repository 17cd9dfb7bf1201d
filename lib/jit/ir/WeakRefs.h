/*===- lib/jit/ir/WeakRefs.h - Undefined weak references, before RuntimeDyld -===*/
/* An undefined weak reference is null when nothing defines the name, as the
 * static linker makes it. RuntimeDyld, which links -jit-kind=mcjit in process
 * (Jit.c) and remotely (RemoteProgram.c), takes no null address from a
 * lookup ("Symbols not found"), so the IR says it: before a module is
 * compiled, each weak declaration that no module of the program defines and
 * the caller cannot find elsewhere (the process, -dlopen libraries, -extra-
 * objects; the executor) has its uses replaced by null and is deleted. */

#ifndef ORC_RT_C_LIB_JIT_IR_WEAKREFS_H
#define ORC_RT_C_LIB_JIT_IR_WEAKREFS_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>

/* Sets *Found if Name is defined outside the program's modules. */
typedef orc_rt_ErrorRef (*orc_rt_jit_WeakResolver)(const char *Name,
                                                   bool *Found, void *Ctx);

/* Nulls M's undefined weak references that none of the NumModules modules
 * (M may be among them) defines and Resolve does not find. */
orc_rt_ErrorRef orc_rt_jit_nullUndefinedWeak(LLVMModuleRef M,
                                             const LLVMModuleRef *Modules,
                                             size_t NumModules,
                                             orc_rt_jit_WeakResolver Resolve,
                                             void *Ctx);

#endif
