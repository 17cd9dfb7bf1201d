/*===- lib/jit/ir/SplitSupport.h - IR edits for cutting a module into parts ===*/
/* What cutting a module into separately compiled parts needs, whatever the
 * cut: local symbols made external under unique names (so another part can
 * refer to them), function bodies and variable initializers dropped (so a
 * part only declares what another part defines), new parts made like the
 * module they come from. Moving bodies into a part is BodyMover.h. */

#ifndef ORC_RT_C_LIB_JIT_IR_SPLITSUPPORT_H
#define ORC_RT_C_LIB_JIT_IR_SPLITSUPPORT_H

#include <llvm-c/Core.h>

#include <stdbool.h>

/* Gives every local function and variable definition of M a unique
 * external name: NAME.__mini_lli.<ModuleIndex>.<n>. */
void orc_rt_jit_promoteLocals(LLVMModuleRef M, unsigned ModuleIndex);

/* Turns a function definition into an external declaration
 * (Function::deleteBody, which the C API lacks). */
void orc_rt_jit_dropBody(LLVMValueRef F);

/* Turns a variable definition into an external declaration. */
void orc_rt_jit_dropInitializer(LLVMValueRef G);

/* True if the address of one of F's blocks is taken (blockaddress): F cannot
 * be moved away from the code or data holding that address. */
bool orc_rt_jit_hasBlockAddress(LLVMValueRef F);

/* True if M has module-level assembly: what it defines, the IR does not
 * name (only the object it is compiled to does). */
bool orc_rt_jit_hasModuleAsm(LLVMModuleRef M);

/* True for the linkages a definition elsewhere may override (weak,
 * linkonce, common, extern_weak). */
bool orc_rt_jit_isWeakLinkage(LLVMLinkage L);

/* Copies every attribute of From (function, return value, parameters) to
 * To, a function of the same type. */
void orc_rt_jit_copyAttributes(LLVMValueRef From, LLVMValueRef To);

/* Internal or private. */
bool orc_rt_jit_isLocalLinkage(LLVMLinkage L);

/* The variable alias A names (a part of: through GEPs and casts, and other
 * aliases), or NULL if A aliases anything else (a function). */
LLVMValueRef orc_rt_jit_aliasedVariable(LLVMValueRef A);

/* A new empty module in From's context, named Name, like From: same
 * data layout, triple and module flags (PIC level, frame pointers, ...
 * steer code generation). */
LLVMModuleRef orc_rt_jit_newModuleLike(LLVMModuleRef From, const char *Name);

#endif
