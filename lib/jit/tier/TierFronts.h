/*===- lib/jit/tier/TierFronts.h - Entries a tier-up retargets -------------===*/
/* Each function of a tiered module is reached through a front: 8 bytes of
 * code that jump through a pointer of their own (jmp *slot(%rip)). The front's
 * address is the function's address for the whole run (calls, function
 * pointers, data that names the function); a tier-up is one 8-byte store of
 * the new code's address into the pointer. A front takes no token and leaves
 * no frame: unwinding, backtraces and tail calls pass it as if it were not
 * there.
 *
 * Fronts come in blocks, one mapping each: the code pages (read and execute)
 * and, right after them, as many pages of pointers (read and write), so that
 * every front's pointer lies the same distance after it. A block lives until
 * orc_rt_jit_TierFronts_dispose, which must come after the last call. */

#ifndef ORC_RT_C_LIB_JIT_TIER_TIERFRONTS_H
#define ORC_RT_C_LIB_JIT_TIER_TIERFRONTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct orc_rt_jit_TierFrontBlock orc_rt_jit_TierFrontBlock;

/* The blocks made so far (zero-initialised: none). Not synchronised. */
typedef struct {
  orc_rt_jit_TierFrontBlock *Blocks;
} orc_rt_jit_TierFronts;

/* Makes N fronts, Front[i] = Base + 8 * i, each jumping to Targets[i].
 * Returns Base, or 0 if out of memory. */
uint64_t orc_rt_jit_TierFronts_create(orc_rt_jit_TierFronts *F,
                                      const uint64_t *Targets, size_t N);

/* Points Front at Target: calls that read the front after this store go
 * there. Any thread; the caller serialises retargets of one front. */
void orc_rt_jit_TierFronts_retarget(uint64_t Front, uint64_t Target);

/* Points Front at Target if it still leads to From (compare-and-swap,
 * release): a first call's retarget that must not undo a tier-up's. True if
 * it did. */
bool orc_rt_jit_TierFronts_retargetFrom(uint64_t Front, uint64_t From,
                                        uint64_t Target);

/* Where Front jumps now. */
uint64_t orc_rt_jit_TierFronts_target(uint64_t Front);

/* Unmaps every block. */
void orc_rt_jit_TierFronts_dispose(orc_rt_jit_TierFronts *F);

#endif
