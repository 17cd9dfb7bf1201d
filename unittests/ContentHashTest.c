/*===- unittests/ContentHashTest.c - lib/jit/support/ContentHash.h ----------------===*/
/* The object cache's keys are a stream of fields hashed in pieces (settings,
 * pass pipeline, module index, version, the IR), so the digest must depend on
 * the bytes alone, never on how they were split into update calls, and every
 * byte must count. A bug here once made two cache entries share a key on a
 * machine whose CPU feature string had a different length. */

#include "TestUtil.h"

#include "jit/support/ContentHash.h"

#include <string.h>

enum { N = 97 };

static void fill(uint8_t *Bytes) {
  for (unsigned I = 0; I < N; ++I)
    Bytes[I] = (uint8_t)(I * 37 + 11);
}

static orc_rt_jit_Digest whole(const uint8_t *Bytes, size_t Size) {
  orc_rt_jit_ContentHash H;
  orc_rt_jit_ContentHash_init(&H);
  orc_rt_jit_ContentHash_update(&H, Bytes, Size);
  return orc_rt_jit_ContentHash_final(&H);
}

static void digestIsTheSameHoweverTheBytesAreSplit(void **State) {
  (void)State;
  uint8_t Bytes[N];
  fill(Bytes);
  orc_rt_jit_Digest Want = whole(Bytes, N);
  /* Every split into three pieces, including empty ones. */
  for (size_t A = 0; A <= N; ++A)
    for (size_t B = A; B <= N; B += 3) {
      orc_rt_jit_ContentHash H;
      orc_rt_jit_ContentHash_init(&H);
      orc_rt_jit_ContentHash_update(&H, Bytes, A);
      orc_rt_jit_ContentHash_update(&H, Bytes + A, B - A);
      orc_rt_jit_ContentHash_update(&H, Bytes + B, N - B);
      orc_rt_jit_Digest Got = orc_rt_jit_ContentHash_final(&H);
      assert_true(Got.Hi == Want.Hi && Got.Lo == Want.Lo);
    }
  /* One byte at a time. */
  orc_rt_jit_ContentHash H;
  orc_rt_jit_ContentHash_init(&H);
  for (size_t I = 0; I < N; ++I)
    orc_rt_jit_ContentHash_update(&H, Bytes + I, 1);
  orc_rt_jit_Digest Got = orc_rt_jit_ContentHash_final(&H);
  assert_true(Got.Hi == Want.Hi && Got.Lo == Want.Lo);
}

/* The object cache's case: a short field (a module index) hashed while the
 * previous fields left a partial word must still change the key, for every
 * length of what came before. */
static void shortFieldAfterAPartialWordCounts(void **State) {
  (void)State;
  char Prefix[32];
  for (size_t Len = 0; Len < sizeof(Prefix) - 1; ++Len) {
    memset(Prefix, 'x', Len);
    Prefix[Len] = '\0';
    orc_rt_jit_Digest D[2];
    const uint32_t Index[2] = {1, 0xffffffffu}, Version = 2;
    for (int K = 0; K < 2; ++K) {
      orc_rt_jit_ContentHash H;
      orc_rt_jit_ContentHash_init(&H);
      orc_rt_jit_ContentHash_updateString(&H, Prefix);
      orc_rt_jit_ContentHash_update(&H, &Index[K], sizeof(Index[K]));
      orc_rt_jit_ContentHash_update(&H, &Version, sizeof(Version));
      orc_rt_jit_ContentHash_updateString(&H, "module bytes");
      D[K] = orc_rt_jit_ContentHash_final(&H);
    }
    assert_false(D[0].Hi == D[1].Hi && D[0].Lo == D[1].Lo);
  }
}

static void everyByteChangesTheDigest(void **State) {
  (void)State;
  uint8_t Bytes[N];
  fill(Bytes);
  orc_rt_jit_Digest Base = whole(Bytes, N);
  for (size_t I = 0; I < N; ++I) {
    Bytes[I] ^= 1;
    orc_rt_jit_Digest D = whole(Bytes, N);
    assert_false(D.Hi == Base.Hi && D.Lo == Base.Lo);
    Bytes[I] ^= 1;
  }
  /* The length counts too: a trailing zero byte is not nothing. */
  uint8_t Zero[9] = {0};
  orc_rt_jit_Digest A = whole(Zero, 8), B = whole(Zero, 9);
  assert_false(A.Hi == B.Hi && A.Lo == B.Lo);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(digestIsTheSameHoweverTheBytesAreSplit),
      cmocka_unit_test(shortFieldAfterAPartialWordCounts),
      cmocka_unit_test(everyByteChangesTheDigest),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
