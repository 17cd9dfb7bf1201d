/*===- lib/jit/tier/TierFirstCalls.h - Entries that resolve on a call -----===*/
/* A first-call entry is where a front (TierFronts.h) leads before its
 * function is compiled: 16 bytes of code that call Resolve(Ctx) with every
 * register that may carry an argument kept (rdi rsi rdx rcx r8 r9, rax for a
 * variadic call's vector count, r10 for the static chain, xmm0-7), then jump
 * to the address Resolve returned, the caller's stack and return address as
 * they came: the function runs as if it had been called there directly.
 *
 * Resolve runs on the caller's thread and stack, inside whatever the caller
 * was doing (a library's callback, a signal handler): the entry only saves
 * registers, what Resolve does is its own business. An entry is reached for
 * as long as its front leads to it, and by calls that read the front before
 * it was retargeted, so Resolve may run several times, on several threads at
 * once.
 *
 * The ymm/zmm upper halves and the x87 stack are not kept (as for ORC's lazy
 * stubs). No CFI: nothing unwinds through an entry (Resolve does not throw,
 * and the jump leaves no frame).
 *
 * Entries come in blocks: one mapping of code (read and execute) per
 * orc_rt_jit_TierFirstCalls_create, each entry naming a record of its own;
 * a block lives until orc_rt_jit_TierFirstCalls_dispose, which must come
 * after the last call. */

#ifndef ORC_RT_C_LIB_JIT_TIER_TIERFIRSTCALLS_H
#define ORC_RT_C_LIB_JIT_TIER_TIERFIRSTCALLS_H

#include <stddef.h>
#include <stdint.h>

/* Where the call goes: an address to jump to with the caller's arguments. */
typedef uint64_t (*orc_rt_jit_FirstCallResolve)(void *Ctx);

typedef struct orc_rt_jit_TierFirstCallBlock orc_rt_jit_TierFirstCallBlock;

/* The blocks made so far (zero-initialised: none). Not synchronised. */
typedef struct {
  orc_rt_jit_TierFirstCallBlock *Blocks;
} orc_rt_jit_TierFirstCalls;

/* Makes N entries, entry i at Base + 16 * i calling Resolve(Ctxs[i]).
 * Returns Base, or 0 if out of memory. */
uint64_t orc_rt_jit_TierFirstCalls_create(orc_rt_jit_TierFirstCalls *F,
                                          orc_rt_jit_FirstCallResolve Resolve,
                                          void *const *Ctxs, size_t N);

/* Unmaps every block. */
void orc_rt_jit_TierFirstCalls_dispose(orc_rt_jit_TierFirstCalls *F);

#endif
