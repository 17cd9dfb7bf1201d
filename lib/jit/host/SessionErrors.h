/*===- lib/jit/host/SessionErrors.h - What a Jit's session reports -------===*/
/* The cause of a failed link ("Symbols not found: [ f ]") reaches the
 * ExecutionSession's error reporter, not the lookup's error: a Jit keeps it
 * for the load that is failing. */

#ifndef ORC_RT_C_LIB_JIT_HOST_SESSIONERRORS_H
#define ORC_RT_C_LIB_JIT_HOST_SESSIONERRORS_H

#include "jit/host/HostParts.h"

#include <llvm-c/Error.h>

/* The error reporter of J's ExecutionSession (Ctx is J). */
void orc_rt_jit_Host_reportSessionError(void *Ctx, LLVMErrorRef E);

/* The session errors reported since the last call, joined (NULL if none). */
char *orc_rt_jit_Host_takeSessionErrors(struct orc_rt_OpaqueJit *J);

#endif
