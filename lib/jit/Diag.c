/*===- lib/jit/Diag.c - LLVM errors and diagnostics as runtime errors -----===*/

#include "jit/Diag.h"

#include <llvm-c/Core.h>

#include <string.h>

orc_rt_ErrorRef orc_rt_jit_fromLLVMError(LLVMErrorRef E, const char *Prefix) {
  if (!E)
    return NULL;
  char *Msg = LLVMGetErrorMessage(E);
  orc_rt_ErrorRef R = Prefix ? orc_rt_Error_createf("%s%s", Prefix, Msg)
                             : orc_rt_Error_create(Msg);
  LLVMDisposeErrorMessage(Msg);
  return R;
}

orc_rt_ErrorRef orc_rt_jit_fromDiagnostic(char *Msg) {
  if (!Msg)
    return orc_rt_Error_create("unknown error");
  /* Drop trailing newlines; cut " error:" out of the first line. */
  size_t Len = strlen(Msg);
  while (Len && Msg[Len - 1] == '\n')
    Msg[--Len] = '\0';
  char *NL = strchr(Msg, '\n');
  char *Tag = strstr(Msg, ": error: ");
  orc_rt_ErrorRef R;
  if (Tag && (!NL || Tag < NL))
    R = orc_rt_Error_createf("%.*s: %s", (int)(Tag - Msg), Msg,
                             Tag + strlen(": error: "));
  else
    R = orc_rt_Error_create(Msg);
  LLVMDisposeMessage(Msg);
  return R;
}
