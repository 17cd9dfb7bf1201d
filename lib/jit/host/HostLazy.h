/*===- lib/jit/host/HostLazy.h - Host modules compiled function by function ===*/
/* orc_rt_JitOptions.Lazy and Tiered (HostLazy.c says how). */

#ifndef ORC_RT_C_LIB_JIT_HOST_HOSTLAZY_H
#define ORC_RT_C_LIB_JIT_HOST_HOSTLAZY_H

#include "jit/host/HostParts.h"

/* Lazy versions, in the order build calls them: prepares and cuts up the
 * module in Buf (consumed), compiling what holds its variables (V->Code and
 * V->Lazy are set, also on failure); defines the bodies and their lazy stubs
 * in V's JITDylib (before it is linked); looks up the symbols the module
 * uses (after). HostLazy_free frees V->Code and V->Lazy (after V's JITDylib
 * was cleared, or when the Jit goes). */
orc_rt_ErrorRef orc_rt_jit_HostLazy_compile(orc_rt_jit_HostVersion *V,
                                            const orc_rt_jit_ModuleCompiler *By,
                                            const char *Source,
                                            LLVMMemoryBufferRef Buf);
orc_rt_ErrorRef orc_rt_jit_HostLazy_define(orc_rt_jit_HostVersion *V);
orc_rt_ErrorRef orc_rt_jit_HostLazy_resolveImports(
    orc_rt_jit_HostVersion *V,
    orc_rt_ErrorRef (*Lookup)(LLVMOrcJITDylibRef JD, const char *const *Names,
                              size_t N, uint64_t *Addrs, void *Ctx),
    void *Ctx);
void orc_rt_jit_HostLazy_free(orc_rt_jit_HostVersion *V);
/* Tiered: stops V's compile thread and frees its tiers (their counts go to
 * J's), before V's JITDylib is cleared; nothing if V has none. */
void orc_rt_jit_HostLazy_stopTiers(orc_rt_jit_HostVersion *V);
/* Tiered: the IR transform of J's LLJIT (tier 0's counters, by the
 * version the module is for). */
LLVMErrorRef
orc_rt_jit_HostLazy_transform(void *Ctx, LLVMOrcThreadSafeModuleRef *ModInOut,
                              LLVMOrcMaterializationResponsibilityRef MR);
/* Tiered: the object transform of J's LLJIT (the end of its compile). */
LLVMErrorRef orc_rt_jit_HostLazy_objectTransform(void *Ctx,
                                                 LLVMMemoryBufferRef *Obj);
/* Adds V's tier counts to *Out. Under SymLock. */
void orc_rt_jit_HostLazy_addTierStats(orc_rt_jit_HostVersion *V,
                                      orc_rt_JitTierStats *Out);

#endif
