/*===- lib/services/EHFrame.h - EH-frame registration ---------------------===*/
/* Adds the EH-frame alloc actions (llvm_orc_registerEHFrameAllocAction,
 * llvm_orc_deregisterEHFrameAllocAction). */

#ifndef ORC_RT_C_LIB_SERVICES_EHFRAME_H
#define ORC_RT_C_LIB_SERVICES_EHFRAME_H

#include "services/ExecutorServices.h"

orc_rt_ErrorRef orc_rt_internal_addEHFrame(orc_rt_ExecutorServicesRef ES);

/* The alloc actions, exported under LLVM's names. Error(AddrRange EHFrame). */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
llvm_orc_registerEHFrameSectionAllocAction(const char *ArgData, size_t ArgSize);
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
llvm_orc_deregisterEHFrameSectionAllocAction(const char *ArgData,
                                             size_t ArgSize);

#endif
