/*===- lib/services/ExecutorServices.h - The services object, for services ===*/
/* What a service needs from the ExecutorServices object it belongs to, and
 * nothing about any one service. ServiceList.c builds the object from a list of
 * adders; each adder (one per service, declared in the service's own header)
 * gives the object what the controller must see and what must
 * happen at shutdown:
 *
 *   addFunctions   the service's wrapper functions, advertised as bootstrap
 *                  symbols (and known as service functions, not JIT'd code)
 *   addInstance    an instance object: advertised under its name, shut down
 *                  after the managed-code drain (newest first, as Session
 *                  services are), asked whether an address is code it
 *                  mapped executable for JIT'd code
 *   addInterposer  a process symbol JIT'd code gets the runtime's version of
 *
 * Every service enters JIT'd code through this object (callWrapper below, or
 * the public orc_rt_ExecutorServices_callJITCode), so the count of JIT'd code
 * in use, which gates releases, lives here too. */

#ifndef ORC_RT_C_LIB_SERVICES_EXECUTORSERVICES_H
#define ORC_RT_C_LIB_SERVICES_EXECUTORSERVICES_H

#include "services/ServiceWire.h"

#include "orc-rt-c/ExecutorServices.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*---- Building the object ----*/

/* Adds one service to ES. On error the service has freed whatever it did not
 * hand to ES; what it did hand over is shut down with ES. */
typedef orc_rt_ErrorRef (*orc_rt_internal_ServiceAdder)(
    orc_rt_ExecutorServicesRef ES);

/* Creates the object, runs Adders in order and registers the object on S (one
 * Session service). On error nothing is registered and everything added is
 * shut down again. */
orc_rt_ErrorRef orc_rt_internal_ExecutorServices_create(
    orc_rt_ExecutorServicesRef *Result, orc_rt_SessionRef S,
    const orc_rt_internal_ServiceAdder *Adders, size_t NumAdders);

/* A wrapper function under its bootstrap name. */
typedef struct {
  const char *Name;
  orc_rt_WrapperFunctionFn Fn;
} orc_rt_internal_ServiceFn;

/* Advertises Fns (a static table: kept, not copied) as bootstrap symbols. */
orc_rt_ErrorRef orc_rt_internal_ExecutorServices_addFunctions(
    orc_rt_ExecutorServicesRef ES, const orc_rt_internal_ServiceFn *Fns,
    size_t NumFns);

typedef struct {
  /* The set the instance is listed in while it is live (what readInstance
   * checks a request's instance against). May be NULL. */
  orc_rt_internal_InstanceSet *Set;
  /* After the managed-code drain (no JIT'd code runs, no token is granted), or
   * when create fails: release everything and free the instance. */
  void (*shutdown)(void *Instance);
  /* True if Addr lies in a segment the instance has made executable for
   * JIT'd code (an orc_rt_internal_CodeRanges it keeps): isCallable asks this
   * before it reads the process map. May be NULL. */
  bool (*isCode)(void *Instance, uint64_t Addr);
} orc_rt_internal_InstanceVTable;

/* The executable segments an instance mapped: [Start, End) each, unsorted.
 * The instance guards its lists with its own lock. */
typedef struct {
  uint64_t (*Ranges)[2];
  size_t Num;
} orc_rt_internal_CodeRanges;

/* Records [Start, Start+Size); false if out of memory (the caller then lets
 * isCallable read the process map for that segment). */
bool orc_rt_internal_CodeRanges_add(orc_rt_internal_CodeRanges *C,
                                    uint64_t Start, uint64_t Size);
/* Drops every range that overlaps [Start, Start+Size). */
void orc_rt_internal_CodeRanges_remove(orc_rt_internal_CodeRanges *C,
                                       uint64_t Start, uint64_t Size);
bool orc_rt_internal_CodeRanges_contain(const orc_rt_internal_CodeRanges *C,
                                        uint64_t Addr);
void orc_rt_internal_CodeRanges_clear(orc_rt_internal_CodeRanges *C);

/* Hands Instance to ES, lists it in VT->Set and advertises its address as the
 * bootstrap symbol Name (if not NULL). ES owns Instance from here on: on error
 * it has already been shut down. */
orc_rt_ErrorRef orc_rt_internal_ExecutorServices_addInstance(
    orc_rt_ExecutorServicesRef ES, const char *Name,
    const orc_rt_internal_InstanceVTable *VT, void *Instance);

/* JIT'd code that looks up Name in the process gets Fn instead. Name must
 * outlive ES (a string literal). */
orc_rt_ErrorRef
orc_rt_internal_ExecutorServices_addInterposer(orc_rt_ExecutorServicesRef ES,
                                               const char *Name, void *Fn);

/* The interposer added for Name, or NULL. */
void *
orc_rt_internal_ExecutorServices_findInterposer(orc_rt_ExecutorServicesRef ES,
                                                const char *Name);

/* The services the instance-less wrappers (run_as_*, the thread interposers)
 * act on: the most recently created, still live ones (NULL if none). */
orc_rt_ExecutorServicesRef orc_rt_internal_ExecutorServices_current(void);

/*---- Entering JIT'd code ----*/

typedef enum {
  /* Under a managed-code token of the Session, counted as JIT'd code in use;
   * denied (an error result) once shutdown has been requested. */
  orc_rt_internal_CallMode_UnderToken,
  /* Directly: only after the managed-code drain, when tokens are no longer
   * granted but no JIT'd code can run either (the instances' shutdown). */
  orc_rt_internal_CallMode_AfterDrain,
} orc_rt_internal_CallMode;

/* Calls one wrapper: a service function directly, JIT'd code as Mode says.
 * An address that is not code in this process is an error result. */
orc_rt_CWrapperFunctionBuffer orc_rt_internal_ExecutorServices_callWrapper(
    orc_rt_ExecutorServicesRef ES, uint64_t Fn, const char *Args,
    size_t ArgSize, orc_rt_internal_CallMode Mode);

/* Calls Fn(Ctx) as orc_rt_ExecutorServices_callJITCode does, and catches a
 * pthread_exit / thrd_exit with which Fn ends the thread (after the cleanup
 * handlers and destructors of its frames have run), so the token is given back
 * and the calling thread goes on. */
typedef enum {
  orc_rt_internal_Entry_Returned,
  orc_rt_internal_Entry_Denied, /* Fn not called: shutdown was requested */
  orc_rt_internal_Entry_ExitedThread,
} orc_rt_internal_Entry;
orc_rt_internal_Entry
orc_rt_internal_ExecutorServices_enterJITCode(orc_rt_ExecutorServicesRef ES,
                                              orc_rt_ManagedFn Fn, void *Ctx);

/* Calls Fn(Ctx); false if Fn ended the thread with pthread_exit / thrd_exit
 * (caught here, after every cleanup handler and destructor of Fn's frames has
 * run). No token is taken. */
bool orc_rt_internal_callCatchingExit(void (*Fn)(void *), void *Ctx);

/*---- Threads JIT'd code started ----*/

/* Counts the threads JIT'd code started (ManagedThreads.c) whose body has not
 * ended: raised by the creator before the thread exists, dropped when the body
 * has returned or left by pthread_exit, or when creation failed. A thread
 * whose entry is denied (only once shutdown has been requested) stays counted.
 * The executor's own threads never count. */
void orc_rt_internal_ExecutorServices_threadStarted(
    orc_rt_ExecutorServicesRef ES);
void orc_rt_internal_ExecutorServices_threadEnded(
    orc_rt_ExecutorServicesRef ES);

/* Waits until no counted thread is left (true), or until the Session has
 * detached (false: the controller has gone or shutdown was requested, so the
 * caller must not keep its token for a wait that may never end). What a main
 * that ended with pthread_exit does before it is answered: natively the
 * process lives on until its last thread has ended. Never call it from a
 * counted thread (it would wait for itself). */
bool orc_rt_internal_ExecutorServices_waitForThreads(
    orc_rt_ExecutorServicesRef ES);

/*---- JIT'd code in use: the release gate ----*/

/* Counts JIT'd code entered through these services that may still be running:
 * raised before an entry takes its token, dropped after the token is returned.
 * A memory release that finds the count raised must keep the memory mapped
 * until the drain (the code may be running from it). */
void orc_rt_internal_ExecutorServices_beginCodeUse(
    orc_rt_ExecutorServicesRef ES);
void orc_rt_internal_ExecutorServices_endCodeUse(orc_rt_ExecutorServicesRef ES);
bool orc_rt_internal_ExecutorServices_isCodeInUse(
    orc_rt_ExecutorServicesRef ES);

#endif
