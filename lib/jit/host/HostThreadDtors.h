/*===- lib/jit/host/HostThreadDtors.h - Modules' thread_local destructors ===*/
/* A module's __cxa_thread_atexit, and the cancel of the destructors not run
 * when the Jit goes (HostThreadDtors.c says how). */

#ifndef ORC_RT_C_LIB_JIT_HOST_HOSTTHREADDTORS_H
#define ORC_RT_C_LIB_JIT_HOST_HOSTTHREADDTORS_H

#include "jit/host/HostParts.h"

/* The __cxa_thread_atexit a module's JITDylib resolves to: registers Fn(Obj)
 * to run when the calling thread ends, keeping the code of the version
 * whose __dso_handle Dso is until then (as glibc keeps a library with such
 * a destructor pending loaded past dlclose). */
int orc_rt_jit_Host_threadAtexit(void (*Fn)(void *), void *Obj, void *Dso);

/* At the Jit's end: the destructors not run yet are cancelled (a thread
 * that ends later runs none: the code is gone), and their versions
 * unpinned; waits for one running meanwhile. */
void orc_rt_jit_Host_cancelThreadDtors(struct orc_rt_OpaqueJit *J);

#endif
