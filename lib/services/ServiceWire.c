/*===- lib/services/ServiceWire.c - What every service's wire code shares -===*/

#include "services/ServiceWire.h"
#include "support/FaultInjection.h"

#include <stdlib.h>

orc_rt_CWrapperFunctionBuffer orc_rt_internal_badArgs(void) {
  return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(ORC_RT_BAD_ARGS_MSG);
}

bool orc_rt_internal_readAddrs(orc_rt_SPSReader *R, uint64_t **Addrs,
                               size_t *Num) {
  uint64_t N;
  *Addrs = NULL;
  if (!orc_rt_SPSReader_readCount(R, &N, 8))
    return false;
  *Addrs = malloc((N ? (size_t)N : 1) * sizeof(uint64_t));
  if (!*Addrs)
    return false;
  for (uint64_t I = 0; I < N; ++I)
    orc_rt_SPSReader_readAddr(R, &(*Addrs)[I]);
  *Num = (size_t)N;
  return !R->Failed;
}

bool orc_rt_internal_InstanceSet_add(orc_rt_internal_InstanceSet *Set,
                                     void *P) {
  pthread_mutex_lock(&Set->Lock);
  void **N = orc_rt_internal_realloc(Set->Items, (Set->Size + 1) * sizeof(*N));
  if (N) {
    Set->Items = N;
    Set->Items[Set->Size++] = P;
  }
  pthread_mutex_unlock(&Set->Lock);
  return N != NULL;
}

void orc_rt_internal_InstanceSet_remove(orc_rt_internal_InstanceSet *Set,
                                        void *P) {
  pthread_mutex_lock(&Set->Lock);
  for (size_t I = 0; I < Set->Size; ++I)
    if (Set->Items[I] == P) {
      Set->Items[I] = Set->Items[--Set->Size];
      break;
    }
  if (Set->Size == 0) {
    free(Set->Items);
    Set->Items = NULL;
  }
  pthread_mutex_unlock(&Set->Lock);
}

void *orc_rt_internal_InstanceSet_find(orc_rt_internal_InstanceSet *Set,
                                       uint64_t Addr) {
  void *Found = NULL;
  pthread_mutex_lock(&Set->Lock);
  for (size_t I = 0; I < Set->Size && !Found; ++I)
    if ((uint64_t)(uintptr_t)Set->Items[I] == Addr)
      Found = Set->Items[I];
  pthread_mutex_unlock(&Set->Lock);
  return Found;
}

void *orc_rt_internal_readInstance(orc_rt_SPSReader *R,
                                   orc_rt_internal_InstanceSet *Set) {
  uint64_t Inst;
  if (!orc_rt_SPSReader_readAddr(R, &Inst))
    return NULL;
  void *P = orc_rt_internal_InstanceSet_find(Set, Inst);
  if (!P)
    R->Failed = true;
  return P;
}
