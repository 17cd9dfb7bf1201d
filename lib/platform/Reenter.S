/*===- lib/platform/Reenter.S - Lazy-compilation re-entry -----------------===*/
/*
 * __orc_rt_sysv_reenter (the controller aliases __orc_rt_reenter to it): the
 * target of a lazy reexport's reentry trampoline, "call __orc_rt_reenter".
 * The return address minus 5 is that trampoline; __orc_rt_resolve (Resolve.c)
 * asks the controller for the body it stands for, which this code then enters
 * in place of returning: the return address is overwritten with the body and
 * every register (all GPRs, x87/SSE state) is restored first, so the body sees
 * exactly the arguments and stack the original call had.
 */
#if defined(__x86_64__)
        .text
        .globl  __orc_rt_sysv_reenter
        .type   __orc_rt_sysv_reenter,@function
        .p2align 4
__orc_rt_sysv_reenter:
        pushq   %rbp
        movq    %rsp, %rbp
        pushq   %rax
        pushq   %rbx
        pushq   %rcx
        pushq   %rdx
        pushq   %rsi
        pushq   %rdi
        pushq   %r8
        pushq   %r9
        pushq   %r10
        pushq   %r11
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, %rbx              /* callee-saved: survives the call */
        andq    $-16, %rsp              /* fxsave64 and the call need it */
        subq    $512, %rsp
        fxsave64 (%rsp)
        movq    8(%rbp), %rdi           /* the trampoline's return address */
        subq    $5, %rdi                /* minus its call: the trampoline */
        call    __orc_rt_resolve
        movq    %rax, 8(%rbp)           /* "return" into the body */
        fxrstor64 (%rsp)
        movq    %rbx, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %r11
        popq    %r10
        popq    %r9
        popq    %r8
        popq    %rdi
        popq    %rsi
        popq    %rdx
        popq    %rcx
        popq    %rbx
        popq    %rax
        popq    %rbp
        ret
        .size   __orc_rt_sysv_reenter, .-__orc_rt_sysv_reenter
#endif
        .section .note.GNU-stack,"",@progbits
