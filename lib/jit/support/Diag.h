/*===- lib/jit/support/Diag.h - LLVM errors and diagnostics as runtime errors ===*/
/* Turns LLVM-C errors and diagnostic strings into orc_rt_ErrorRef, keeping
 * LLVM's words and moving "file:line:col" to the front of the message. */

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_DIAG_H
#define ORC_RT_C_LIB_JIT_SUPPORT_DIAG_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>

/* Gives mini-lli's renamed symbols their names in the user's module back, in
 * place: "f$body" (a lazily compiled body; "f$tier0code" and the like for
 * tiered compilation) and "x.__mini_lli.1.2" (a local
 * symbol made unique for a split) become "f" and "x"; the program's
 * JITDylib, "<program>" to ORC, is "main", as lli's. */
void orc_rt_jit_restoreUserNames(char *Msg);

/* Consumes E (may be NULL, giving NULL). Messages name the user's symbols
 * (see orc_rt_jit_restoreUserNames). Prefix, if not NULL, goes first. */
orc_rt_ErrorRef orc_rt_jit_fromLLVMError(LLVMErrorRef E, const char *Prefix);

/* Turns an SMDiagnostic print-out ("file:1:2: error: msg\nline\n  ^") into
 * "file:1:2: msg\nline\n  ^". Consumes Msg (an LLVM message string). */
orc_rt_ErrorRef orc_rt_jit_fromDiagnostic(char *Msg);

/* An LLVMContext diagnostic handler whose Ctx is a char **: keeps the first
 * error's description there (free it with LLVMDisposeMessage). LLVM's
 * default handler would print it and exit the process. */
void orc_rt_jit_keepFirstError(LLVMDiagnosticInfoRef DI, void *Ctx);

#endif
