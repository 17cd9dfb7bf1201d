/*===- lib/platform/AtExit.c - atexit, __cxa_atexit, __cxa_finalize ------===*/
/*
 * The controller aliases JIT'd code's atexit and __cxa_atexit to these. As in
 * glibc, one list holds every handler, newest last, each tagged with the
 * header (__dso_handle) of the JITDylib it belongs to:
 *
 *   __cxa_atexit(F, Arg, D)  D is the registering JITDylib's __dso_handle
 *   atexit(F)                has no handle: the JITDylib whose code this thread
 *                            is running (initializers, main under
 *                            run_program; JITDylibs.c and Dlfcn.c say which),
 *                            else the program's JITDylib (the first one
 *                            opened from outside), else the platform JITDylib
 *
 * This file knows JITDylibs only by those header addresses: JITDylibs.c runs
 * a JITDylib's handlers at its last dlclose (runAtExits) and orphans them when
 * the controller deregisters it.
 *
 * A JITDylib's handlers run newest first at its last dlclose; whatever is left
 * runs newest first at program end: exit() from JIT'd code, the executor's
 * own exit, or platform shutdown, whichever comes first. That last part is a
 * hook registered with the process's real __cxa_atexit (found with dlsym: in
 * the platform JITDylib the name __cxa_atexit is our alias) under a handle of
 * our own, so shutdown can run and remove it with the real __cxa_finalize
 * before this code's memory is released.
 */

#include "AtExit.h"

#include <dlfcn.h>
#include <stdlib.h>

static void lock(void) { pthread_mutex_lock(&orc_rt_platform_TheState.Mutex); }
static void unlock(void) {
  pthread_mutex_unlock(&orc_rt_platform_TheState.Mutex);
}

static int addAtExit(void (*Fn)(void *), void *Arg, void *DSO) {
  orc_rt_platform_State *S = &orc_rt_platform_TheState;
  lock();
  if (S->NumAtExits == S->CapAtExits) {
    size_t Cap = S->CapAtExits ? S->CapAtExits * 2 : 16;
    orc_rt_platform_AtExit *New = realloc(S->AtExits, Cap * sizeof(*New));
    if (!New) {
      unlock();
      return -1;
    }
    S->AtExits = New;
    S->CapAtExits = Cap;
  }
  S->AtExits[S->NumAtExits].Fn = Fn;
  S->AtExits[S->NumAtExits].Arg = Arg;
  S->AtExits[S->NumAtExits].DSO = DSO;
  ++S->NumAtExits;
  unlock();
  return 0;
}

void orc_rt_platform_runAtExits(void *DSO) {
  orc_rt_platform_State *S = &orc_rt_platform_TheState;
  for (;;) {
    lock();
    size_t I = S->NumAtExits;
    while (I > 0 && DSO && S->AtExits[I - 1].DSO != DSO)
      --I;
    if (I == 0) {
      /* An empty list holds no memory: at program end nothing may be left
       * that only this image's globals point to (a leak checker does not
       * scan JIT'd memory). */
      if (S->NumAtExits == 0) {
        free(S->AtExits);
        S->AtExits = NULL;
        S->CapAtExits = 0;
      }
      unlock();
      return;
    }
    orc_rt_platform_AtExit E = S->AtExits[I - 1];
    for (; I < S->NumAtExits; ++I)
      S->AtExits[I - 1] = S->AtExits[I];
    --S->NumAtExits;
    unlock();
    /* A handler may register more handlers or dlclose: the
     * next round rescans. */
    E.Fn(E.Arg);
  }
}

void orc_rt_platform_orphanAtExits(void *DSO) {
  orc_rt_platform_State *S = &orc_rt_platform_TheState;
  for (size_t I = 0; I < S->NumAtExits; ++I)
    if (S->AtExits[I].DSO == DSO)
      S->AtExits[I].DSO = NULL;
}

void *orc_rt_platform_atExitOwner(void) {
  return pthread_getspecific(orc_rt_platform_TheState.AtExitOwnerKey);
}

void orc_rt_platform_setAtExitOwner(void *DSO) {
  pthread_setspecific(orc_rt_platform_TheState.AtExitOwnerKey, DSO);
}

/* Whom a handler registered without a handle belongs to. */
static void *defaultOwner(void) {
  void *DSO = orc_rt_platform_atExitOwner();
  if (DSO)
    return DSO;
  lock();
  DSO = orc_rt_platform_TheState.ProgramHeader;
  if (!DSO)
    DSO = orc_rt_platform_TheState.PlatformHeader;
  unlock();
  return DSO;
}

ORC_RT_PLATFORM_API int __orc_rt_elfnix_cxa_atexit(void (*Fn)(void *),
                                                   void *Arg, void *DSOHandle) {
  return addAtExit(Fn, Arg, DSOHandle ? DSOHandle : defaultOwner());
}

static void callNoArg(void *Fn) { ((void (*)(void))(uintptr_t)Fn)(); }

ORC_RT_PLATFORM_API int __orc_rt_elfnix_atexit(void (*Fn)(void)) {
  return addAtExit(callNoArg, (void *)(uintptr_t)Fn, defaultOwner());
}

/* glibc's __cxa_finalize(NULL) runs every handler, (D) those of D. */
ORC_RT_PLATFORM_API void __orc_rt_elfnix_cxa_finalize(void *DSOHandle) {
  orc_rt_platform_runAtExits(DSOHandle);
}

/*---- Program end ----*/

typedef int (*CxaAtExitFn)(void (*)(void *), void *, void *);
typedef void (*CxaFinalizeFn)(void *);

static char ExitHookHandle; /* our "DSO handle" in the process's lists */

void *orc_rt_platform_exitHookHandle(void) { return &ExitHookHandle; }
static CxaFinalizeFn RealCxaFinalize;

static void exitHook(void *Unused) {
  (void)Unused;
  orc_rt_platform_runAtExits(NULL);
}

void orc_rt_platform_installExitHook(void) {
  CxaAtExitFn RealCxaAtExit =
      (CxaAtExitFn)(uintptr_t)dlsym(RTLD_DEFAULT, "__cxa_atexit");
  RealCxaFinalize =
      (CxaFinalizeFn)(uintptr_t)dlsym(RTLD_DEFAULT, "__cxa_finalize");
  /* Without both, handlers left at program end run at platform shutdown
   * only (a libc without them is not one we know). */
  if (!RealCxaAtExit || !RealCxaFinalize ||
      RealCxaAtExit(exitHook, NULL, &ExitHookHandle) != 0)
    RealCxaFinalize = NULL;
}

void orc_rt_platform_removeExitHook(void) {
  if (RealCxaFinalize)
    RealCxaFinalize(&ExitHookHandle); /* runs exitHook once, unlinks it, and
                                         drops pthread_atfork handlers
                                         registered under the handle */
  else
    exitHook(NULL);
  RealCxaFinalize = NULL;
}
