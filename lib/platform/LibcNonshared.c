/*===- lib/platform/LibcNonshared.c - libc_nonshared.a functions ----------===*/
/*
 * glibc keeps a few functions out of libc.so, in libc_nonshared.a, because
 * they pass the caller's __dso_handle on: atexit, at_quick_exit and
 * pthread_atfork. A program linked by ld gets a copy; JIT'd code looking them
 * up by name finds nothing in the process. LLVM 22's controller aliases atexit
 * (AtExit.c); the other two are defined here, and the controller's archive
 * generator supplies them when JIT'd code looks them up through the
 * platform JITDylib.
 *
 *   at_quick_exit(F)      the process's __cxa_at_quick_exit(F, NULL):
 *                         quick_exit() runs it, exit() does not
 *   pthread_atfork(P,A,C) the process's __register_atfork under the runtime's
 *                         own handle, which platform shutdown finalizes
 *                         (AtExit.c), so a fork() after the JIT'd code is
 *                         gone calls nothing in released memory
 *
 * The real functions are found with dlsym, so a libc without them yields an
 * error code, not an unresolved symbol.
 */

#include "AtExit.h"

#include <dlfcn.h>
#include <errno.h>

ORC_RT_PLATFORM_API int at_quick_exit(void (*Fn)(void)) {
  int (*Real)(void (*)(void), void *) = (int (*)(void (*)(void), void *))(
      uintptr_t)dlsym(RTLD_DEFAULT, "__cxa_at_quick_exit");
  return Real ? Real(Fn, NULL) : -1;
}

ORC_RT_PLATFORM_API int pthread_atfork(void (*Prepare)(void),
                                       void (*Parent)(void),
                                       void (*Child)(void)) {
  int (*Real)(void (*)(void), void (*)(void), void (*)(void), void *) =
      (int (*)(void (*)(void), void (*)(void), void (*)(void), void *))(
          uintptr_t)dlsym(RTLD_DEFAULT, "__register_atfork");
  return Real ? Real(Prepare, Parent, Child, orc_rt_platform_exitHookHandle())
              : ENOSYS;
}
