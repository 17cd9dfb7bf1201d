/*===- lib/support/FaultInjection.h - Counter-driven fault injection ------===*/
/*
 * Every allocation, thread creation and mapping in lib/ goes through these
 * wrappers, so a test can make the Nth one fail and check that the failure
 * comes back as an error, leaks nothing and leaves the Session able to shut
 * down. Disarmed (the default), a wrapper costs one relaxed atomic load before
 * calling libc.
 */

#ifndef ORC_RT_C_LIB_SUPPORT_FAULTINJECTION_H
#define ORC_RT_C_LIB_SUPPORT_FAULTINJECTION_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum {
  orc_rt_internal_Fault_Alloc,  /* malloc, calloc, realloc, strdup */
  orc_rt_internal_Fault_Thread, /* pthread_create */
  orc_rt_internal_Fault_Map,    /* mmap, mprotect (fail with ENOMEM / EACCES) */
  orc_rt_internal_Fault_Membarrier, /* membarrier registration (as ENOSYS) */
  orc_rt_internal_Fault_NumKinds
} orc_rt_internal_FaultKind;

/* From now on, count calls of kind K; the one with index FailAt (0-based)
 * fails, and every later one too if Sticky. FailAt < 0 disarms K. */
void orc_rt_internal_FaultInjector_arm(orc_rt_internal_FaultKind K, long FailAt,
                                       bool Sticky);

/* Calls of kind K seen since it was last armed. */
long orc_rt_internal_FaultInjector_calls(orc_rt_internal_FaultKind K);

/* True if this call of kind K must fail (counts the call when armed). */
bool orc_rt_internal_FaultInjector_fail(orc_rt_internal_FaultKind K);

void *orc_rt_internal_malloc(size_t Size);
void *orc_rt_internal_calloc(size_t N, size_t Size);
void *orc_rt_internal_realloc(void *P, size_t Size);
char *orc_rt_internal_strdup(const char *S);
void *orc_rt_internal_mmap(void *Addr, size_t Len, int Prot, int Flags, int FD,
                           long Offset);
int orc_rt_internal_mprotect(void *Addr, size_t Len, int Prot);
int orc_rt_internal_pthread_create(pthread_t *T, const pthread_attr_t *A,
                                   void *(*Start)(void *), void *Arg);

#endif
