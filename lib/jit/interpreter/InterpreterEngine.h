/*===- lib/jit/interpreter/InterpreterEngine.h - -force-interpreter: LLVM's interpreter ===*/
/* The program's modules on LLVM's IR interpreter (llvm-c/ExecutionEngine.h),
 * as lli -force-interpreter runs them. Nothing is compiled: a "function
 * address" this engine hands out is the function's LLVMValueRef, and the
 * driver calls through orc_rt_jit_Interpreter_call* instead of jumping to it.
 * The modules are linked into one (the interpreter does not look across
 * modules). What the interpreter does for itself, and so differs from the
 * JITs (see docs/CommandGuide/mini-lli.md): external calls go through libffi
 * to the process's symbols; atexit and exit are the interpreter's own, as in
 * lli (the program ends with orc_rt_jit_Interpreter_exit), and the
 * destructors are given to that atexit to keep native order; it cannot run
 * code re-entered from a native callback, nor on two threads. Before it runs,
 * the linked module is rewritten where LLVM's interpreter alone would get a
 * program wrong (narrow external results, min/max intrinsics, glibc's scanf
 * names, undefined weak symbols, bool arguments to externals, C++'s
 * __cxa_atexit and __dso_handle; InterpreterEngine.c). */

#ifndef ORC_RT_C_LIB_JIT_INTERPRETER_INTERPRETERENGINE_H
#define ORC_RT_C_LIB_JIT_INTERPRETER_INTERPRETERENGINE_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct orc_rt_jit_Interpreter orc_rt_jit_Interpreter;

orc_rt_ErrorRef orc_rt_jit_Interpreter_create(orc_rt_jit_Interpreter **Result);

/* Takes M and its context. */
orc_rt_ErrorRef orc_rt_jit_Interpreter_addModule(orc_rt_jit_Interpreter *E,
                                                 LLVMContextRef Ctx,
                                                 LLVMModuleRef M);

/* A handle for the function Name defines (not an address). */
orc_rt_ErrorRef orc_rt_jit_Interpreter_lookup(orc_rt_jit_Interpreter *E,
                                              const char *Name,
                                              uint64_t *Handle);

/* Runs the function Handle names as void(void). */
void orc_rt_jit_Interpreter_callVoid(orc_rt_jit_Interpreter *E,
                                     uint64_t Handle);

/* Runs it as main(argc, argv, envp), whatever of the three it takes. */
int orc_rt_jit_Interpreter_callMain(orc_rt_jit_Interpreter *E, uint64_t Handle,
                                    int Argc, char **Argv, char **Envp);

/* Gives the destructors Dtors (handles, by priority: Dtors[N-1] runs first)
 * to the interpreter's atexit, so that its exit runs
 * them after the program's handlers, as natively. Sets *Handle to the function
 * that registers them, to run before the constructors; false (the caller
 * runs them itself) if the module's atexit or exit is not the interpreter's
 * (defined, or declared with another prototype). */
bool orc_rt_jit_Interpreter_deferDtors(orc_rt_jit_Interpreter *E,
                                       const uint64_t *Dtors, size_t N,
                                       size_t NumPrioritized, uint64_t *Handle);

/* Ends the program: the interpreter's exit(Status), which runs the handlers
 * interpreted code registered with atexit (and the destructors given to it),
 * newest first, then ends the process with Status. Returns only if the
 * module's exit has another prototype. */
void orc_rt_jit_Interpreter_exit(orc_rt_jit_Interpreter *E, int Status);

void orc_rt_jit_Interpreter_dispose(orc_rt_jit_Interpreter *E);

#endif
