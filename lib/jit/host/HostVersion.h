/*===- lib/jit/host/HostVersion.h - One compiled version of a host's module ===*/
/* A version's life: HostVersion.c. */

#ifndef ORC_RT_C_LIB_JIT_HOST_HOSTVERSION_H
#define ORC_RT_C_LIB_JIT_HOST_HOSTVERSION_H

#include "jit/host/HostParts.h"

/* Compiles and links a version of M from Buf (consumed), keeping the
 * current version's variables; its JITDylib (new ones get Gen's generator),
 * group and stubs. On failure the version is gone and the error names
 * Source, where the bytes came from. Empty input is refused, as glibc's
 * dlopen refuses an empty file. Under Lock. */
orc_rt_ErrorRef orc_rt_jit_HostVersion_build(
    orc_rt_JitModuleRef M, LLVMMemoryBufferRef Buf, const char *Source,
    LLVMOrcDefinitionGeneratorRef (*Gen)(orc_rt_jit_HostSlot *),
    orc_rt_jit_HostVersion **Out);
/* Its constructors; its destructors and atexit handlers; under its token. */
void orc_rt_jit_HostVersion_construct(orc_rt_jit_HostVersion *V);
void orc_rt_jit_HostVersion_finalize(orc_rt_jit_HostVersion *V);
/* Runs H (What names it) under V's token, as V's constructors run. */
void orc_rt_jit_HostVersion_run(orc_rt_jit_HostVersion *V, const char *What,
                                const orc_rt_jit_AtexitHandler *H);
/* Frees its code and data (its JITDylib cleared for reuse) and
 * bookkeeping. */
void orc_rt_jit_HostVersion_release(orc_rt_jit_HostVersion *V);

/* The version whose __dso_handle Dso is, or NULL if it is not one. */
orc_rt_jit_HostVersion *orc_rt_jit_HostVersion_ofDso(void *Dso);

/* A thread_local destructor V's code registered keeps V's code until it has
 * run (pin), or been cancelled (unpin): the completion of V's group, if it
 * came meanwhile, happens at the last unpin. */
void orc_rt_jit_HostVersion_pinForThreadDtor(orc_rt_jit_HostVersion *V);
void orc_rt_jit_HostVersion_unpinThreadDtor(orc_rt_jit_HostVersion *V);

/* M's own stub identity (M->Id), for its fronts and retired stubs. */
orc_rt_ErrorRef orc_rt_jit_Host_makeModuleId(orc_rt_JitModuleRef M);

/* Frees M's bookkeeping and its versions' (not their code: that is their
 * JITDylibs'), after the Session's drain; and M's when its last version
 * goes. */
void orc_rt_jit_Host_freeModule(orc_rt_JitModuleRef M);

#endif
