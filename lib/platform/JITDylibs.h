/*===- lib/platform/JITDylibs.h - JITDylib registry and dlopen state ------===*/
/*
 * The registry of JITDylibs the controller registers, and the reference-
 * counted open / update / close that dlopen, dlupdate and dlclose do with it
 * (JITDylibs.c). Uses AtExit.h, never the other way round.
 */

#ifndef ORC_RT_C_LIB_PLATFORM_JITDYLIBS_H
#define ORC_RT_C_LIB_PLATFORM_JITDYLIBS_H

#include "Platform.h"

/*---- JITDylibs.c: registry, initializers, reference-counted open/close ----*/
orc_rt_ErrorRef orc_rt_platform_registerJITDylib(const char *Name, size_t Len,
                                                 void *Header);
orc_rt_ErrorRef orc_rt_platform_deregisterJITDylib(void *Header);
orc_rt_ErrorRef orc_rt_platform_registerInits(void *Header,
                                              const orc_rt_platform_Range *R,
                                              size_t N);
orc_rt_ErrorRef orc_rt_platform_deregisterInits(void *Header,
                                                const orc_rt_platform_Range *R,
                                                size_t N);
/* Lookups; the caller holds State.Mutex. */
orc_rt_platform_JITDylib *orc_rt_platform_findByHeader(void *Header);
/* dlopen: runs new initializers of Name and its dependencies, increments its
 * open count; *Handle is the JITDylib's header. */
orc_rt_ErrorRef orc_rt_platform_open(const char *Name, void **Handle);
/* dlupdate: runs initializers added since the last open of Handle. */
orc_rt_ErrorRef orc_rt_platform_update(void *Handle);
/* dlclose: at the last close, runs the JITDylib's atexit handlers (newest
 * first) and releases its dependencies. */
orc_rt_ErrorRef orc_rt_platform_close(void *Handle);
/* Frees every record (platform shutdown). */
void orc_rt_platform_destroyJITDylibs(void);

#endif
