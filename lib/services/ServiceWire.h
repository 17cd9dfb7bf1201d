/*===- lib/services/ServiceWire.h - What every service's wire code shares -===*/
/* The pieces each service's wrapper functions use to decode a request: the
 * error for undecodable arguments, a list of addresses, and the instance a
 * request names. A service keeps its live instances in an InstanceSet; a
 * request's leading "Addr Inst" argument is looked up there, so an address that
 * names no live instance is rejected instead of being followed.
 *
 * A leaf: it knows SPS and wrapper buffers, nothing of the services. */

#ifndef ORC_RT_C_LIB_SERVICES_SERVICEWIRE_H
#define ORC_RT_C_LIB_SERVICES_SERVICEWIRE_H

#include "orc-rt-c/SPS.h"
#include "orc-rt-c/WrapperFunction.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The error every wrapper returns for undecodable arguments (an OOB error). */
#define ORC_RT_BAD_ARGS_MSG                                                    \
  "Could not deserialize arguments for wrapper function call"
orc_rt_CWrapperFunctionBuffer orc_rt_internal_badArgs(void);

/* Decodes Sequence<Addr> into a malloc'd array (*Addrs, freed by the caller
 * whatever the result; NULL if nothing was allocated). False if malformed or
 * out of memory. */
bool orc_rt_internal_readAddrs(orc_rt_SPSReader *R, uint64_t **Addrs,
                               size_t *Num);

/* The live instances of one kind (a static of the service that owns them).
 * Lock guards Items. */
typedef struct {
  pthread_mutex_t Lock;
  void **Items;
  size_t Size;
} orc_rt_internal_InstanceSet;

#define ORC_RT_INTERNAL_INSTANCE_SET_INIT                                      \
  { PTHREAD_MUTEX_INITIALIZER, NULL, 0 }

/* Adds P. False if out of memory. */
bool orc_rt_internal_InstanceSet_add(orc_rt_internal_InstanceSet *Set, void *P);

/* Removes P (before P is freed). */
void orc_rt_internal_InstanceSet_remove(orc_rt_internal_InstanceSet *Set,
                                        void *P);

/* The live instance at Addr, or NULL. */
void *orc_rt_internal_InstanceSet_find(orc_rt_internal_InstanceSet *Set,
                                       uint64_t Addr);

/* Decodes a wrapper's leading "Addr Inst" argument and returns the live
 * instance of Set it names; otherwise marks R failed and returns NULL. */
void *orc_rt_internal_readInstance(orc_rt_SPSReader *R,
                                   orc_rt_internal_InstanceSet *Set);

#endif
