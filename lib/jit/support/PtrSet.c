/*===- lib/jit/support/PtrSet.c - Hash set or map keyed by pointers -------===*/
/* Insertion and growth; lookups are inline in PtrSet.h. */

#include "jit/support/PtrSet.h"

#include <stdlib.h>
#include <string.h>

/* Doubles S's capacity (64 at first), rehashing every key: false if out of
 * memory, S then unchanged. */
static bool grow(orc_rt_jit_PtrSet *S, bool IsMap) {
  orc_rt_jit_PtrSet N = {0};
  size_t Cap = S->Keys ? (S->Mask + 1) * 2 : 64;
  N.Keys = calloc(Cap, sizeof(*N.Keys));
  N.Values = IsMap ? calloc(Cap, sizeof(*N.Values)) : NULL;
  if (!N.Keys || (IsMap && !N.Values)) {
    free(N.Keys);
    free(N.Values);
    return false;
  }
  N.Mask = Cap - 1;
  for (size_t I = 0; S->Keys && I <= S->Mask; ++I)
    if (S->Keys[I]) {
      size_t J = orc_rt_jit_PtrSet_slot(&N, S->Keys[I]);
      N.Keys[J] = S->Keys[I];
      if (IsMap)
        N.Values[J] = S->Values[I];
    }
  N.Count = S->Count;
  free(S->Keys);
  free(S->Values);
  *S = N;
  return true;
}

static int add(orc_rt_jit_PtrSet *S, const void *P, void *V, bool IsMap) {
  if ((S->Count + 1) * 2 > (S->Keys ? S->Mask + 1 : 0) && !grow(S, IsMap))
    return -1;
  size_t I = orc_rt_jit_PtrSet_slot(S, P);
  if (S->Keys[I])
    return 0;
  S->Keys[I] = P;
  if (IsMap)
    S->Values[I] = V;
  ++S->Count;
  return 1;
}

int orc_rt_jit_PtrSet_insert(orc_rt_jit_PtrSet *S, const void *P) {
  return add(S, P, NULL, false);
}

int orc_rt_jit_PtrSet_put(orc_rt_jit_PtrSet *S, const void *P, void *V) {
  return add(S, P, V, true);
}

void orc_rt_jit_PtrSet_free(orc_rt_jit_PtrSet *S) {
  free(S->Keys);
  free(S->Values);
  memset(S, 0, sizeof(*S));
}
