/*===- lib/jit/host/JitOver.h - A Jit over a JIT someone else owns --------===*/
/* orc-rt-c/Jit.h's Jit makes and owns its LLJIT. A loader that already has
 * one (mini-lli's dlopen of IR, program/IRDlopen.c: the program's LLJIT) makes
 * the same Jit over it instead, so that hosts and mini-lli share one loader:
 * modules, versions, fronts, groups, unloading and the exit order. What the
 * owner keeps is what it is told here: where names no module exports come
 * from, how a module is compiled and added, how its code is entered, where
 * its atexit handlers are kept and what its LLJIT's session reported. Such a
 * Jit compiles eagerly (no Lazy, no Tiered), does not reload (a module has
 * one version, whose stubs are its entries: no fronts) and, when the Session
 * shuts down, leaves the LLJIT and the modules' JITDylibs to their owner
 * (whose service must be older than the Jit's, so that it frees them after).
 *
 * Besides, what a dlopen needs and a host does not: modules visible to the
 * others only when the loader says so (RTLD_GLOBAL), a look-up among the
 * visible ones (dlsym(RTLD_DEFAULT)), whether a module is still bound by
 * another (glibc's reldeps: its dlclose to zero keeps it), and running an
 * atexit handler a module registered, found by its handle (at exit). */

#ifndef ORC_RT_C_LIB_JIT_HOST_JITOVER_H
#define ORC_RT_C_LIB_JIT_HOST_JITOVER_H

#include "jit/cache/ModuleCache.h"

#include "orc-rt-c/Jit.h"

#include <llvm-c/LLJIT.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* An atexit handler: Fn(Arg), or Fn() if NoArg. */
typedef struct {
  void (*Fn)(void *);
  void *Arg;
  bool NoArg;
} orc_rt_jit_AtexitHandler;

typedef struct {
  LLVMOrcLLJITRef LLJIT; /* never disposed here */
  /* The owner's recursive lock around its loads and unloads: the Jit takes
   * it as its own (for its loads, unloads and the Session's detach), so that
   * a destructor that calls back into the owner takes no lock in the other
   * order. */
  pthread_mutex_t *Lock;
  /* Where the names no loaded module exports are looked up. */
  LLVMOrcJITDylibRef Fallback;
  /* How modules are compiled (CodegenSettings, Passes, Dir and the calls;
   * Ctx is passed to them); Prepare is the Jit's own. */
  orc_rt_jit_ModuleCompiler Compile;
  /* Adds objects to JD (takes the buffers); looks N names up in JD. */
  orc_rt_ErrorRef (*AddObjects)(LLVMOrcJITDylibRef JD,
                                const LLVMMemoryBufferRef *Objects, size_t N,
                                void *Ctx);
  orc_rt_ErrorRef (*Lookup)(LLVMOrcJITDylibRef JD, const char *const *Names,
                            size_t N, uint64_t *Addrs, void *Ctx);
  /* What the LLJIT's session reported since the last call (the cause of a
   * failed link), malloc'd; NULL if nothing. */
  char *(*TakeSessionErrors)(void *Ctx);
  /* Runs Body(BodyCtx) -- a module's constructor, destructor or atexit
   * handler at Addr, What naming it -- as the owner runs JIT'd code; false
   * if it refuses (Body did not run). */
  bool (*Enter)(const char *What, uint64_t Addr, void (*Body)(void *),
                void *BodyCtx, void *Ctx);
  /* Takes the newest atexit handler registered with the handle Dso (JIT'd
   * code's __cxa_atexit is the owner's); false if none is left. */
  bool (*PopHandler)(void *Dso, orc_rt_jit_AtexitHandler *H, void *Ctx);
  /* M is linked and listed, its constructors not yet run; NULL: nothing.
   * A dlopen of the same file from one of them then finds it, as glibc's
   * link map does (one copy, its constructors run once). */
  void (*OnLinked)(orc_rt_JitModuleRef M, void *Ctx);
  /* The Jit is about to be freed (the Session's shutdown, after the drain):
   * nothing may use it or its modules from the start of this call. */
  void (*OnGone)(void *Ctx);
  void *Ctx;
} orc_rt_jit_JitOwner;

/* Makes a Jit over Owner's LLJIT, owned by S as orc_rt_Jit_create's. A call
 * to an unloaded module's function is reported by modules/ModuleStubs.h's
 * default (mini-lli's line) unless a handler is set. */
orc_rt_ErrorRef orc_rt_jit_Jit_createOver(orc_rt_JitRef *Result,
                                          orc_rt_SessionRef S,
                                          const orc_rt_jit_JitOwner *Owner);

/* Whether M's exports resolve other modules' names and are found by
 * orc_rt_jit_Jit_findGlobal (orc_rt_Jit_load* makes modules visible; a
 * loader of RTLD_LOCAL ones hides them first). Any thread. */
void orc_rt_jit_JitModule_setVisible(orc_rt_JitModuleRef M, bool Visible);

/* A visible module's export Name (a function's entry; the oldest module
 * wins, as among RTLD_GLOBAL libraries); false if none has it. */
bool orc_rt_jit_Jit_findGlobal(orc_rt_JitRef J, const char *Name,
                               uint64_t *Addr);

/* Another loaded module bound symbols from M: unloading it now would only
 * mark it (orc_rt_JitModule_unload). */
bool orc_rt_jit_JitModule_isNeeded(orc_rt_JitModuleRef M);

/* Runs H if a loaded module registered it (Dso is its handle), under that
 * module's token and Owner's Enter; false if it is no loaded module's. */
bool orc_rt_jit_Jit_runHandlerOf(orc_rt_JitRef J, const void *Dso,
                                 const orc_rt_jit_AtexitHandler *H);

#endif
