/*===- lib/jit/host/HostModule.h - A host's modules: load, fronts, unload ===*/

#ifndef ORC_RT_C_LIB_JIT_HOST_HOSTMODULE_H
#define ORC_RT_C_LIB_JIT_HOST_HOSTMODULE_H

#include "jit/host/HostParts.h"

/* Loads the module in Buf (consumed) under J->Lock. */
orc_rt_ErrorRef orc_rt_jit_Host_load(struct orc_rt_OpaqueJit *J,
                                     const char *Name, LLVMMemoryBufferRef Buf,
                                     orc_rt_JitModuleRef *Result);

/* Fronts: makes those V's functions need that M lacks (jumping to V's
 * stubs; fails only for memory); points them all at V's stubs; names them in
 * V's stubs for when V is superseded. Under Lock. */
orc_rt_ErrorRef orc_rt_jit_Host_makeFronts(orc_rt_JitModuleRef M,
                                           orc_rt_jit_HostVersion *V);
void orc_rt_jit_Host_retargetFronts(orc_rt_JitModuleRef M,
                                    orc_rt_jit_HostVersion *V);
void orc_rt_jit_Host_linkStubsToFronts(orc_rt_JitModuleRef M,
                                       orc_rt_jit_HostVersion *V);

/* Under SymLock: another loaded module bound symbols from M. */
bool orc_rt_jit_Host_isNeeded(struct orc_rt_OpaqueJit *J,
                              orc_rt_JitModuleRef M);

/* Whether a loaded module of J exports Name or the host added it (what a
 * module's link finds before the process's symbols). Takes SymLock. */
bool orc_rt_jit_Host_isDefinedInJit(struct orc_rt_OpaqueJit *J,
                                    const char *Name);

/* The generator of a module version's JITDylib. */
LLVMOrcDefinitionGeneratorRef
orc_rt_jit_Host_generatorFor(orc_rt_jit_HostSlot *S);

/* At the Session's detach: every module still loaded is finalized (in
 * glibc's _dl_fini order; those their destructors load after) and its group
 * closed by shutdown. */
void orc_rt_jit_Host_finalizeAll(struct orc_rt_OpaqueJit *J);

#endif
