/*===- lib/jit/ir/PreemptibleDeclarations.h - Declarations the GOT reaches ===*/
/* In the small code model, a declaration marked dso_local (clang marks
 * every one so under -fno-pic, and hidden ones, such as __dso_handle, under
 * any model) is reached PC-relative, within 2 GiB of the code. The JIT's
 * memory is not within 2 GiB of everything: mini-lli's own binary (which
 * defines __dso_handle and the functions it interposes), the libraries, or
 * code linked after the program mapped gigabytes in between. A declaration
 * that is not dso_local is reached through the GOT, which the link builds
 * in the object's own memory (and turns back into a PC-relative address
 * when the definition is in reach), and a call through a stub.
 *
 * LLVM-C cannot clear dso_local, so every declaration of M (intrinsics
 * aside) is made anew, with default visibility and everything else it had,
 * and takes the old one's uses. */

#ifndef ORC_RT_C_LIB_JIT_IR_PREEMPTIBLEDECLARATIONS_H
#define ORC_RT_C_LIB_JIT_IR_PREEMPTIBLEDECLARATIONS_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

orc_rt_ErrorRef orc_rt_jit_makeDeclarationsPreemptible(LLVMModuleRef M);

#endif
