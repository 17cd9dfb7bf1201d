/*===- lib/jit/compile/SymbolImport.h - Definitions a lookup elsewhere finds ===*/
/* For the definition generators that link one JITDylib against others
 * (IRDlopen.c's dlopen'ed modules, JITDylibs.c's -jd): define what was found
 * as absolute symbols, or suspend the generator's lookup, look the names up in
 * other JITDylibs asynchronously (no JIT thread blocks) and resume it. And
 * the one blocking lookup the drivers make (Jit.c, RemoteProgram.c), which
 * waits for LLVM-C's asynchronous one. */

#ifndef ORC_RT_C_LIB_JIT_COMPILE_SYMBOLIMPORT_H
#define ORC_RT_C_LIB_JIT_COMPILE_SYMBOLIMPORT_H

#include "jit/support/PtrSet.h"

#include <llvm-c/Orc.h>

#include <stddef.h>
#include <stdint.h>

/* Defines the N pairs in JD as absolute symbols (the names stay the
 * caller's). On failure the symbols stay missing: the link that needed them
 * fails and names them. */
void orc_rt_jit_defineAbsolute(LLVMOrcJITDylibRef JD,
                               LLVMOrcCSymbolMapPairs Pairs, size_t N);

/* Suspends the generator's lookup (*State becomes NULL), looks the N names
 * (each retained for this call) up in the NOrder JITDylibs of Order, weakly,
 * defines those found in JD and resumes the lookup, which reports any still
 * missing. */
LLVMErrorRef orc_rt_jit_importInto(LLVMOrcExecutionSessionRef ES,
                                   LLVMOrcJITDylibRef JD,
                                   LLVMOrcLookupStateRef *State,
                                   LLVMOrcCJITDylibSearchOrder Order,
                                   size_t NOrder,
                                   LLVMOrcCLookupSetElement *Names, size_t N);

/* Looks the N interned names (each reference kept by the caller) up in JD, as
 * required symbols, and waits for the result; Addrs[i] gets each address.
 * If the lookup has not finished when ORC returns from starting it,
 * Unfinished (if not NULL) is called first, on this thread. */
LLVMErrorRef orc_rt_jit_lookupAndWait(LLVMOrcExecutionSessionRef ES,
                                      LLVMOrcJITDylibRef JD,
                                      LLVMOrcSymbolStringPoolEntryRef *Names,
                                      size_t N, uint64_t *Addrs,
                                      void (*Unfinished)(void *Ctx), void *Ctx);

/* The same, each name weakly referenced: one that nothing defines gets 0. */
LLVMErrorRef orc_rt_jit_lookupWeaklyAndWait(
    LLVMOrcExecutionSessionRef ES, LLVMOrcJITDylibRef JD,
    LLVMOrcSymbolStringPoolEntryRef *Names, size_t N, uint64_t *Addrs);

/* Frees S, a set or map whose keys are symbol-pool entries it holds a
 * reference to (each released). */
void orc_rt_jit_PtrSet_freeInterned(orc_rt_jit_PtrSet *S);

#endif
