/*===- lib/jit/ir/FastISelLowering.h - Tier-0 IR that FastISel selects whole ===*/
/* Tier 0 is compiled with FastISel (-O0), which gives up on a few
 * instructions optimized IR is full of, and then selects the rest of their
 * block with SelectionDAG, several times slower: a switch, a select of i1
 * (the form `a && b` and `a || b` take) and the min/max intrinsics. Rewritten
 * into what FastISel selects (a tree of branches, and/or, compare and
 * select) just before tier 0's code generation, which is all that still sees
 * the IR; tier 1 is built from the module as it was. */

#ifndef ORC_RT_C_LIB_JIT_IR_FASTISELLOWERING_H
#define ORC_RT_C_LIB_JIT_IR_FASTISELLOWERING_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

orc_rt_ErrorRef orc_rt_jit_lowerForFastISel(LLVMModuleRef M);

#endif
