/*===- lib/core/ManagedFrame.c - Per-thread managed-frame queries ---------===*/

#include "core/ManagedFrame.h"

_Thread_local orc_rt_internal_ManagedFrame *orc_rt_abi_TopFrame;

orc_rt_SessionRef orc_rt_Session_current(void) {
  return orc_rt_abi_TopFrame ? orc_rt_abi_TopFrame->S : NULL;
}

bool orc_rt_Session_isInManagedCode(orc_rt_SessionRef S) {
  for (orc_rt_internal_ManagedFrame *F = orc_rt_abi_TopFrame; F; F = F->Prev)
    if (F->S == S)
      return true;
  return false;
}
