/*===- lib/core/ManagedFrame.c - Per-thread managed-frame queries ---------===*/

#include "core/ManagedFrame.h"

orc_rt_SessionRef orc_rt_Session_current(void) {
  return orc_rt_abi_ThisThread.TopFrame ? orc_rt_abi_ThisThread.TopFrame->S
                                        : NULL;
}

bool orc_rt_Session_isInManagedCode(orc_rt_SessionRef S) {
  for (orc_rt_internal_ManagedFrame *F = orc_rt_abi_ThisThread.TopFrame; F;
       F = F->Prev)
    if (F->S == S)
      return true;
  return false;
}
