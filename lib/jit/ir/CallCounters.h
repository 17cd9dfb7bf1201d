/*===- lib/jit/ir/CallCounters.h - Counting a function's calls and loops ---===*/
/* For tiered compilation (lib/jit/tier): a function compiled quickly counts
 * how hot it is, and says so once the count passes a threshold. The count is
 * a 32-bit counter outside the module (the caller's memory, named by its
 * address), bumped on every entry and on every loop back-edge (a branch to a
 * block at or before the branching one in the function's layout, which is
 * how front ends lay out loops). On an entry that finds the count above the
 * threshold, the function first calls Hook(Arg), a C function of the caller's;
 * the hook is expected to set the counter negative so that it is not called
 * again (the compare is signed).
 *
 * The counter is read and written with volatile loads and stores, not
 * read-modify-write: threads calling at once may lose counts, which only
 * delays the threshold, and no locked instruction is paid on a call. Not
 * atomic ones: FastISel (tier 0's instruction selector) selects no atomic
 * store and sends the rest of its block to SelectionDAG, several times
 * slower -- every loop latch, which the back-edge count ends. LLVM gives a
 * volatile load that races with a store a target-dependent value; an aligned
 * 32-bit volatile access is one plain move on x86-64 (single-copy atomic, as
 * on AArch64): it reads a value that was stored. */

#ifndef ORC_RT_C_LIB_JIT_IR_CALLCOUNTERS_H
#define ORC_RT_C_LIB_JIT_IR_CALLCOUNTERS_H

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stdint.h>

/* Adds the count to F, a definition; *HasLoop (if not NULL) says whether F
 * has a back-edge. Returns false, leaving F unchanged, for a function that
 * cannot take code of ours (naked). */
bool orc_rt_jit_addCallCounter(LLVMValueRef F, uintptr_t Counter,
                               int32_t Threshold, uintptr_t Hook, uintptr_t Arg,
                               bool *HasLoop);

#endif
