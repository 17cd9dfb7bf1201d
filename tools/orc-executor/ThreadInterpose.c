/*===- tools/orc-executor/ThreadInterpose.c - pthread_create for libraries ===*/
/* JIT'd code that calls pthread_create directly gets the runtime's managed
 * version (the dylib manager resolves the name to
 * orc_rt_ExecutorServices_pthread_create). Libraries it calls do not: JIT'd
 * C++'s std::thread is created by libstdc++, which calls pthread_create itself.
 * So the executable exports its own pthread_create, which takes precedence over
 * libc's for every library in the process (as mini-lli's does,
 * lib/jit/program/ThreadInterpose.c): a thread created by a library while the creating
 * thread is inside JIT'd code becomes a managed thread, counted as a thread of
 * the services, counted as JIT'd code in use, so the executor never releases
 * memory under it and a drain waits for it. Calls from the executable itself
 * (the statically linked runtime, including the managed path's own creation of
 * the thread) go to libc. */

#include "orc-rt-c/ExecutorServices.h"
#include "orc-rt-c/Session.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef int (*CreateFn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                        void *);

static int realPthreadCreate(pthread_t *Thread, const pthread_attr_t *Attr,
                             void *(*Fn)(void *), void *Arg) {
  static CreateFn Real; /* racy first use writes the same value */
  CreateFn R = __atomic_load_n(&Real, __ATOMIC_ACQUIRE);
  if (!R) {
    void *Sym = dlsym(RTLD_NEXT, "pthread_create");
    if (!Sym)
      return EAGAIN;
    memcpy(&R, &Sym, sizeof(Sym));
    __atomic_store_n(&Real, R, __ATOMIC_RELEASE);
  }
  return R(Thread, Attr, Fn, Arg);
}

/* True if Addr is code of this executable (not of a library or
 * of JIT'd memory). */
static bool inExecutable(void *Addr) {
  Dl_info Self, Caller;
  return dladdr((void *)(uintptr_t)realPthreadCreate, &Self) &&
         dladdr(Addr, &Caller) && Caller.dli_fbase == Self.dli_fbase;
}

__attribute__((visibility("default"), noinline)) int
pthread_create(pthread_t *Thread, const pthread_attr_t *Attr,
               void *(*Fn)(void *), void *Arg) {
  if (orc_rt_Session_current() && !inExecutable(__builtin_return_address(0)))
    return orc_rt_ExecutorServices_pthread_create(Thread, Attr, Fn, Arg);
  return realPthreadCreate(Thread, Attr, Fn, Arg);
}
