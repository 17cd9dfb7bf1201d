/*===- lib/jit/tier/TierFirstCalls.c - Entries that resolve on a call -----===*/
/* See TierFirstCalls.h. Entry i of a block, at Base + 16i:
 *
 *     49 BB <imm64>   movabs $record_i, %r11
 *     41 FF 23        jmp *(%r11)                 (record_i->Trampoline)
 *     CC CC CC        (never reached)
 *
 * Every record's first word is orc_rt_jit_tierFirstCallTrampoline (below),
 * which finds Resolve and Ctx in the record that %r11 names. The records
 * are the block's (malloc'd, read only after the code is made executable). */

#include "jit/tier/TierFirstCalls.h"
#include "jit/support/ArgRegsAsm.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "TierFirstCalls.c: the entries are written for x86-64"
#endif

typedef struct {
  uint64_t Trampoline;                 /* offset 0: where the entry jumps */
  orc_rt_jit_FirstCallResolve Resolve; /* offset 8 */
  void *Ctx;                           /* offset 16 */
} Record;

struct orc_rt_jit_TierFirstCallBlock {
  orc_rt_jit_TierFirstCallBlock *Next;
  unsigned char *Code;
  size_t CodeSize;
  Record *Records;
};

extern char orc_rt_jit_tierFirstCallTrampoline[];

/* %r11 = the record; the stack is the caller's, [rsp] its return address
 * (rsp = 8 mod 16). Saves what may carry arguments (support/ArgRegsAsm.h,
 * as ModuleStubs.c's C path does), calls Resolve(Ctx) on a 16-byte aligned stack, restores, and
 * jumps to what it returned with the caller's frame as it came. */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl orc_rt_jit_tierFirstCallTrampoline\n"
        ".hidden orc_rt_jit_tierFirstCallTrampoline\n"
        ".type orc_rt_jit_tierFirstCallTrampoline,@function\n"
        "orc_rt_jit_tierFirstCallTrampoline:\n"
        "  endbr64\n"
        "  pushq %rbp\n"
        "  movq %rsp, %rbp\n" ORC_RT_JIT_SAVE_ARG_REGS "  movq 16(%r11), %rdi\n"
        "  call *8(%r11)\n"
        "  movq %rax, %r11\n" ORC_RT_JIT_RESTORE_ARG_REGS "  movq %rbp, %rsp\n"
        "  popq %rbp\n"
        "  jmp *%r11\n"
        ".size orc_rt_jit_tierFirstCallTrampoline, "
        ".-orc_rt_jit_tierFirstCallTrampoline\n");

uint64_t orc_rt_jit_TierFirstCalls_create(orc_rt_jit_TierFirstCalls *F,
                                          orc_rt_jit_FirstCallResolve Resolve,
                                          void *const *Ctxs, size_t N) {
  size_t Page = (size_t)sysconf(_SC_PAGESIZE);
  if (!N || N > SIZE_MAX / 32)
    return 0;
  size_t Code = (N * 16 + Page - 1) / Page * Page;
  orc_rt_jit_TierFirstCallBlock *B = malloc(sizeof(*B));
  Record *R = malloc(N * sizeof(*R));
  void *Mem = B && R ? mmap(NULL, Code, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                     : MAP_FAILED;
  if (Mem == MAP_FAILED) {
    free(B);
    free(R);
    return 0;
  }
  unsigned char *C = Mem;
  memset(C, 0xCC, Code);
  for (size_t I = 0; I < N; ++I) {
    R[I] = (Record){(uint64_t)(uintptr_t)orc_rt_jit_tierFirstCallTrampoline,
                    Resolve, Ctxs[I]};
    uint64_t Addr = (uint64_t)(uintptr_t)&R[I];
    unsigned char *E = C + 16 * I;
    E[0] = 0x49, E[1] = 0xBB;
    memcpy(E + 2, &Addr, 8);
    E[10] = 0x41, E[11] = 0xFF, E[12] = 0x23;
  }
  /* The records are written before the code can run (mprotect, and the
   * caller's publication of the addresses, order them). */
  if (mprotect(C, Code, PROT_READ | PROT_EXEC)) {
    munmap(Mem, Code);
    free(B);
    free(R);
    return 0;
  }
  B->Code = C;
  B->CodeSize = Code;
  B->Records = R;
  B->Next = F->Blocks;
  F->Blocks = B;
  return (uint64_t)(uintptr_t)C;
}

void orc_rt_jit_TierFirstCalls_dispose(orc_rt_jit_TierFirstCalls *F) {
  while (F->Blocks) {
    orc_rt_jit_TierFirstCallBlock *B = F->Blocks;
    F->Blocks = B->Next;
    munmap(B->Code, B->CodeSize);
    free(B->Records);
    free(B);
  }
}
