/*===- lib/services/AllocAction.c - Finalize and dealloc actions ----------===*/

#include "services/AllocAction.h"
#include "support/FaultInjection.h"

#include <stdlib.h>
#include <string.h>

static bool readCall(orc_rt_SPSReader *R, orc_rt_internal_WFCall *C) {
  const char *Args;
  size_t Size;
  if (!orc_rt_SPSReader_readAddr(R, &C->Fn) ||
      !orc_rt_SPSReader_readBytes(R, &Args, &Size))
    return false;
  C->Args = (char *)Args; /* a view; copied by appendCall when kept */
  C->ArgSize = Size;
  return true;
}

bool orc_rt_internal_readActions(orc_rt_SPSReader *R,
                                 orc_rt_internal_WFCallList *Fin,
                                 orc_rt_internal_WFCallList *Dealloc) {
  Fin->Calls = Dealloc->Calls = NULL;
  Fin->Size = Dealloc->Size = 0;
  uint64_t N;
  /* A pair is at least two (addr, empty args) calls: 32 bytes. */
  if (!orc_rt_SPSReader_readCount(R, &N, 32))
    return false;
  if (N == 0)
    return true;
  Fin->Calls =
      orc_rt_internal_calloc((size_t)N, sizeof(orc_rt_internal_WFCall));
  Dealloc->Calls =
      orc_rt_internal_calloc((size_t)N, sizeof(orc_rt_internal_WFCall));
  if (!Fin->Calls || !Dealloc->Calls) {
    free(Fin->Calls);
    free(Dealloc->Calls);
    Fin->Calls = Dealloc->Calls = NULL;
    R->Failed = true;
    return false;
  }
  for (uint64_t I = 0; I < N; ++I)
    if (!readCall(R, &Fin->Calls[I]) || !readCall(R, &Dealloc->Calls[I])) {
      free(Fin->Calls);
      free(Dealloc->Calls);
      Fin->Calls = Dealloc->Calls = NULL;
      return false;
    }
  Fin->Size = Dealloc->Size = (size_t)N;
  return true;
}

void orc_rt_internal_freeViewLists(orc_rt_internal_WFCallList *Fin,
                                   orc_rt_internal_WFCallList *Dealloc) {
  free(Fin->Calls);
  free(Dealloc->Calls);
  Fin->Calls = Dealloc->Calls = NULL;
  Fin->Size = Dealloc->Size = 0;
}

void orc_rt_internal_freeCallList(orc_rt_internal_WFCallList *L) {
  for (size_t I = 0; I < L->Size; ++I)
    free(L->Calls[I].Args);
  free(L->Calls);
  L->Calls = NULL;
  L->Size = 0;
}

bool orc_rt_internal_appendCall(orc_rt_internal_WFCallList *L,
                                const orc_rt_internal_WFCall *C) {
  orc_rt_internal_WFCall *N =
      orc_rt_internal_realloc(L->Calls, (L->Size + 1) * sizeof(*N));
  if (!N)
    return false;
  L->Calls = N;
  char *Args = orc_rt_internal_malloc(C->ArgSize ? C->ArgSize : 1);
  if (!Args)
    return false;
  if (C->ArgSize)
    memcpy(Args, C->Args, C->ArgSize);
  L->Calls[L->Size++] = (orc_rt_internal_WFCall){C->Fn, Args, C->ArgSize};
  return true;
}

/* Runs one action and decodes its SPSError result. */
static orc_rt_ErrorRef runAction(orc_rt_ExecutorServicesRef ES,
                                 const orc_rt_internal_WFCall *C,
                                 orc_rt_internal_CallMode Mode) {
  orc_rt_CWrapperFunctionBuffer B =
      orc_rt_internal_ExecutorServices_callWrapper(ES, C->Fn, C->Args,
                                                   C->ArgSize, Mode);
  return orc_rt_SPS_takeErrorResult(&B);
}

orc_rt_ErrorRef
orc_rt_internal_runDeallocActions(orc_rt_ExecutorServicesRef ES,
                                  orc_rt_internal_WFCallList *L,
                                  orc_rt_internal_CallMode Mode) {
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = L->Size; I-- > 0;)
    if (L->Calls[I].Fn)
      Err = orc_rt_Error_join(Err, runAction(ES, &L->Calls[I], Mode));
  orc_rt_internal_freeCallList(L);
  return Err;
}

orc_rt_ErrorRef
orc_rt_internal_runFinalizeActions(orc_rt_ExecutorServicesRef ES,
                                   const orc_rt_internal_WFCallList *Fin,
                                   const orc_rt_internal_WFCallList *Dealloc,
                                   orc_rt_internal_WFCallList *Out) {
  orc_rt_internal_WFCallList Kept = {NULL, 0};
  for (size_t I = 0; I < Fin->Size; ++I) {
    orc_rt_ErrorRef Err = NULL;
    if (Fin->Calls[I].Fn)
      Err = runAction(ES, &Fin->Calls[I], orc_rt_internal_CallMode_UnderToken);
    if (!Err && Dealloc->Calls[I].Fn &&
        !orc_rt_internal_appendCall(&Kept, &Dealloc->Calls[I]))
      /* Action I ran but its dealloc could not be recorded: run it now, before
       * the earlier ones (newest first), so no finalized action is left
       * without its undo. */
      Err = orc_rt_Error_join(
          orc_rt_Error_create("out of memory recording a dealloc action"),
          runAction(ES, &Dealloc->Calls[I],
                    orc_rt_internal_CallMode_UnderToken));
    if (Err)
      return orc_rt_Error_join(
          Err, orc_rt_internal_runDeallocActions(
                   ES, &Kept, orc_rt_internal_CallMode_UnderToken));
  }
  *Out = Kept;
  return NULL;
}
