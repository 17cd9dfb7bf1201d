/*===- orc-rt-c/ExecutorServices.h - Executor-side ORC services -*- C -*-===*\
|* Part of orc-rt-c. The services an ORC controller drives in this process:  *|
|* memory manager, dylib manager, shared-memory mapper, memory access, EH     *|
|* frames, GDB JIT registration and run-as-main, all owned by a Session.      *|
\*===----------------------------------------------------------------------===*/
/*
 * orc_rt_ExecutorServices_create registers the services on a Session. They are
 * reached by the controller through *bootstrap symbols*: named addresses of
 * wrapper functions (orc-rt-c/WrapperFunction.h) and of the services' instance
 * objects, which a transport advertises
 * (orc_rt_ExecutorServices_getBootstrapSymbols). The names and wire formats are
 * those of LLVM 22's SimpleExecutorMemoryManager, SimpleExecutorDylibManager,
 * ExecutorSharedMemoryMapperService and bootstrap wrappers.
 *
 * Session rules:
 *  - every entry into JIT'd code (run_as_main/void/int, a call to a JIT'd
 *    wrapper, an alloc action in JIT'd memory, a thread JIT'd code starts with
 *    pthread_create) holds a managed-code token of the Session
 *    (orc_rt_ExecutorServices_callJITCode); a denied entry yields an error
 *    result and never runs;
 *  - a release (memory manager or shared-memory mapper) that arrives while any
 *    such entry is live only forgets the slab: its dealloc actions and unmap
 *    are deferred until the Session's onShutdown, which runs after the
 *    managed-code drain;
 *  - onShutdown releases every remaining slab, running its dealloc actions
 *    (outside managed code: the drain has completed).
 * A wrapper that takes an instance acts on the live instance it names. The
 * instance-less ones (run_as_*) and the thread functions the dylib manager
 * hands JIT'd code act on the most recently created, still live
 * ExecutorServices of the process.
 *
 * Thread safety: every wrapper may be called concurrently from any thread.
 */

#ifndef ORC_RT_C_EXECUTORSERVICES_H
#define ORC_RT_C_EXECUTORSERVICES_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Error.h"
#include "orc-rt-c/Session.h"
#include "orc-rt-c/WrapperFunction.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

ORC_RT_C_EXTERN_C_BEGIN

typedef struct orc_rt_OpaqueExecutorServices *orc_rt_ExecutorServicesRef;

/** A named executor address advertised to the controller. */
typedef struct {
  const char *Name;
  uint64_t Addr;
} orc_rt_BootstrapSymbol;

/**
 * Creates the services and adds them to S (they are freed by S's onShutdown,
 * after the managed-code drain; ES stays valid until then). On error nothing is
 * registered.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_ExecutorServices_create(
    orc_rt_ExecutorServicesRef *ES, orc_rt_SessionRef S);

/** The Session the services belong to. */
ORC_RT_C_API orc_rt_SessionRef
orc_rt_ExecutorServices_getSession(orc_rt_ExecutorServicesRef ES);

/**
 * The bootstrap symbols of every service, plus any added with
 * addBootstrapSymbol. The array is owned by ES and valid until the next
 * addBootstrapSymbol.
 */
ORC_RT_C_API const orc_rt_BootstrapSymbol *
orc_rt_ExecutorServices_getBootstrapSymbols(orc_rt_ExecutorServicesRef ES,
                                            size_t *NumSymbols);

/** Adds (or replaces) a bootstrap symbol; Name is copied. */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_ExecutorServices_addBootstrapSymbol(
    orc_rt_ExecutorServicesRef ES, const char *Name, uint64_t Addr);

/**
 * True if Addr may be called as code: a service function, an address in a
 * segment the services themselves made executable for JIT'd code (from their
 * own allocation records, without reading the process map), or an address in
 * an executable mapping of the process (/proc/self/maps; if that cannot be
 * read: inside a loaded object, dladdr). Address 0 never is.
 */
ORC_RT_C_API bool
orc_rt_ExecutorServices_isCallable(orc_rt_ExecutorServicesRef ES,
                                   uint64_t Addr);

/**
 * Calls the wrapper function at Fn with the given argument bytes. A service
 * function is called directly; anything else is JIT'd code and is entered
 * through orc_rt_ExecutorServices_callJITCode (a denied entry or an uncallable
 * address yields an OOB error buffer).
 */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_ExecutorServices_callWrapper(orc_rt_ExecutorServicesRef ES, uint64_t Fn,
                                    const char *ArgData, size_t ArgSize);

/**
 * Runs Fn(Ctx) as JIT'd code of these services: under a managed-code token of
 * the Session (orc_rt_Session_callManagedCode), and counted as JIT'd code in
 * use for as long as it runs, so that a memory release arriving meanwhile keeps
 * the memory mapped until the shutdown drain. Use it, not the Session's call,
 * to enter code in memory these services manage. False (Fn not called) if the
 * token is denied.
 */
ORC_RT_C_API bool
orc_rt_ExecutorServices_callJITCode(orc_rt_ExecutorServicesRef ES,
                                    orc_rt_ManagedFn Fn, void *Ctx);

/** How orc_rt_ExecutorServices_callAsMainThread's Fn ended. */
typedef enum {
  /** Fn returned (or the exit was not caught: see below). */
  orc_rt_MainThread_Returned = 0,
  /** Fn ended its thread with pthread_exit / thrd_exit, and every thread JIT'd
   * code started has ended since. */
  orc_rt_MainThread_ThreadsEnded = 1,
  /** Fn ended its thread, and the Session detached (the controller has gone)
   * before the program's last thread ended; those threads may still run. */
  orc_rt_MainThread_Detached = 2,
} orc_rt_MainThreadEnd;

/**
 * Calls Fn(Ctx) as the main thread of a JIT'd program. If Fn ends the calling
 * thread with pthread_exit or thrd_exit, as a C main may, the unwind stops in
 * this call (after the cleanup handlers and destructors of Fn's frames have
 * run) and, as a native process lives on until its last thread has ended, the
 * call then waits until every thread that JIT'd code of the current services
 * started (orc_rt_ExecutorServices_pthread_create and the thread functions
 * the dylib manager hands JIT'd code) has ended, or until their Session
 * detaches. The calling thread must not be one of those threads.
 *
 * For code that runs a program's main on the controller's behalf inside
 * managed code of the current services (the run_as_main wrapper does the
 * same itself): an ORC platform runtime JIT-linked into the executor, or a
 * start module, finds it with dlsym(RTLD_DEFAULT,
 * "orc_rt_ExecutorServices_callAsMainThread") in an executor that exports the
 * runtime's symbols (orc-executor). Called outside managed code of the current
 * services it just calls Fn (an exit is not caught) and returns
 * orc_rt_MainThread_Returned.
 */
ORC_RT_C_API orc_rt_MainThreadEnd
orc_rt_ExecutorServices_callAsMainThread(void (*Fn)(void *), void *Ctx);

/** The type of orc_rt_ExecutorServices_callAsMainThread, for dlsym users. */
typedef orc_rt_MainThreadEnd (*orc_rt_CallAsMainThreadFn)(void (*)(void *),
                                                          void *);

/**
 * pthread_create for a thread that a library starts while the calling thread
 * runs JIT'd code of the most recent live services (libstdc++'s std::thread
 * calls libc's pthread_create, not the one JIT'd code is given): the body runs
 * as managed code of their Session and counts as JIT'd code in use until it
 * returns, as for JIT'd code's own pthread_create. An executor that interposes
 * pthread_create for its libraries calls this. Outside managed code of those
 * services it behaves like orc_rt_pthread_create.
 */
ORC_RT_C_API int
orc_rt_ExecutorServices_pthread_create(pthread_t *Thread,
                                       const pthread_attr_t *Attr,
                                       void *(*Start)(void *), void *Arg);

/**
 * The address of the last (oldest) entry in the GDB JIT interface's list
 * (__jit_debug_descriptor), or 0: what llvm-jitlink-executor's
 * test-jitloadergdb prints.
 */
ORC_RT_C_API uint64_t orc_rt_JITLoaderGDB_lastEntry(void);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_EXECUTORSERVICES_H */
