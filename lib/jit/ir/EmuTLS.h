/*===- lib/jit/ir/EmuTLS.h - thread_local variables without a TLS runtime -===*/
/* JITLink cannot link the static TLS models (R_X86_64_TPOFF32 ...) without
 * an ORC runtime, and the LLVM-C API cannot ask for emulated TLS in codegen.
 * So the IR is rewritten the way codegen would for -femulated-tls: each
 * thread_local @x becomes a control variable @__emutls_v.x (plus a template
 * @__emutls_t.x) and every access becomes __emutls_get_address(@__emutls_v.x),
 * which the process (libgcc_s) provides. */

#ifndef ORC_RT_C_LIB_JIT_IR_EMUTLS_H
#define ORC_RT_C_LIB_JIT_IR_EMUTLS_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

/* The name of the thread_local Name's (Len bytes) control variable: @x's is
 * @__emutls_v.x, what a module that defines x defines and exports once
 * lowered. malloc'd; NULL if out of memory. */
char *orc_rt_jit_emuTLSControlName(const char *Name, size_t Len);

/* Rewrites M in place. M must already carry the JIT's data layout. */
orc_rt_ErrorRef orc_rt_jit_lowerEmulatedTLS(LLVMModuleRef M);

/* The lowering's runtime half: what a loader defines as
 * __mini_lli_tls_address for its modules. A thread_local NAME a module
 * declares lives, for the calling thread, at __emutls_get_address(Ctl) if
 * Ctl (@__emutls_v.NAME, weak) is not null -- another JIT'd module defines
 * it -- else at the process's native NAME (dlsym: libstdc++'s
 * __once_callable, glibc's errno). NULL if neither has it. */
void *orc_rt_jit_emuTLSAddress(void *Ctl, const char *Name);

#endif
