/*===- lib/jit/ir/WeakRefs.c - Undefined weak references, before RuntimeDyld -===*/

#include "jit/ir/WeakRefs.h"

#include <string.h>

static bool definedIn(LLVMModuleRef M, const char *Name) {
  LLVMValueRef G = LLVMGetNamedFunction(M, Name);
  if (!G)
    G = LLVMGetNamedGlobal(M, Name);
  return (G && !LLVMIsDeclaration(G)) ||
         LLVMGetNamedGlobalAlias(M, Name, strlen(Name));
}

orc_rt_ErrorRef orc_rt_jit_nullUndefinedWeak(LLVMModuleRef M,
                                             const LLVMModuleRef *Modules,
                                             size_t NumModules,
                                             orc_rt_jit_WeakResolver Resolve,
                                             void *Ctx) {
  orc_rt_ErrorRef Err = NULL;
  for (int Kind = 0; Kind < 2 && !Err; ++Kind) {
    LLVMValueRef Next;
    for (LLVMValueRef G = Kind ? LLVMGetFirstGlobal(M)
                               : LLVMGetFirstFunction(M);
         G && !Err; G = Next) {
      Next = Kind ? LLVMGetNextGlobal(G) : LLVMGetNextFunction(G);
      if (!LLVMIsDeclaration(G) || LLVMGetLinkage(G) != LLVMExternalWeakLinkage)
        continue;
      const char *Name = LLVMGetValueName(G);
      bool Defined = false;
      for (size_t I = 0; I < NumModules && !Defined; ++I)
        Defined = definedIn(Modules[I], Name);
      if (!Defined)
        Err = Resolve(Name, &Defined, Ctx);
      if (Defined || Err)
        continue;
      LLVMReplaceAllUsesWith(G, LLVMConstNull(LLVMTypeOf(G)));
      if (Kind)
        LLVMDeleteGlobal(G);
      else
        LLVMDeleteFunction(G);
    }
  }
  return Err;
}
