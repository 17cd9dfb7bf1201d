/*===- lib/jit/host/SessionErrors.c - What a Jit's session reports -------===*/

#include "jit/host/SessionErrors.h"
#include "jit/support/Diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void orc_rt_jit_Host_reportSessionError(void *Ctx, LLVMErrorRef E) {
  struct orc_rt_OpaqueJit *J = Ctx;
  /* A compile of the LLJIT's that failed on this thread ends here. */
  orc_rt_jit_SerialCompile_end(&J->Serial);
  char *Msg = LLVMGetErrorMessage(E);
  orc_rt_jit_restoreUserNames(Msg);
  pthread_mutex_lock(&J->SymLock);
  size_t Old = J->SessionErrors ? strlen(J->SessionErrors) : 0;
  char *Joined = realloc(J->SessionErrors, Old + strlen(Msg) + 3);
  if (Joined) {
    sprintf(Joined + Old, "%s%s", Old ? "; " : "", Msg);
    J->SessionErrors = Joined;
  }
  pthread_mutex_unlock(&J->SymLock);
  LLVMDisposeErrorMessage(Msg);
}

char *orc_rt_jit_Host_takeSessionErrors(struct orc_rt_OpaqueJit *J) {
  if (J->Owned) /* its LLJIT's session reports to its owner */
    return J->Owner.TakeSessionErrors(J->Owner.Ctx);
  pthread_mutex_lock(&J->SymLock);
  char *Errs = J->SessionErrors;
  J->SessionErrors = NULL;
  pthread_mutex_unlock(&J->SymLock);
  return Errs;
}
