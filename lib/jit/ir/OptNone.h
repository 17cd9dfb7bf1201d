/*===- lib/jit/ir/OptNone.h - clang -O0's optnone as unoptimized input ----===*/
/* clang -O0 marks every function it emits optnone (and noinline), so that no
 * later pipeline optimizes it; LLVM's passes then leave such a function as it
 * is. For tiered compilation that made tier 1 no better than tier 0's code
 * generated at -O2: a compute kernel from `clang -O0 -emit-llvm` ran 2.7x as
 * long as the same IR without the mark. A module whose every function with a
 * body is optnone is clang -O0's output, not a request about some functions:
 * its optnone marks go (noinline stays; tier 1 inlines nothing across
 * functions anyway). A module where only some functions are optnone keeps
 * them: those are the user's. */

#ifndef ORC_RT_C_LIB_JIT_IR_OPTNONE_H
#define ORC_RT_C_LIB_JIT_IR_OPTNONE_H

#include <llvm-c/Core.h>

#include <stdbool.h>

/* Drops optnone from every function of M if all of M's functions with a
 * body have it (see above); true if it did. */
bool orc_rt_jit_dropO0OptNone(LLVMModuleRef M);

#endif
