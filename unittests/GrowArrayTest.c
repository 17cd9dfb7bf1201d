/*===- unittests/GrowArrayTest.c - lib/jit/support/GrowArray.h --------------------===*/
/* The contract the growing arrays in lib/jit rely on: room for Need items,
 * the items kept across a move, and on failure nothing changed. */

#include "TestUtil.h"

#include "jit/support/GrowArray.h"

#include <stdint.h>

typedef struct {
  uint64_t A, B;
} Pair;

static void firstGrowthMakesRoomForEight(void **State) {
  (void)State;
  Pair *Items = NULL;
  size_t Cap = 0;
  assert_true(orc_rt_jit_growArray(&Items, &Cap, 1, sizeof(*Items)));
  assert_non_null(Items);
  assert_int_equal(Cap, 8);
  Items[7] = (Pair){7, 7}; /* all eight are usable (ASan would object) */
  free(Items);
}

static void growthDoublesUntilNeedFitsAndKeepsItems(void **State) {
  (void)State;
  Pair *Items = NULL;
  size_t Cap = 0, Size = 0;
  for (; Size < 100; ++Size) {
    assert_true(orc_rt_jit_growArray(&Items, &Cap, Size + 1, sizeof(*Items)));
    Items[Size] = (Pair){Size, ~(uint64_t)Size};
  }
  assert_int_equal(Cap, 128);
  for (size_t I = 0; I < Size; ++I) {
    assert_int_equal(Items[I].A, I);
    assert_int_equal(Items[I].B, ~(uint64_t)I);
  }
  /* A jump past twice the capacity doubles as often as it takes. */
  assert_true(orc_rt_jit_growArray(&Items, &Cap, 1000, sizeof(*Items)));
  assert_int_equal(Cap, 1024);
  assert_int_equal(Items[99].A, 99);
  free(Items);
}

static void enoughRoomChangesNothing(void **State) {
  (void)State;
  char *Items = malloc(16), *Before = Items;
  size_t Cap = 16;
  assert_true(orc_rt_jit_growArray(&Items, &Cap, 16, 1));
  assert_ptr_equal(Items, Before);
  assert_int_equal(Cap, 16);
  free(Items);
}

static void failureLeavesArrayAndCapacityIntact(void **State) {
  (void)State;
  uint32_t *Items = NULL;
  size_t Cap = 0;
  assert_true(orc_rt_jit_growArray(&Items, &Cap, 3, sizeof(*Items)));
  Items[2] = 42;
  uint32_t *Before = Items;
  /* Sizes no allocator can give: the doubling or the byte count overflows. */
  assert_false(orc_rt_jit_growArray(&Items, &Cap, SIZE_MAX, sizeof(*Items)));
  assert_false(
      orc_rt_jit_growArray(&Items, &Cap, SIZE_MAX / 4 + 1, sizeof(*Items)));
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  /* Asked of realloc, which refuses it (the sanitizers' allocators abort on
   * such a size instead, unless allocator_may_return_null=1). */
  assert_false(orc_rt_jit_growArray(&Items, &Cap, SIZE_MAX / 16, 8));
#endif
  assert_ptr_equal(Items, Before);
  assert_int_equal(Cap, 8);
  assert_int_equal(Items[2], 42);
  free(Items);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(firstGrowthMakesRoomForEight),
      cmocka_unit_test(growthDoublesUntilNeedFitsAndKeepsItems),
      cmocka_unit_test(enoughRoomChangesNothing),
      cmocka_unit_test(failureLeavesArrayAndCapacityIntact),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
