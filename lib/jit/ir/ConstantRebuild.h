/*===- lib/jit/ir/ConstantRebuild.h - Constants naming globals, rebuilt ---===*/
/* When a function body moves to another module, each operand that names a
 * global value must name the other module's counterpart instead. Constants
 * are shared by the whole LLVMContext, so one that refers to a global value
 * (a GEP of @g, a struct holding @f, directly or through other constants) is
 * "dirty": it cannot be edited in place and is rebuilt from remapped operands
 * with the LLVM-C constant builders. This file finds the dirty constants of a
 * module, says whether code uses one the C API cannot rebuild (blockaddress,
 * ptrauth, shufflevector, ...), and rebuilds one. */

#ifndef ORC_RT_C_LIB_JIT_IR_CONSTANTREBUILD_H
#define ORC_RT_C_LIB_JIT_IR_CONSTANTREBUILD_H

#include "jit/support/PtrSet.h"

#include <llvm-c/Core.h>

#include <stdbool.h>

/* Fills Dirty with every constant of M (other than a global value) that
 * refers to a global value, directly or through other constants: only those
 * must be rebuilt when a body moves to another module. Returns false, with
 * *Rebuildable false, if code uses one that cannot be rebuilt; false with
 * *Rebuildable true if out of memory. Linear: it walks the uses of the global
 * values and of the constants found. */
bool orc_rt_jit_findDirtyConstants(LLVMModuleRef M, orc_rt_jit_PtrSet *Dirty,
                                   bool *Rebuildable);

/* Adds to Dirty the dirty constants that F's code uses (operands of its
 * instructions, its personality, prefix and prologue data), for a body read
 * after orc_rt_jit_findDirtyConstants ran (a lazily loaded one). Returns
 * false, with *Rebuildable false, if one cannot be rebuilt; false with
 * *Rebuildable true if out of memory. Linear in the size of F's code. */
bool orc_rt_jit_findDirtyConstantsOf(LLVMValueRef F, orc_rt_jit_PtrSet *Dirty,
                                     bool *Rebuildable);

/* C, a dirty constant that orc_rt_jit_findDirtyConstants accepted, rebuilt
 * from new operands Ops (N of them, in C's operand order). Flags the C API
 * cannot read are dropped, which only loses optimization hints: a GEP's
 * inrange, nuw/nsw of a constant add or sub. */
LLVMValueRef orc_rt_jit_rebuildConstant(LLVMValueRef C, LLVMValueRef *Ops,
                                        unsigned N);

#endif
