/*===- lib/jit/ir/KeptVariables.h - Variables that keep their storage across a reload ===*/
/* A hot reload keeps the variables whose name and type did not change: the
 * new version uses the old version's storage instead of its own (one storage
 * across versions, so code still running in the old version and code in the
 * new one see the same variable). Done on the IR before it is optimized:
 *
 *   keepVariables   every kept variable's definition becomes a declaration
 *                   of keptSymbolName(V) (the loader defines that name at the
 *                   storage); every keepable variable gets a companion named
 *                   varCompanionName(V), by which the loader learns that the
 *                   version has it and where it lives: an exported alias of
 *                   the variable, or, for a kept one (a declaration, which
 *                   an alias cannot name), an exported constant holding the
 *                   kept storage's address. An alias adds only a symbol; a
 *                   constant adds a relocated data section to the link, which
 *                   cost a small module's load/unload cycle about 10%.
 *
 * Keepable: a named, writable, non-thread-local variable the module defines
 * that no alias names (constants start from the new module's initializers;
 * so do thread-locals, whose storage is per thread, and aliased variables:
 * a kept variable is a declaration, which an alias cannot name). A variable's type is its layout and its
 * alignment (typeKey), so a struct whose fields changed under the same name
 * is not the same type. */

#ifndef ORC_RT_C_LIB_JIT_IR_KEPTVARIABLES_H
#define ORC_RT_C_LIB_JIT_IR_KEPTVARIABLES_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>

/* A variable, by what decides whether a later version keeps it. */
typedef struct {
  char *Name;    /* the IR name */
  char *TypeKey; /* typeKey() of its value type */
  bool External; /* other modules and the host see it by name */
  /* Read from a companion's name: this version kept the variable (the
   * companion is the constant holding the kept storage's address), rather
   * than defining it (the companion is an alias of it). */
  bool Kept;
} orc_rt_jit_KeptVar;

/* The layout of G's value type and G's alignment as a string without ':' or
 * blanks ("i32/a4", "[4xi8]/a1", "{i32,ptr}/a8", "<{i8,i64}>/a1", named
 * structs spelled out; no "/a" if G has no alignment set), or NULL
 * if G cannot be kept (not a keepable variable, or a type with no fixed
 * layout) or for memory. Free with free(). */
char *orc_rt_jit_typeKey(LLVMValueRef G);

/* Keeps the N variables in Keep that M defines with the same name and type,
 * and gives every keepable variable of M its companion (above). An error
 * only for memory. */
orc_rt_ErrorRef orc_rt_jit_keepVariables(LLVMModuleRef M,
                                         const orc_rt_jit_KeptVar *Keep,
                                         size_t N);

/* "__orc_rt_var:EA:<TypeKey>:<Name>" ("L" for a variable not External; "K"
 * for one V->Kept, whose companion is the constant, "A" for the alias), and
 * its inverse: false if Symbol is not a companion's name. NULL for memory;
 * Out's strings are the caller's (KeptVar_dispose). The loader reads the
 * form from the name, never by redoing keepVariables' decision. */
char *orc_rt_jit_varCompanionName(const orc_rt_jit_KeptVar *V);
bool orc_rt_jit_parseVarCompanion(const char *Symbol, orc_rt_jit_KeptVar *Out);

/* "__orc_rt_kept:<TypeKey>:<Name>": what a kept variable is declared as. */
char *orc_rt_jit_keptSymbolName(const orc_rt_jit_KeptVar *V);

void orc_rt_jit_KeptVar_dispose(orc_rt_jit_KeptVar *V);

#endif
