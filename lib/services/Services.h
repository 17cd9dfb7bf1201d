/*===- lib/services/Services.h - Executor services internals --------------===*/
/* The ExecutorServices object and the pieces the individual service files
 * share: alloc-action lists, the per-service wrapper tables and the
 * instance-less lookup. */

#ifndef ORC_RT_C_LIB_SERVICES_SERVICES_H
#define ORC_RT_C_LIB_SERVICES_SERVICES_H

#include "orc-rt-c/ExecutorServices.h"
#include "orc-rt-c/SPS.h"

#include <pthread.h>
#include <stdatomic.h>

/*---- Alloc actions (AllocAction.c) ----*/

/* A WrapperFunctionCall: Fn(Args). Args is owned (malloc'd) when it outlives
 * the request that carried it (dealloc actions). */
typedef struct {
  uint64_t Fn;
  char *Args;
  size_t ArgSize;
} orc_rt_internal_WFCall;

typedef struct {
  orc_rt_internal_WFCall *Calls;
  size_t Size;
} orc_rt_internal_WFCallList;

/* Decodes Sequence<AllocActionCallPair> into two parallel lists (views into the
 * input, not owned). Returns false on malformed input. */
bool orc_rt_internal_readActions(orc_rt_SPSReader *R,
                                 orc_rt_internal_WFCallList *Fin,
                                 orc_rt_internal_WFCallList *Dealloc);

/* Frees the arrays readActions made (their Args are views: not freed). */
void orc_rt_internal_freeViewLists(orc_rt_internal_WFCallList *Fin,
                                   orc_rt_internal_WFCallList *Dealloc);

/* Runs the finalize actions in order (JIT'd ones under a managed-code token).
 * On success *Out holds owned copies of the dealloc actions of every finalize
 * action and NULL is returned. If action k fails, the dealloc actions of 0..k-1
 * run in reverse and the joined error is returned. */
orc_rt_ErrorRef orc_rt_internal_runFinalizeActions(
    orc_rt_ExecutorServicesRef ES, const orc_rt_internal_WFCallList *Fin,
    const orc_rt_internal_WFCallList *Dealloc, orc_rt_internal_WFCallList *Out);

/* Runs L's calls in reverse and frees L. Managed: enter JIT'd code with a token
 * (false at shutdown, after the drain, when tokens are no longer granted but
 * nothing else can run either). Returns the joined errors. */
orc_rt_ErrorRef orc_rt_internal_runDeallocActions(orc_rt_ExecutorServicesRef ES,
                                                  orc_rt_internal_WFCallList *L,
                                                  bool Managed);

void orc_rt_internal_freeCallList(orc_rt_internal_WFCallList *L);

/* Appends a WFCall (copying Args) to L. False if out of memory. */
bool orc_rt_internal_appendCall(orc_rt_internal_WFCallList *L,
                                const orc_rt_internal_WFCall *C);

/* Calls one wrapper: a service function directly, JIT'd code through
 * callManaged unless !Managed. */
orc_rt_CWrapperFunctionBuffer
orc_rt_internal_callWrapper(orc_rt_ExecutorServicesRef ES, uint64_t Fn,
                            const char *Args, size_t ArgSize, bool Managed);

/*---- Services (one file each) ----*/

typedef struct orc_rt_internal_MemoryManager orc_rt_internal_MemoryManager;
typedef struct orc_rt_internal_SharedMemoryMapper
    orc_rt_internal_SharedMemoryMapper;
typedef struct orc_rt_internal_DylibManager orc_rt_internal_DylibManager;

orc_rt_internal_MemoryManager *
orc_rt_internal_MemoryManager_create(orc_rt_ExecutorServicesRef ES);
/* Releases every slab (and deferred release), running dealloc actions
 * unmanaged. */
void orc_rt_internal_MemoryManager_shutdown(orc_rt_internal_MemoryManager *MM);
bool orc_rt_internal_MemoryManager_contains(orc_rt_internal_MemoryManager *MM,
                                            uint64_t Addr);

orc_rt_internal_SharedMemoryMapper *
orc_rt_internal_SharedMemoryMapper_create(orc_rt_ExecutorServicesRef ES);
void orc_rt_internal_SharedMemoryMapper_shutdown(
    orc_rt_internal_SharedMemoryMapper *SM);
bool orc_rt_internal_SharedMemoryMapper_contains(
    orc_rt_internal_SharedMemoryMapper *SM, uint64_t Addr);

orc_rt_internal_DylibManager *orc_rt_internal_DylibManager_create(void);
void orc_rt_internal_DylibManager_destroy(orc_rt_internal_DylibManager *DM);

/* Wrapper functions, by service. */
orc_rt_CWrapperFunctionBuffer orc_rt_internal_MM_reserve(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_MM_initialize(const char *,
                                                            size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_MM_deinitialize(const char *,
                                                              size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_MM_release(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_SM_reserve(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_SM_initialize(const char *,
                                                            size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_SM_deinitialize(const char *,
                                                              size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_SM_release(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_DM_open(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_DM_resolve(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_runAsMain(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_runAsVoid(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_runAsInt(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteU8s(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteU16s(const char *,
                                                           size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteU32s(const char *,
                                                           size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteU64s(const char *,
                                                           size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWritePointers(const char *,
                                                               size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteBuffers(const char *,
                                                              size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadU8s(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadU16s(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadU32s(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadU64s(const char *, size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadPointers(const char *,
                                                              size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadBuffers(const char *,
                                                             size_t);
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadStrings(const char *,
                                                             size_t);

/*---- The services object (ExecutorServices.c) ----*/

struct orc_rt_OpaqueExecutorServices {
  orc_rt_SessionRef S;
  atomic_long
      LiveEntries; /* entries into JIT'd code now running (see callManaged) */
  orc_rt_internal_MemoryManager *MM;
  orc_rt_internal_SharedMemoryMapper *SM;
  orc_rt_internal_DylibManager *DM;
  pthread_mutex_t SymLock; /* guards Syms and Starts */
  struct CountedStart
      *Starts; /* threads JIT'd code created that have not entered yet */
  orc_rt_BootstrapSymbol *Syms;
  size_t NumSyms;
};

/* Frees the start records of threads JIT'd code created whose entry was denied
 * (ManagedThreads.c). Only after the drain. */
void orc_rt_internal_freeUnstartedThreads(orc_rt_ExecutorServicesRef ES);

/* The services the instance-less wrappers act on (NULL if none is live). */
orc_rt_ExecutorServicesRef orc_rt_internal_currentServices(void);

/* Decodes a service wrapper's leading "Addr Inst" argument and returns
 * Expected if Inst names it (the instance this process advertised); otherwise
 * marks R failed and returns NULL. Expected may be NULL (no live services). */
void *orc_rt_internal_readInstance(orc_rt_SPSReader *R, void *Expected);

/* The error every wrapper returns for undecodable arguments (as an OOB error).
 */
#define ORC_RT_BAD_ARGS_MSG                                                    \
  "Could not deserialize arguments for wrapper function call"
orc_rt_CWrapperFunctionBuffer orc_rt_internal_badArgs(void);

#endif
