/*===- lib/jit/program/ThreadInterpose.h - pthread_create for the whole process ===*/
/* mini-lli exports its own pthread_create from the executable, so that it takes
 * precedence over libc's for every library in the process. A thread created
 * while the creating thread is inside JIT'd code -- for example by libstdc++'s
 * std::thread on behalf of JIT'd C++ -- becomes a managed thread exactly as if
 * JIT'd code had called pthread_create itself (see ProgramRuntime.h); every
 * other creation goes straight to libc. The runtime's and the driver's own
 * thread creations are marked so they are never wrapped. */

#ifndef ORC_RT_C_LIB_JIT_PROGRAM_THREADINTERPOSE_H
#define ORC_RT_C_LIB_JIT_PROGRAM_THREADINTERPOSE_H

#include "jit/support/LibcPthread.h"

#include <pthread.h>
#include <stdbool.h>

/* What pthread_create does for a thread inside JIT'd code (set once, before
 * any JIT'd code runs). */
typedef int (*orc_rt_jit_CreateFn)(pthread_t *, const pthread_attr_t *,
                                   void *(*)(void *), void *);
void orc_rt_jit_ThreadInterpose_set(orc_rt_jit_CreateFn Managed);

/* While set on this thread, pthread_create is libc's. Returns the old value. */
bool orc_rt_jit_ThreadInterpose_bypass(bool On);

#endif
