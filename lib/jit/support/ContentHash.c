/*===- lib/jit/support/ContentHash.c - 128-bit hash for object-cache keys -===*/

#include "jit/support/ContentHash.h"

#include <string.h>

#define PRIME_A 0x9E3779B185EBCA87ull
#define PRIME_B 0xC2B2AE3D27D4EB4Full
#define SEED_A 0x243F6A8885A308D3ull
#define SEED_B 0x13198A2E03707344ull

static uint64_t rotl(uint64_t X, unsigned R) {
  return (X << R) | (X >> (64 - R));
}

static uint64_t fmix64(uint64_t K) {
  K ^= K >> 33;
  K *= 0xFF51AFD7ED558CCDull;
  K ^= K >> 33;
  K *= 0xC4CEB9FE1A85EC53ull;
  K ^= K >> 33;
  return K;
}

static void mixWord(orc_rt_jit_ContentHash *H, uint64_t W) {
  H->A = rotl(H->A ^ (W * PRIME_A), 31) * PRIME_B;
  H->B = rotl(H->B ^ (W * PRIME_B), 27) * PRIME_A + 0x52DCE729u;
}

void orc_rt_jit_ContentHash_init(orc_rt_jit_ContentHash *H) {
  memset(H, 0, sizeof(*H));
  H->A = SEED_A;
  H->B = SEED_B;
}

void orc_rt_jit_ContentHash_update(orc_rt_jit_ContentHash *H, const void *Data,
                                   size_t Size) {
  const uint8_t *P = Data;
  H->Length += Size;
  while (H->TailSize && Size) {
    H->Tail[H->TailSize++] = *P++;
    --Size;
    if (H->TailSize == 8) {
      uint64_t W;
      memcpy(&W, H->Tail, 8);
      mixWord(H, W);
      H->TailSize = 0;
    }
  }
  if (H->TailSize) /* Data ran out before the tail filled: keep the tail */
    return;
  for (; Size >= 8; P += 8, Size -= 8) {
    uint64_t W;
    memcpy(&W, P, 8); /* unaligned-safe; the words' byte order is the host's */
    mixWord(H, W);
  }
  memcpy(H->Tail, P, Size);
  H->TailSize = (unsigned)Size;
}

void orc_rt_jit_ContentHash_updateString(orc_rt_jit_ContentHash *H,
                                         const char *S) {
  orc_rt_jit_ContentHash_update(H, S, strlen(S) + 1);
}

orc_rt_jit_Digest
orc_rt_jit_ContentHash_final(const orc_rt_jit_ContentHash *H) {
  orc_rt_jit_ContentHash C = *H;
  uint64_t W = 0;
  memcpy(&W, C.Tail, C.TailSize);
  mixWord(&C, W ^ ((uint64_t)C.TailSize << 56));
  uint64_t A = fmix64(C.A ^ C.Length), B = fmix64(C.B + C.Length);
  return (orc_rt_jit_Digest){fmix64(A + B), fmix64(A ^ rotl(B, 17))};
}

uint64_t orc_rt_jit_checksum(const void *Data, size_t Size) {
  orc_rt_jit_ContentHash H;
  orc_rt_jit_ContentHash_init(&H);
  orc_rt_jit_ContentHash_update(&H, Data, Size);
  return orc_rt_jit_ContentHash_final(&H).Lo;
}
