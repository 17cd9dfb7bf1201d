/*===- lib/core/NestedGroup.c - A task group that is one token of another -===*/
/* Built on TaskGroup's public API only: the parent token is taken through the
 * token source before the group exists, and given back by the group's first
 * completion callback, after the user's. */

#include "orc-rt-c/NestedGroup.h"

#include <stdlib.h>

typedef struct {
  orc_rt_TokenSourceRef Parent;
  orc_rt_CallbackFn OnComplete;
  void *Ctx;
} Nesting;

static void completeNested(void *Arg) {
  Nesting *N = Arg;
  if (N->OnComplete)
    N->OnComplete(N->Ctx);
  /* Everything OnComplete did happens before the parent token's release
   * (TaskGroup's release store), so before the parent's completion. */
  orc_rt_TokenSource_releaseToken(N->Parent);
  orc_rt_TokenSource_dispose(N->Parent);
  free(N);
}

orc_rt_ErrorRef orc_rt_TaskGroup_createNested(orc_rt_TaskGroupRef *Result,
                                              orc_rt_TokenSourceRef Parent,
                                              orc_rt_CallbackFn OnComplete,
                                              void *Ctx) {
  if (!Parent)
    return orc_rt_Error_create("cannot create a nested task group: no parent "
                               "token source (out of memory?)");
  Nesting *N = malloc(sizeof(*N));
  orc_rt_TaskGroupRef G = N ? orc_rt_TaskGroup_create() : NULL;
  if (!G) {
    free(N);
    orc_rt_TokenSource_dispose(Parent);
    return orc_rt_Error_create("out of memory");
  }
  *N = (Nesting){Parent, OnComplete, Ctx};
  if (!orc_rt_TokenSource_acquireToken(Parent)) {
    orc_rt_TaskGroup_destroy(G);
    orc_rt_TokenSource_dispose(Parent);
    free(N);
    return orc_rt_Error_create(
        "cannot create a nested task group: the parent group is closed");
  }
  /* The group is open with no token: this cannot run now. */
  orc_rt_ErrorRef Err = orc_rt_TaskGroup_addOnComplete(G, completeNested, N);
  if (Err) {
    orc_rt_TaskGroup_destroy(G);
    orc_rt_TokenSource_releaseToken(Parent);
    orc_rt_TokenSource_dispose(Parent);
    free(N);
    return Err;
  }
  *Result = G;
  return NULL;
}
