/*===- lib/jit/ir/SelfCalls.h - A function calling itself without its entry ===*/
/* For tiered compilation (lib/jit/tier): tier-0 code is entered through a
 * stub that takes a token and leaves a frame of 16 bytes, so a function
 * recursing at tier 0 would pay that per level, in time and in stack (80,000
 * levels: 1.25 MiB more than the program asked for). A call of a function
 * from inside itself needs no token of its own (the frame making it holds
 * one for the same code), so here each such call calls the function's own
 * definition directly, as long as a switch flag (a 32-bit word outside the
 * module, named by its address) is not Switched; once it is, the call goes
 * through Entry (the function's entry for everyone else), which leads to the
 * new code. The flag is read with a monotonic atomic load: a call that reads
 * it late only runs old code once more, which stays alive under the frame
 * that calls. */

#ifndef ORC_RT_C_LIB_JIT_IR_SELFCALLS_H
#define ORC_RT_C_LIB_JIT_IR_SELFCALLS_H

#include <llvm-c/Core.h>

#include <stdint.h>

/* Rewrites the direct calls and invokes of Entry (a declaration in F's
 * module) made inside F, a definition; returns how many. */
unsigned orc_rt_jit_callSelfDirectly(LLVMValueRef F, LLVMValueRef Entry,
                                     uintptr_t Flag, int32_t Switched);

#endif
