/*===- lib/support/FaultInjection.c - Counter-driven fault injection ------===*/

#include "support/FaultInjection.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct {
  atomic_bool Armed;
  atomic_long Calls;
  long FailAt;
  bool Sticky;
} Injector;

static Injector Injectors[orc_rt_internal_Fault_NumKinds];

void orc_rt_internal_FaultInjector_arm(orc_rt_internal_FaultKind K, long FailAt,
                                       bool Sticky) {
  Injector *I = &Injectors[K];
  atomic_store(&I->Armed, false);
  atomic_store(&I->Calls, 0);
  I->FailAt = FailAt;
  I->Sticky = Sticky;
  /* seq_cst store: publishes FailAt/Sticky to any thread that sees Armed
   * (pairs with the load in orc_rt_internal_FaultInjector_fail). Tests
   * arm between scenarios. */
  atomic_store(&I->Armed, FailAt >= 0);
}

long orc_rt_internal_FaultInjector_calls(orc_rt_internal_FaultKind K) {
  return atomic_load(&Injectors[K].Calls);
}

bool orc_rt_internal_FaultInjector_fail(orc_rt_internal_FaultKind K) {
  Injector *I = &Injectors[K];
  if (!atomic_load_explicit(&I->Armed, memory_order_acquire))
    return false;
  long N = atomic_fetch_add(&I->Calls, 1);
  return N == I->FailAt || (I->Sticky && N > I->FailAt);
}

void *orc_rt_internal_malloc(size_t Size) {
  return orc_rt_internal_FaultInjector_fail(orc_rt_internal_Fault_Alloc)
             ? NULL
             : malloc(Size);
}

void *orc_rt_internal_calloc(size_t N, size_t Size) {
  return orc_rt_internal_FaultInjector_fail(orc_rt_internal_Fault_Alloc)
             ? NULL
             : calloc(N, Size);
}

void *orc_rt_internal_realloc(void *P, size_t Size) {
  return orc_rt_internal_FaultInjector_fail(orc_rt_internal_Fault_Alloc)
             ? NULL
             : realloc(P, Size);
}

char *orc_rt_internal_strdup(const char *S) {
  return orc_rt_internal_FaultInjector_fail(orc_rt_internal_Fault_Alloc)
             ? NULL
             : strdup(S);
}

int orc_rt_internal_pthread_create(pthread_t *T, const pthread_attr_t *A,
                                   void *(*Start)(void *), void *Arg) {
  if (orc_rt_internal_FaultInjector_fail(orc_rt_internal_Fault_Thread))
    return EAGAIN;
  return pthread_create(T, A, Start, Arg);
}

void *orc_rt_internal_mmap(void *Addr, size_t Len, int Prot, int Flags, int FD,
                           long Offset) {
  if (orc_rt_internal_FaultInjector_fail(orc_rt_internal_Fault_Map)) {
    errno = ENOMEM;
    return MAP_FAILED;
  }
  return mmap(Addr, Len, Prot, Flags, FD, (off_t)Offset);
}

int orc_rt_internal_mprotect(void *Addr, size_t Len, int Prot) {
  if (orc_rt_internal_FaultInjector_fail(orc_rt_internal_Fault_Map)) {
    errno = EACCES;
    return -1;
  }
  return mprotect(Addr, Len, Prot);
}
