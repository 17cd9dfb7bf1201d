/*===- lib/jit/JITDylibNames.h - lli's -jd: hidden names stay home --------===*/
/* lli's -jd puts the -extra-modules that follow it in a JITDylib of that name
 * (`-jd main` is the input's); the main JITDylib and each named one list each
 * other in their link order, so a module sees the exported symbols of every
 * JITDylib but the hidden ones of its own only.
 *
 * mini-lli keeps one JITDylib and gives the same answers by renaming: in each
 * module, a hidden definition, and a declaration of a name that a module of
 * the same JITDylib defines hidden, get the suffix ".__mini_lli_jd.<n>" (n
 * numbers the JITDylib; errors show the user's name, see
 * orc_rt_jit_restoreUserNames). A reference to another JITDylib's hidden
 * symbol is then not found, as in lli. (LLVM-C cannot set a JITDylib's link
 * order, and lookups between JITDylibs through definition generators could
 * wait on each other when modules refer to each other both ways.) */

#ifndef ORC_RT_C_LIB_JIT_JITDYLIBNAMES_H
#define ORC_RT_C_LIB_JIT_JITDYLIBNAMES_H

#include "jit/Options.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

typedef struct orc_rt_jit_JITDylibNames orc_rt_jit_JITDylibNames;

/* Reads each -extra-module for its hidden definitions. *Out is NULL (nothing
 * to rename) without -jd. */
orc_rt_ErrorRef orc_rt_jit_JITDylibNames_create(orc_rt_jit_JITDylibNames **Out,
                                                const orc_rt_jit_Options *O);

/* Renames in module Index (0: the input, I + 1: -extra-module I) as above.
 * Modules must come in order (the input's hidden definitions are learnt
 * here). N may be NULL. */
orc_rt_ErrorRef orc_rt_jit_JITDylibNames_apply(orc_rt_jit_JITDylibNames *N,
                                               unsigned Index, LLVMModuleRef M);

void orc_rt_jit_JITDylibNames_dispose(orc_rt_jit_JITDylibNames *N);

#endif
