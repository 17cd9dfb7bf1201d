/*===- lib/jit/lli/DebugDump.h - lli's -orc-lazy-debug output -------------===*/
/* What lli prints for -orc-lazy-debug about each module the JIT compiles, in
 * lli's format: funcs-to-stdout "[ f g ]" (the module's defined functions,
 * "<anon>" for unnamed ones), mods-to-stdout the module between
 * "----- Module Start -----" and "----- Module End -----", mods-to-disk the
 * module as "<module identifier>.ll" in the working directory. Names are the
 * user's (see orc_rt_jit_restoreUserNames). */

#ifndef ORC_RT_C_LIB_JIT_LLI_DEBUGDUMP_H
#define ORC_RT_C_LIB_JIT_LLI_DEBUGDUMP_H

#include "jit/lli/Options.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

orc_rt_ErrorRef orc_rt_jit_dumpModule(orc_rt_jit_DumpKind Kind,
                                      LLVMModuleRef M);

#endif
