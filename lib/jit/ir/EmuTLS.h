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

/* The thread_locals M declares, for a loader that refuses a module one of
 * whose declared thread_locals nothing defines (as glibc's dlopen refuses an
 * undefined data symbol), instead of ending the process at its first use:
 * before the lowering, M gets an exported constant ORC_RT_JIT_TLS_IMPORTS,
 * {i64 N, [N x {ptr Ctl, ptr Name}]}, Ctl the declared NAME's control
 * variable (weak: null if no JIT'd module defines it), Name its name, NUL
 * terminated. Nothing if M declares none; an error only if out of memory. */
#define ORC_RT_JIT_TLS_IMPORTS "__orc_rt_tls_imports"
orc_rt_ErrorRef orc_rt_jit_listTLSImports(LLVMModuleRef M);

/* Checks a linked import table (above) at Table, as the lowering's runtime
 * half would find each variable: an error naming the first that nothing
 * defines. */
orc_rt_ErrorRef orc_rt_jit_checkTLSImports(const void *Table);

/* The function the lowered code calls for a thread_local it declares,
 * (ptr Ctl, ptr Name) -> ptr, which every loader defines for its modules. */
#define ORC_RT_JIT_TLS_ADDRESS "__orc_rt_jit_tls_address"

/* The lowering's runtime half: what a loader's ORC_RT_JIT_TLS_ADDRESS
 * does. A thread_local NAME a module
 * declares lives, for the calling thread, at __emutls_get_address(Ctl) if
 * Ctl (@__emutls_v.NAME, weak) is not null -- another JIT'd module defines
 * it -- else at the process's native NAME (dlsym: libstdc++'s
 * __once_callable, glibc's errno). NULL if neither has it. */
void *orc_rt_jit_emuTLSAddress(void *Ctl, const char *Name);

#endif
