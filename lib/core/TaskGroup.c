/*===- lib/core/TaskGroup.c - Task groups: tokens, close, completion ------===*/
/*
 * A task group is a token counter (TokenCounter.h: per-thread slots, the
 * closer pays for the fence; the argument is docs/TokenFastPath.md) plus what
 * the public API adds on top: a reference count shared with token sources, and
 * the completion callbacks. The counter reaches the group only through
 * GroupOps below, handed to it at create.
 */

#include "core/TaskGroup.h"
#include "core/TokenCounter.h"
#include "support/FaultInjection.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct orc_rt_internal_TaskGroupCallback {
  orc_rt_CallbackFn Fn;
  void *Ctx;
  struct orc_rt_internal_TaskGroupCallback *Next;
} Callback;

struct orc_rt_OpaqueTokenSource {
  orc_rt_TaskGroupRef G;
};

/*---- What the token counter calls ----*/

/* Takes a reference unless the count already dropped to zero (the group is
 * being freed: drop is waiting to exit the counter). */
static bool tryPinGroup(void *Owner) {
  orc_rt_TaskGroupRef G = Owner;
  unsigned R = atomic_load_explicit(&G->Refs, memory_order_relaxed);
  do {
    if (R == 0)
      return false;
  } while (!atomic_compare_exchange_weak_explicit(
      &G->Refs, &R, R + 1, memory_order_relaxed, memory_order_relaxed));
  return true;
}

/* Runs every registered callback in order, including ones registered while
 * running, then marks the group complete and drops tryPinGroup's reference.
 * The counter calls this once per group, on exactly one thread. */
static void completeGroup(void *Owner) {
  orc_rt_TaskGroupRef G = Owner;
  pthread_mutex_lock(&G->Lock);
  while (G->Head) {
    Callback *List = G->Head;
    G->Head = NULL;
    G->Tail = &G->Head;
    pthread_mutex_unlock(&G->Lock);
    for (Callback *C = List, *N; C; C = N) {
      N = C->Next;
      C->Fn(C->Ctx);
      free(C);
    }
    pthread_mutex_lock(&G->Lock);
  }
  G->Complete = true;
  pthread_mutex_unlock(&G->Lock);
  orc_rt_internal_TaskGroup_drop(G);
}

static const orc_rt_internal_TokenCounterOps GroupOps = {tryPinGroup,
                                                         completeGroup};

/*---- Lifetime ----*/

/* One malloc'd block, aligned by hand to the group's 64-byte alignment. Not
 * aligned_alloc: glibc carves an aligned chunk out of a larger one and frees
 * the pieces around it, and the groups a host kept for good (a reloaded
 * module's versions, before jit/modules/ModuleStubs.h retired them) left
 * those pieces stranded between long-lived blocks, where every later malloc
 * searched them (bench/programs/jit-reload-churn.c: a tenth of 20,000
 * reloads went from 3.5 s to 8.5 s). */
orc_rt_TaskGroupRef orc_rt_TaskGroup_create(void) {
  void *Block = malloc(sizeof(struct orc_rt_OpaqueTaskGroup) + 63);
  if (!Block)
    return NULL;
  orc_rt_TaskGroupRef G =
      (orc_rt_TaskGroupRef)(((uintptr_t)Block + 63) & ~(uintptr_t)63);
  memset(G, 0, sizeof(*G));
  G->Block = Block;
  if (!orc_rt_internal_TokenCounter_init(&G->Tokens, &GroupOps, G)) {
    free(Block);
    return NULL;
  }
  atomic_init(&G->Refs, 1);
  atomic_init(&G->Closed, false);
  pthread_mutex_init(&G->Lock, NULL);
  G->Tail = &G->Head;
  return G;
}

void orc_rt_internal_TaskGroup_retain(orc_rt_TaskGroupRef G) {
  atomic_fetch_add_explicit(&G->Refs, 1, memory_order_relaxed);
}

void orc_rt_internal_TaskGroup_drop(orc_rt_TaskGroupRef G) {
  /* acq_rel: the last dropper must see every other holder's
   * writes before freeing. */
  if (atomic_fetch_sub_explicit(&G->Refs, 1, memory_order_acq_rel) != 1)
    return;
  /* Exit the counter first: a re-count running concurrently then finds the
   * index free (or fails tryPinGroup) and leaves G alone. */
  orc_rt_internal_TokenCounter_exit(&G->Tokens);
  for (Callback *C = G->Head, *N; C; C = N) {
    N = C->Next;
    free(C);
  }
  pthread_mutex_destroy(&G->Lock);
  free(G->Block);
}

void orc_rt_TaskGroup_destroy(orc_rt_TaskGroupRef G) {
  if (G)
    orc_rt_internal_TaskGroup_drop(G);
}

/*---- Tokens and close ----*/

bool orc_rt_TaskGroup_acquireToken(orc_rt_TaskGroupRef G) {
  return orc_rt_internal_TokenCounter_acquire(&G->Tokens);
}

void orc_rt_TaskGroup_releaseToken(orc_rt_TaskGroupRef G) {
  orc_rt_internal_TokenCounter_release(&G->Tokens);
}

void orc_rt_TaskGroup_close(orc_rt_TaskGroupRef G) {
  /* Held across the close: completion may run inside it and let the owner drop
   * its reference (a Session destroyed on another thread). */
  orc_rt_internal_TaskGroup_retain(G);
  orc_rt_internal_TokenCounter_close(&G->Tokens);
  /* Only now is every later acquire denied, so only now may isClosed say so.
   * Release: pairs with the acquire load in orc_rt_TaskGroup_isClosed. */
  atomic_store_explicit(&G->Closed, true, memory_order_release);
  orc_rt_internal_TaskGroup_drop(G);
}

bool orc_rt_TaskGroup_isClosed(orc_rt_TaskGroupRef G) {
  return atomic_load_explicit(&G->Closed, memory_order_acquire);
}

/*---- Completion ----*/

bool orc_rt_TaskGroup_isComplete(orc_rt_TaskGroupRef G) {
  pthread_mutex_lock(&G->Lock);
  bool C = G->Complete;
  pthread_mutex_unlock(&G->Lock);
  return C;
}

orc_rt_ErrorRef orc_rt_TaskGroup_addOnComplete(orc_rt_TaskGroupRef G,
                                               orc_rt_CallbackFn Fn,
                                               void *Ctx) {
  pthread_mutex_lock(&G->Lock);
  if (G->Complete) {
    pthread_mutex_unlock(&G->Lock);
    Fn(Ctx);
    return NULL;
  }
  Callback *C = orc_rt_internal_malloc(sizeof(*C));
  if (!C) {
    pthread_mutex_unlock(&G->Lock);
    return orc_rt_Error_create(
        "out of memory registering a task group callback");
  }
  C->Fn = Fn;
  C->Ctx = Ctx;
  C->Next = NULL;
  *G->Tail = C;
  G->Tail = &C->Next;
  pthread_mutex_unlock(&G->Lock);
  return NULL;
}

orc_rt_TokenSourceRef orc_rt_TaskGroup_getTokenSource(orc_rt_TaskGroupRef G) {
  orc_rt_TokenSourceRef TS = orc_rt_internal_malloc(sizeof(*TS));
  if (!TS)
    return NULL;
  orc_rt_internal_TaskGroup_retain(G);
  TS->G = G;
  return TS;
}

bool orc_rt_TokenSource_acquireToken(orc_rt_TokenSourceRef TS) {
  return orc_rt_TaskGroup_acquireToken(TS->G);
}

void orc_rt_TokenSource_releaseToken(orc_rt_TokenSourceRef TS) {
  orc_rt_TaskGroup_releaseToken(TS->G);
}

void orc_rt_TokenSource_dispose(orc_rt_TokenSourceRef TS) {
  if (!TS)
    return;
  orc_rt_internal_TaskGroup_drop(TS->G);
  free(TS);
}
