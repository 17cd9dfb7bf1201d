/*===- lib/jit/ir/Module.h - Reading and preparing the program's IR -------===*/
/* Reads .ll or .bc (or stdin), verifies it, optionally runs a pass pipeline,
 * and takes llvm.global_ctors / llvm.global_dtors out of each module so the
 * driver can run them itself, in lli's order, each under callManagedCode. */

#ifndef ORC_RT_C_LIB_JIT_IR_MODULE_H
#define ORC_RT_C_LIB_JIT_IR_MODULE_H

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include <stdbool.h>
#include <stddef.h>

/* Reads Path ("-" is stdin) into a buffer. */
orc_rt_ErrorRef orc_rt_jit_readInput(const char *Path,
                                     LLVMMemoryBufferRef *Buf);

/* Parses (.ll or .bc) and verifies Buf, read from Path, into a new context.
 * Consumes Buf. */
orc_rt_ErrorRef orc_rt_jit_parseModule(const char *Path,
                                       LLVMMemoryBufferRef Buf,
                                       LLVMContextRef *Ctx, LLVMModuleRef *M);

/* As orc_rt_jit_parseModule, but a bitcode module whose functions a lazy
 * split can take one at a time (see orc_rt_jit_splitForLazy) is read
 * lazily: its function bodies stay unread (materializable) until the split
 * moves each out of it on first lookup, where each is read and verified
 * (compile/LazyMaterialize.h). Anything else is parsed whole, as
 * orc_rt_jit_parseModule does. A lazily read module holds: no module
 * assembly, no ifunc, no alias but of a variable, no thread_local variable
 * (their lowering rewrites every body) and no blockaddress in a variable's
 * initializer, no -fsanitize=kcfi or -fsanitize=function code. A body that
 * cannot be read later (a corrupt file) is a fatal error of LLVM's: the C API
 * reads one only through a legacy pass manager's run. Consumes Buf. */
/* *Holder gets the same module read lazily again, in the same context, to
 * hold the bodies (orc_rt_jit_splitForLazy), or NULL if M was read whole. */
orc_rt_ErrorRef orc_rt_jit_parseModuleLazily(const char *Path,
                                             LLVMMemoryBufferRef Buf,
                                             LLVMContextRef *Ctx,
                                             LLVMModuleRef *M,
                                             LLVMModuleRef *Holder);

/* True if F is a definition whose body is not read yet (a function of a
 * module orc_rt_jit_parseModuleLazily read lazily). */
bool orc_rt_jit_isUnread(LLVMValueRef F);

/* Runs an LLVM new-pass-manager pipeline (e.g. "default<O2>") over M. */
orc_rt_ErrorRef orc_rt_jit_runPasses(LLVMModuleRef M, const char *Pipeline,
                                     LLVMTargetMachineRef TM);

/* A constructor or destructor: a symbol to look up and its priority. */
typedef struct {
  unsigned Priority;
  /* Its position in its list (across the modules pushed to it), for a
   * stable sort. */
  unsigned Order;
  char *Symbol;
  unsigned Module; /* its module's index (its JITDylib's, see JITDylibs.h) */
} orc_rt_jit_Init;

typedef struct {
  orc_rt_jit_Init *Items;
  size_t Size, Capacity;
} orc_rt_jit_InitList;

/* Moves M's llvm.global_ctors / dtors entries into the lists, giving local
 * functions unique external names (so they can be looked up), and deletes the
 * two arrays from M. ModuleIndex makes the names unique across modules. */
orc_rt_ErrorRef orc_rt_jit_takeInitializers(LLVMModuleRef M,
                                            unsigned ModuleIndex,
                                            orc_rt_jit_InitList *Ctors,
                                            orc_rt_jit_InitList *Dtors);

/* Appends a copy of Symbol; Order is the position of the call. */
orc_rt_ErrorRef orc_rt_jit_InitList_push(orc_rt_jit_InitList *L,
                                         unsigned Priority, const char *Symbol);

/* Sorts by priority, keeping the module order among equal priorities. */
void orc_rt_jit_InitList_sort(orc_rt_jit_InitList *L);
void orc_rt_jit_InitList_dispose(orc_rt_jit_InitList *L);

/* Function names for reports: Lookup is the symbol to look up, Display what to
 * print. Local functions get an external alias so they can be found. */
typedef struct {
  char *Lookup, *Display;
  unsigned Module; /* as orc_rt_jit_Init's */
} orc_rt_jit_Name;

typedef struct {
  orc_rt_jit_Name *Items;
  size_t Size, Capacity;
} orc_rt_jit_NameList;

orc_rt_ErrorRef orc_rt_jit_collectFunctionNames(LLVMModuleRef M,
                                                unsigned ModuleIndex,
                                                bool AddAliases,
                                                orc_rt_jit_NameList *Out);
orc_rt_ErrorRef orc_rt_jit_NameList_push(orc_rt_jit_NameList *L,
                                         const char *Lookup,
                                         const char *Display);
void orc_rt_jit_NameList_dispose(orc_rt_jit_NameList *L);

#endif
