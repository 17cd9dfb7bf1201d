/*===- lib/jit/support/PtrStack.h - Growable stack of pointers ------------===*/
/* A LIFO of pointers in one growing array, for work lists. Zero-initialised
 * ({0}) is an empty stack; not synchronised. */

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_PTRSTACK_H
#define ORC_RT_C_LIB_JIT_SUPPORT_PTRSTACK_H

#include "jit/support/GrowArray.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

typedef struct {
  void **Items;
  size_t Len, Cap;
} orc_rt_jit_PtrStack;

/* False if out of memory (S unchanged). */
static inline bool orc_rt_jit_PtrStack_push(orc_rt_jit_PtrStack *S, void *P) {
  if (!orc_rt_jit_growArray(&S->Items, &S->Cap, S->Len + 1, sizeof(*S->Items)))
    return false;
  S->Items[S->Len++] = P;
  return true;
}

/* The top of a non-empty stack, taken off. */
static inline void *orc_rt_jit_PtrStack_pop(orc_rt_jit_PtrStack *S) {
  return S->Items[--S->Len];
}

static inline void orc_rt_jit_PtrStack_free(orc_rt_jit_PtrStack *S) {
  free(S->Items);
  S->Items = NULL;
  S->Len = S->Cap = 0;
}

#endif
