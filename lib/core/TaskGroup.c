/*===- lib/core/TaskGroup.c - Task groups, tokens and completion ----------===*/
/*
 * One atomic word holds the whole token state: bit 0 is CLOSED, the rest counts
 * live tokens (in units of 2). Acquire is a CAS that refuses once CLOSED is
 * set, so no token is ever granted after close's fetch_or is ordered before it.
 * Exactly one thread sees the word reach "CLOSED and no tokens": either close
 * (if no token was out) or the release of the last token. That thread runs the
 * completion callbacks.
 *
 * Memory ordering: every RMW on State is acq_rel. A release's decrement pairs
 * with the completer's acquire on the same word, so everything a token holder
 * did before releasing happens-before the completion callbacks (onShutdown may
 * free what it used).
 */

#include "core/TaskGroup.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#define CLOSED ((uintptr_t)1)
#define ONE_TOKEN ((uintptr_t)2)

typedef struct Callback {
  orc_rt_CallbackFn Fn;
  void *Ctx;
  struct Callback *Next;
} Callback;

struct orc_rt_OpaqueTaskGroup {
  _Atomic uintptr_t State;
  atomic_uint Refs;
  pthread_mutex_t Lock; /* guards Complete and the callback list */
  bool Complete;
  Callback *Head, **Tail;
};

struct orc_rt_OpaqueTokenSource {
  orc_rt_TaskGroupRef G;
};

orc_rt_TaskGroupRef orc_rt_TaskGroup_create(void) {
  orc_rt_TaskGroupRef G = calloc(1, sizeof(*G));
  if (!G)
    return NULL;
  atomic_init(&G->State, 0);
  atomic_init(&G->Refs, 1);
  pthread_mutex_init(&G->Lock, NULL);
  G->Tail = &G->Head;
  return G;
}

void orc_rt_internal_TaskGroup_retain(orc_rt_TaskGroupRef G) {
  atomic_fetch_add_explicit(&G->Refs, 1, memory_order_relaxed);
}

void orc_rt_internal_TaskGroup_drop(orc_rt_TaskGroupRef G) {
  /* acq_rel: the last dropper must see every other holder's writes before
   * freeing. */
  if (atomic_fetch_sub_explicit(&G->Refs, 1, memory_order_acq_rel) != 1)
    return;
  for (Callback *C = G->Head, *N; C; C = N) {
    N = C->Next;
    free(C);
  }
  pthread_mutex_destroy(&G->Lock);
  free(G);
}

void orc_rt_TaskGroup_destroy(orc_rt_TaskGroupRef G) {
  if (G)
    orc_rt_internal_TaskGroup_drop(G);
}

/* Runs every registered callback in order, including ones registered while
 * running, then marks the group complete. Only the single thread that observed
 * completion calls this. */
static void runCompletion(orc_rt_TaskGroupRef G) {
  orc_rt_internal_TaskGroup_retain(
      G); /* a callback may drop the last outside ref */
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

bool orc_rt_TaskGroup_acquireToken(orc_rt_TaskGroupRef G) {
  /* relaxed load: the CAS below re-validates it. */
  uintptr_t S = atomic_load_explicit(&G->State, memory_order_relaxed);
  do {
    if (S & CLOSED)
      return false;
    /* acq_rel on success pairs with close's fetch_or: if close came first we
     * see CLOSED and fail; if we came first, close sees our token. */
  } while (!atomic_compare_exchange_weak_explicit(&G->State, &S, S + ONE_TOKEN,
                                                  memory_order_acq_rel,
                                                  memory_order_relaxed));
  return true;
}

void orc_rt_TaskGroup_releaseToken(orc_rt_TaskGroupRef G) {
  /* acq_rel: release publishes this holder's work to the completer; acquire
   * lets the last releaser (the completer) see every earlier holder's work. */
  uintptr_t Old =
      atomic_fetch_sub_explicit(&G->State, ONE_TOKEN, memory_order_acq_rel);
  assert(Old >= ONE_TOKEN && "releaseToken without a matching acquire");
  if (Old == (CLOSED | ONE_TOKEN))
    runCompletion(G);
}

void orc_rt_TaskGroup_close(orc_rt_TaskGroupRef G) {
  /* acq_rel: pairs with acquire's CAS and release's fetch_sub (see above). */
  uintptr_t Old =
      atomic_fetch_or_explicit(&G->State, CLOSED, memory_order_acq_rel);
  if (Old == 0)
    runCompletion(G);
}

bool orc_rt_TaskGroup_isClosed(orc_rt_TaskGroupRef G) {
  return atomic_load_explicit(&G->State, memory_order_acquire) & CLOSED;
}

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
  Callback *C = malloc(sizeof(*C));
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
  orc_rt_TokenSourceRef TS = malloc(sizeof(*TS));
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
