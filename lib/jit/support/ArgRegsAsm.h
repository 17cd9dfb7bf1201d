/*===- lib/jit/support/ArgRegsAsm.h - Saving what may carry arguments ----===*/
/* For hand-written x86-64 entries that call C code on the way into a
 * function they were called in place of (modules/ModuleStubs.c's C path,
 * tier/TierFirstCalls.c): assembler text that, after "pushq %rbp; movq %rsp,
 * %rbp", saves every register that may carry an argument (rdi rsi rdx rcx r8
 * r9, rax for a variadic call's vector count, r10 for the static chain,
 * xmm0-7) in a 192-byte frame (16-byte aligned), and puts them back before
 * "movq %rbp, %rsp; popq %rbp". */

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_ARGREGSASM_H
#define ORC_RT_C_LIB_JIT_SUPPORT_ARGREGSASM_H

#define ORC_RT_JIT_SAVE_ARG_REGS                                               \
  "  subq $192, %rsp\n"                                                        \
  "  movq %rdi, 0(%rsp)\n"                                                     \
  "  movq %rsi, 8(%rsp)\n"                                                     \
  "  movq %rdx, 16(%rsp)\n"                                                    \
  "  movq %rcx, 24(%rsp)\n"                                                    \
  "  movq %r8, 32(%rsp)\n"                                                     \
  "  movq %r9, 40(%rsp)\n"                                                     \
  "  movq %rax, 48(%rsp)\n"                                                    \
  "  movq %r10, 56(%rsp)\n"                                                    \
  "  movaps %xmm0, 64(%rsp)\n"                                                 \
  "  movaps %xmm1, 80(%rsp)\n"                                                 \
  "  movaps %xmm2, 96(%rsp)\n"                                                 \
  "  movaps %xmm3, 112(%rsp)\n"                                                \
  "  movaps %xmm4, 128(%rsp)\n"                                                \
  "  movaps %xmm5, 144(%rsp)\n"                                                \
  "  movaps %xmm6, 160(%rsp)\n"                                                \
  "  movaps %xmm7, 176(%rsp)\n"

#define ORC_RT_JIT_RESTORE_ARG_REGS                                            \
  "  movq 0(%rsp), %rdi\n"                                                     \
  "  movq 8(%rsp), %rsi\n"                                                     \
  "  movq 16(%rsp), %rdx\n"                                                    \
  "  movq 24(%rsp), %rcx\n"                                                    \
  "  movq 32(%rsp), %r8\n"                                                     \
  "  movq 40(%rsp), %r9\n"                                                     \
  "  movq 48(%rsp), %rax\n"                                                    \
  "  movq 56(%rsp), %r10\n"                                                    \
  "  movaps 64(%rsp), %xmm0\n"                                                 \
  "  movaps 80(%rsp), %xmm1\n"                                                 \
  "  movaps 96(%rsp), %xmm2\n"                                                 \
  "  movaps 112(%rsp), %xmm3\n"                                                \
  "  movaps 128(%rsp), %xmm4\n"                                                \
  "  movaps 144(%rsp), %xmm5\n"                                                \
  "  movaps 160(%rsp), %xmm6\n"                                                \
  "  movaps 176(%rsp), %xmm7\n"

#endif
