/*===- lib/jit/tier/TierFronts.c - Entries a tier-up retargets -------------===*/
/* See TierFronts.h. A block of N fronts is C code pages then C pages of
 * pointers, C = the pages N 8-byte fronts need. Front i, at Base + 8i, is
 *
 *     FF 25 <rel32>   jmp *(Base + C + 8i)(%rip)      rel32 = C - 6
 *     CC CC           (never reached)
 *
 * so its pointer is at Front + C, which a retarget reads back from the jump's
 * own rel32. The list node keeps each mapping for dispose. */

#include "jit/tier/TierFronts.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "TierFronts.c: the fronts are written for x86-64"
#endif

struct orc_rt_jit_TierFrontBlock {
  orc_rt_jit_TierFrontBlock *Next;
  unsigned char *Base;
  size_t CodeSize; /* the distance from a front to its pointer */
};

static uint64_t *pointerOf(uint64_t Front) {
  int32_t Rel;
  memcpy(&Rel, (const void *)(uintptr_t)(Front + 2), 4);
  return (uint64_t *)(uintptr_t)(Front + 6 + (int64_t)Rel);
}

uint64_t orc_rt_jit_TierFronts_create(orc_rt_jit_TierFronts *F,
                                      const uint64_t *Targets, size_t N) {
  size_t Page = (size_t)sysconf(_SC_PAGESIZE);
  if (!N || N > SIZE_MAX / 16)
    return 0;
  size_t Code = (N * 8 + Page - 1) / Page * Page;
  if (Code > INT32_MAX)
    return 0;
  orc_rt_jit_TierFrontBlock *B = malloc(sizeof(*B));
  void *Mem = B ? mmap(NULL, 2 * Code, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                : MAP_FAILED;
  if (Mem == MAP_FAILED) {
    free(B);
    return 0;
  }
  unsigned char *C = Mem;
  uint64_t *Pointers = (uint64_t *)(C + Code);
  int32_t Rel = (int32_t)(Code - 6);
  memset(C, 0xCC, Code);
  for (size_t I = 0; I < N; ++I) {
    unsigned char *S = C + 8 * I;
    S[0] = 0xFF, S[1] = 0x25;
    memcpy(S + 2, &Rel, 4);
    Pointers[I] = Targets[I];
  }
  /* The pointers are written before the code can run (mprotect, and the
   * caller's publication of the addresses, order them). */
  if (mprotect(C, Code, PROT_READ | PROT_EXEC)) {
    munmap(Mem, 2 * Code);
    free(B);
    return 0;
  }
  B->Base = C;
  B->CodeSize = Code;
  B->Next = F->Blocks;
  F->Blocks = B;
  return (uint64_t)(uintptr_t)C;
}

/* Release: the new code (linked by JITLink, made executable) is written
 * before a thread that reads the new pointer can jump to it. The front's own
 * load of the pointer is a plain aligned 8-byte load (atomic on x86-64). */
void orc_rt_jit_TierFronts_retarget(uint64_t Front, uint64_t Target) {
  __atomic_store_n(pointerOf(Front), Target, __ATOMIC_RELEASE);
}

bool orc_rt_jit_TierFronts_retargetFrom(uint64_t Front, uint64_t From,
                                        uint64_t Target) {
  return __atomic_compare_exchange_n(pointerOf(Front), &From, Target, false,
                                     __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

uint64_t orc_rt_jit_TierFronts_target(uint64_t Front) {
  return __atomic_load_n(pointerOf(Front), __ATOMIC_ACQUIRE);
}

void orc_rt_jit_TierFronts_dispose(orc_rt_jit_TierFronts *F) {
  while (F->Blocks) {
    orc_rt_jit_TierFrontBlock *B = F->Blocks;
    F->Blocks = B->Next;
    munmap(B->Base, 2 * B->CodeSize);
    free(B);
  }
}
