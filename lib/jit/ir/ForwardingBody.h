/*===- lib/jit/ir/ForwardingBody.h - A body that only calls elsewhere -----===*/
/* For tiered compilation (lib/jit/tier): a function whose optimized code is
 * already at hand (the object cache) need not be compiled at tier 0. Its body
 * is replaced by a call of a declaration named Target of the same type and
 * calling convention, with the same arguments and parameter attributes
 * (byval, sret, ... mean the same at the call), returning what it returns:
 * a tail call where the code generator makes one; at -O0 one more frame. */

#ifndef ORC_RT_C_LIB_JIT_IR_FORWARDINGBODY_H
#define ORC_RT_C_LIB_JIT_IR_FORWARDINGBODY_H

#include <llvm-c/Core.h>

#include <stdbool.h>

/* Replaces F's body (F is a definition). False, F unchanged, for what a
 * call cannot forward (variadic functions, a parameter with more attributes
 * than are copied), for a declaration, if Target is declared with another
 * type, and if out of memory. */
bool orc_rt_jit_makeForwardingBody(LLVMValueRef F, const char *Target);

#endif
