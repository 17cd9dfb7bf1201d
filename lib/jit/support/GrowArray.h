/*===- lib/jit/support/GrowArray.h - Room in a growing array --------------===*/
/* How lib/jit grows an array: a pointer to the items, a capacity next to it,
 * and a call before each store that makes room for it:
 *
 *   if (!orc_rt_jit_growArray(&L->Items, &L->Capacity, L->Size + 1,
 *                             sizeof(*L->Items)))
 *     return orc_rt_Error_create("out of memory");
 *   L->Items[L->Size++] = X;
 *
 * As NetBSD's reallocarr(3), it takes the address of the array pointer (any
 * T **, passed as void *) and reads and writes that pointer with memcpy, so
 * no T ** is ever accessed as a void **. The price: passing the array
 * (L->Items) where its address (&L->Items) belongs compiles all the same. */

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_GROWARRAY_H
#define ORC_RT_C_LIB_JIT_SUPPORT_GROWARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Makes room in the array at *ItemsPtr for at least Need items of ElemSize
 * bytes: if *Capacity is smaller, the capacity doubles (from 8) until it is
 * not and the array is reallocated. False if out of memory (or the size
 * overflows): the array and *Capacity are then unchanged, items and all. */
static inline bool orc_rt_jit_growArray(void *ItemsPtr, size_t *Capacity,
                                        size_t Need, size_t ElemSize) {
  if (Need <= *Capacity)
    return true;
  size_t Cap = *Capacity ? *Capacity : 8;
  while (Cap < Need) {
    if (Cap > SIZE_MAX / 2)
      return false;
    Cap *= 2;
  }
  if (Cap > SIZE_MAX / ElemSize)
    return false;
  void *Items;
  memcpy(&Items, ItemsPtr, sizeof(Items));
  Items = realloc(Items, Cap * ElemSize);
  if (!Items)
    return false;
  memcpy(ItemsPtr, &Items, sizeof(Items));
  *Capacity = Cap;
  return true;
}

#endif
