/*===- lib/services/AllocAction.h - Finalize and dealloc actions ----------===*/
/* Decoding of AllocActionCallPair lists and the finalize / rollback / dealloc
 * rules the memory services share (LLVM's runFinalizeActions /
 * runDeallocActions). Actions are wrapper functions, entered through the
 * services object (ExecutorServices.h). */

#ifndef ORC_RT_C_LIB_SERVICES_ALLOCACTION_H
#define ORC_RT_C_LIB_SERVICES_ALLOCACTION_H

#include "services/ExecutorServices.h"

#include "orc-rt-c/SPS.h"

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

/* Runs L's calls in reverse, entering JIT'd code as Mode says, and frees L.
 * Returns the joined errors. */
orc_rt_ErrorRef
orc_rt_internal_runDeallocActions(orc_rt_ExecutorServicesRef ES,
                                  orc_rt_internal_WFCallList *L,
                                  orc_rt_internal_CallMode Mode);

void orc_rt_internal_freeCallList(orc_rt_internal_WFCallList *L);

/* Appends a WFCall (copying Args) to L. False if out of memory. */
bool orc_rt_internal_appendCall(orc_rt_internal_WFCallList *L,
                                const orc_rt_internal_WFCall *C);

#endif
