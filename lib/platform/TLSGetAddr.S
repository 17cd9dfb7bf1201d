/*===- lib/platform/TLSGetAddr.S - __tls_get_addr for JIT'd code ----------===*/
/*
 * ___orc_rt_elfnix_tls_get_addr(TLSInfoEntry *E in %rdi) -> %rax: the address
 * of this thread's copy of E's variable (TLS.c). The controller renames JIT'd
 * code's __tls_get_addr calls to this name. Every other caller-saved register
 * (the integer argument and scratch registers and %xmm0-15) is preserved, so
 * code generated under any assumption about what the call clobbers works.
 */
#if defined(__x86_64__)
        .text
        .globl  ___orc_rt_elfnix_tls_get_addr
        .type   ___orc_rt_elfnix_tls_get_addr,@function
        .p2align 4
___orc_rt_elfnix_tls_get_addr:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        andq    $-16, %rsp              /* the call below needs alignment */
        subq    $320, %rsp
        movq    %rcx,   0(%rsp)
        movq    %rdx,   8(%rsp)
        movq    %rsi,  16(%rsp)
        movq    %rdi,  24(%rsp)
        movq    %r8,   32(%rsp)
        movq    %r9,   40(%rsp)
        movq    %r10,  48(%rsp)
        movq    %r11,  56(%rsp)
        movdqa  %xmm0,  64(%rsp)
        movdqa  %xmm1,  80(%rsp)
        movdqa  %xmm2,  96(%rsp)
        movdqa  %xmm3, 112(%rsp)
        movdqa  %xmm4, 128(%rsp)
        movdqa  %xmm5, 144(%rsp)
        movdqa  %xmm6, 160(%rsp)
        movdqa  %xmm7, 176(%rsp)
        movdqa  %xmm8, 192(%rsp)
        movdqa  %xmm9, 208(%rsp)
        movdqa  %xmm10, 224(%rsp)
        movdqa  %xmm11, 240(%rsp)
        movdqa  %xmm12, 256(%rsp)
        movdqa  %xmm13, 272(%rsp)
        movdqa  %xmm14, 288(%rsp)
        movdqa  %xmm15, 304(%rsp)
        call    __orc_rt_elfnix_tls_get_addr_impl
        movq     0(%rsp), %rcx
        movq     8(%rsp), %rdx
        movq    16(%rsp), %rsi
        movq    24(%rsp), %rdi
        movq    32(%rsp), %r8
        movq    40(%rsp), %r9
        movq    48(%rsp), %r10
        movq    56(%rsp), %r11
        movdqa   64(%rsp), %xmm0
        movdqa   80(%rsp), %xmm1
        movdqa   96(%rsp), %xmm2
        movdqa  112(%rsp), %xmm3
        movdqa  128(%rsp), %xmm4
        movdqa  144(%rsp), %xmm5
        movdqa  160(%rsp), %xmm6
        movdqa  176(%rsp), %xmm7
        movdqa  192(%rsp), %xmm8
        movdqa  208(%rsp), %xmm9
        movdqa  224(%rsp), %xmm10
        movdqa  240(%rsp), %xmm11
        movdqa  256(%rsp), %xmm12
        movdqa  272(%rsp), %xmm13
        movdqa  288(%rsp), %xmm14
        movdqa  304(%rsp), %xmm15
        movq    %rbp, %rsp
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   ___orc_rt_elfnix_tls_get_addr, .-___orc_rt_elfnix_tls_get_addr
#endif
        .section .note.GNU-stack,"",@progbits
