/*===- lib/jit/host/HostTargetMachine.h - A Jit's target machines --------===*/

#ifndef ORC_RT_C_LIB_JIT_HOST_HOSTTARGETMACHINE_H
#define ORC_RT_C_LIB_JIT_HOST_HOSTTARGETMACHINE_H

#include "jit/host/HostParts.h"

#include <llvm-c/TargetMachine.h>

/* A target machine for J's triple, CPU and features at optimization level
 * OptLevel (0-3); NULL and *Msg (dispose it) if the triple has no target. */
LLVMTargetMachineRef orc_rt_jit_Host_createTM(struct orc_rt_OpaqueJit *J,
                                              unsigned OptLevel, char **Msg);

/* A target machine at J's OptLevel (any thread), or NULL. */
LLVMTargetMachineRef orc_rt_jit_Host_newTM(void *J);

#endif
