/*===- lib/jit/support/PtrSet.h - Hash set or map keyed by pointers -------===*/
/* A set of non-NULL pointers, or a map from them to pointers: open addressing
 * with linear probing, a power-of-two capacity kept at most half full, no
 * removal. Lookups are inline (the lazy split asks one per constant operand
 * it moves). Zero-initialised ({0}) is an empty set; not synchronised.
 *
 * Layout, for callers that walk every entry: Keys[0..Mask] holds the keys,
 * NULL in an empty slot; in a map Values[I] belongs to Keys[I], in a set
 * Values is NULL. Keys is NULL until the first insertion. */

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_PTRSET_H
#define ORC_RT_C_LIB_JIT_SUPPORT_PTRSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  const void **Keys;
  void **Values; /* NULL in a set */
  size_t Mask;   /* capacity - 1; the capacity is a power of two */
  size_t Count;
} orc_rt_jit_PtrSet;

static inline size_t orc_rt_jit_PtrSet_hash(const void *P) {
  uint64_t X = (uint64_t)(uintptr_t)P;
  X ^= X >> 33;
  X *= 0xff51afd7ed558ccdULL;
  X ^= X >> 33;
  return (size_t)X;
}

/* The slot of P, or of the empty slot where it would go (S not empty). */
static inline size_t orc_rt_jit_PtrSet_slot(const orc_rt_jit_PtrSet *S,
                                            const void *P) {
  size_t I = orc_rt_jit_PtrSet_hash(P) & S->Mask;
  while (S->Keys[I] && S->Keys[I] != P)
    I = (I + 1) & S->Mask;
  return I;
}

static inline bool orc_rt_jit_PtrSet_has(const orc_rt_jit_PtrSet *S,
                                         const void *P) {
  return S->Count && S->Keys[orc_rt_jit_PtrSet_slot(S, P)] == P;
}

/* The value of P in a map, or NULL if P is not there. */
static inline void *orc_rt_jit_PtrSet_get(const orc_rt_jit_PtrSet *S,
                                          const void *P) {
  if (!S->Count)
    return NULL;
  size_t I = orc_rt_jit_PtrSet_slot(S, P);
  return S->Keys[I] == P ? S->Values[I] : NULL;
}

/* Adds P to a set: 1 if added, 0 if it was there already, -1 if out of
 * memory (S unchanged). */
int orc_rt_jit_PtrSet_insert(orc_rt_jit_PtrSet *S, const void *P);

/* Adds P with value V to a map (a set that has only ever been given values):
 * 1 if added, 0 if P was there already (its value unchanged), -1 if out of
 * memory (S unchanged). */
int orc_rt_jit_PtrSet_put(orc_rt_jit_PtrSet *S, const void *P, void *V);

/* Frees the tables (not what the keys and values point to) and
 * leaves S empty. */
void orc_rt_jit_PtrSet_free(orc_rt_jit_PtrSet *S);

#endif
