/*===- orc-rt-c/orc-rt.h - Umbrella header ----------------------*- C -*-===*\
|* Part of orc-rt-c. Includes every public header of the runtime.             *|
\*===----------------------------------------------------------------------===*/

#ifndef ORC_RT_C_ORC_RT_H
#define ORC_RT_C_ORC_RT_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Error.h"
#include "orc-rt-c/ExecutorServices.h"
#include "orc-rt-c/ManagedThread.h"
#include "orc-rt-c/NestedGroup.h"
#include "orc-rt-c/RemoteExecutor.h"
#include "orc-rt-c/SPS.h"
#include "orc-rt-c/Session.h"
#include "orc-rt-c/TaskGroup.h"
#include "orc-rt-c/WrapperFunction.h"

#endif /* ORC_RT_C_ORC_RT_H */
