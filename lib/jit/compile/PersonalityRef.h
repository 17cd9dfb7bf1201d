/*===- lib/jit/compile/PersonalityRef.h - A JITDylib's DW.ref cells --------===*/
/* Code generation gives every object whose code has a personality function
 * PERS a weak hidden DW.ref.PERS: the cell through which its unwind info
 * names the personality. A body compiled on its own, as the lazy split's are,
 * is linked under a responsibility that names only the body, and
 * RuntimeDyld's object layer (the host Jit's) then looks the object's weak
 * DW.ref.PERS up instead of defining it, and finds nothing ("Symbols not
 * found: DW.ref.__gxx_personality_v0"); a JITDylib keeps the first copy
 * linked for every later object too, and tier-0 code is freed. So before
 * such a body is linked, DW.ref.PERS is defined in its JITDylib once, for
 * good: a module of its own, linked on first use, which every later
 * object's copy gives way to. */

#ifndef ORC_RT_C_LIB_JIT_COMPILE_PERSONALITYREF_H
#define ORC_RT_C_LIB_JIT_COMPILE_PERSONALITYREF_H

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include <stdbool.h>
#include <stddef.h>

/* Whether F has a personality; if so, its name ([*Name, *Name + *Len), not
 * terminated), or *Len 0 if it is not a named function. */
bool orc_rt_jit_personalityOf(LLVMValueRef F, const char **Name, size_t *Len);

/* Defines DW.ref.Personality in JD (nothing if JD has it already, or out of
 * memory: the object's own copy is then looked up, and the link says so). */
void orc_rt_jit_definePersonalityRef(LLVMOrcLLJITRef J, LLVMOrcJITDylibRef JD,
                                     const char *Personality);

#endif
