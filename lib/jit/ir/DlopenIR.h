/*===- lib/jit/ir/DlopenIR.h - Preparing a module's IR for dlopen ---------===*/
/* What dlopen needs from a module's IR before it is compiled: the names it
 * exports (as a shared library's dynamic symbol table would: defined,
 * external, not hidden), which of them are functions, and a per-module
 * `atexit` (as glibc links one into every shared object), so handlers the
 * module registers run when it is unloaded. */

#ifndef ORC_RT_C_LIB_JIT_IR_DLOPENIR_H
#define ORC_RT_C_LIB_JIT_IR_DLOPENIR_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char *Name;
  bool IsFunction;
  /* A function whose arguments and result all travel in registers (x86-64
   * SysV: at most 6 integer/pointer and 8 float/double arguments, none by
   * value in memory, not variadic; a result of at most two such scalars). */
  bool RegsOnly;
  bool
      FloatArgs; /* takes a float/double/vector argument (or may: not RegsOnly) */
} orc_rt_jit_Export;

typedef struct {
  orc_rt_jit_Export *Items;
  size_t Size;
} orc_rt_jit_ExportList;

/* F's arguments and result all travel in registers (RegsOnly above); then
 * *FloatArgs says whether it takes a float/double argument. */
bool orc_rt_jit_registersOnly(LLVMValueRef F, bool *FloatArgs);

/* GV is one of the names collectExports gives: defined, not internal,
 * private or appending, not hidden, named and not "llvm.*". */
bool orc_rt_jit_isExported(LLVMValueRef GV);

orc_rt_ErrorRef orc_rt_jit_collectExports(LLVMModuleRef M,
                                          orc_rt_jit_ExportList *Out);
void orc_rt_jit_ExportList_dispose(orc_rt_jit_ExportList *L);

/* A function whose address escapes inside the module (a callback, a
 * vtable slot, a pointer stored or passed on): every such use now names
 * Stub, a declaration the loader defines as the function's token-taking stub,
 * while direct calls keep calling the function. Target is the name the
 * function's code is looked up by (local functions get a unique hidden
 * external name). */
typedef struct {
  char *Stub, *Target;
  char *Display; /* the function's name in the source, for messages */
  bool RegsOnly, FloatArgs;
} orc_rt_jit_Escape;

typedef struct {
  orc_rt_jit_Escape *Items;
  size_t Size;
} orc_rt_jit_EscapeList;

/* Routes every escaping use of M's functions through a stub (see above).
 * Functions used in ways a declaration cannot stand in for (an alias or
 * ifunc target, a personality function, blockaddress and the like) keep
 * their escaping uses: docs/Design.md says what that means. */
orc_rt_ErrorRef orc_rt_jit_routeEscapesThroughStubs(LLVMModuleRef M,
                                                    orc_rt_jit_EscapeList *Out);
void orc_rt_jit_EscapeList_dispose(orc_rt_jit_EscapeList *L);

/* If M declares atexit, defines it (internal) as
 * __cxa_atexit(Fn, NULL, &__dso_handle), as glibc's libc_nonshared does. */
void orc_rt_jit_defineModuleAtexit(LLVMModuleRef M);

#endif
