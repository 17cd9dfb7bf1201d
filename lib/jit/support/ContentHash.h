/*===- lib/jit/support/ContentHash.h - 128-bit hash for object-cache keys -===*/
/* A fast streaming 128-bit hash (two independent 64-bit multiply-rotate lanes,
 * each finished with murmur3's fmix64) over the bytes that decide what code
 * the JIT generates. It guards against accidental collisions between cache
 * entries and against corrupt cache files; it is not cryptographic (whoever
 * can write the cache directory can already choose the code mini-lli runs). */

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_CONTENTHASH_H
#define ORC_RT_C_LIB_JIT_SUPPORT_CONTENTHASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t A, B;     /* the two lanes */
  uint64_t Length;   /* bytes hashed so far */
  uint8_t Tail[8];   /* bytes not yet making up a whole word */
  unsigned TailSize; /* 0..7 */
} orc_rt_jit_ContentHash;

typedef struct {
  uint64_t Hi, Lo;
} orc_rt_jit_Digest;

void orc_rt_jit_ContentHash_init(orc_rt_jit_ContentHash *H);
void orc_rt_jit_ContentHash_update(orc_rt_jit_ContentHash *H, const void *Data,
                                   size_t Size);
/* Hashes S and its terminating NUL, so "ab","c" and "a","bc" differ. */
void orc_rt_jit_ContentHash_updateString(orc_rt_jit_ContentHash *H,
                                         const char *S);
orc_rt_jit_Digest orc_rt_jit_ContentHash_final(const orc_rt_jit_ContentHash *H);

/* One-shot 64-bit checksum of a buffer (the low half of the digest). */
uint64_t orc_rt_jit_checksum(const void *Data, size_t Size);

#endif
