/*===- lib/platform/AtExit.h - atexit / __cxa_atexit lists ---------------===*/
/*
 * The runtime's handler list (AtExit.c). It knows JITDylibs only by their
 * header addresses, as glibc's list knows DSO handles: it includes nothing of
 * JITDylibs.h.
 */

#ifndef ORC_RT_C_LIB_PLATFORM_ATEXIT_H
#define ORC_RT_C_LIB_PLATFORM_ATEXIT_H

#include "Platform.h"

/*---- AtExit.c: atexit / __cxa_atexit lists, by JITDylib header ----*/
/* Runs, newest first, the handlers of the JITDylib whose header is DSO (every
 * handler if DSO is NULL). Called without State.Mutex held. */
void orc_rt_platform_runAtExits(void *DSO);
/* The JITDylib with header DSO is going away: its handlers that are left run
 * at program end instead. State.Mutex held. */
void orc_rt_platform_orphanAtExits(void *DSO);
/* The header of the JITDylib whose code this thread runs (initializers, main)
 * or NULL: what atexit() attributes a handler to. */
void *orc_rt_platform_atExitOwner(void);
void orc_rt_platform_setAtExitOwner(void *DSO);
/* Arms / disarms the process-exit hook that runs what is left at exit(). */
void orc_rt_platform_installExitHook(void);
/* The handle the runtime registers process-level handlers under
 * (LibcNonshared.c); platform shutdown finalizes it. */
void *orc_rt_platform_exitHookHandle(void);
void orc_rt_platform_removeExitHook(void);

#endif
