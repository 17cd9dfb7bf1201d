/*===- lib/jit/compile/CallOnceGuard.h - call_once state across lazy compiles ===*/
/* libstdc++'s std::call_once passes the callable through two thread-locals
 * (std::__once_callable, std::__once_call) and clears them when any
 * std::call_once on the thread finishes. In lazy mode a JIT'd function may be
 * compiled on its first call from inside a call_once callable -- and LLVM's
 * compiler itself uses std::call_once, wiping the program's values. So in
 * lazy mode every compilation saves the two values first (IR transform layer)
 * and puts them back when the object is ready (object transform layer). */

#ifndef ORC_RT_C_LIB_JIT_COMPILE_CALLONCEGUARD_H
#define ORC_RT_C_LIB_JIT_COMPILE_CALLONCEGUARD_H

#include <llvm-c/LLJIT.h>

/* The same by hand, for a compile on the calling thread (host/HostLazy.c):
 * save before compiling, restore once the object is linked. Nests. */
void orc_rt_jit_CallOnce_save(void);
void orc_rt_jit_CallOnce_restore(void);

/* Installs the two transforms on J. Each layer holds one transform: Then
 * (if not NULL) runs after the guard's IR transform, with ThenCtx, and
 * ObjThen after its object transform, with ObjThenCtx. */
void orc_rt_jit_installCallOnceGuard(
    LLVMOrcLLJITRef J, LLVMOrcIRTransformLayerTransformFunction Then,
    void *ThenCtx, LLVMOrcObjectTransformLayerTransformFunction ObjThen,
    void *ObjThenCtx);

#endif
