/*===- lib/jit/compile/PersonalityRef.c - A JITDylib's DW.ref cells --------===*/

#include "jit/compile/PersonalityRef.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool orc_rt_jit_personalityOf(LLVMValueRef F, const char **Name, size_t *Len) {
  LLVMValueRef P = LLVMHasPersonalityFn(F) ? LLVMGetPersonalityFn(F) : NULL;
  *Len = 0;
  *Name = P && LLVMIsAFunction(P) ? LLVMGetValueName2(P, Len) : NULL;
  return P != NULL;
}

void orc_rt_jit_definePersonalityRef(LLVMOrcLLJITRef J, LLVMOrcJITDylibRef JD,
                                     const char *Personality) {
  size_t Size = strlen(Personality) + sizeof("DW.ref.");
  char *Ref = malloc(Size);
  if (!Ref)
    return;
  snprintf(Ref, Size, "DW.ref.%s", Personality);
  LLVMContextRef Ctx = LLVMContextCreate();
  LLVMModuleRef M = LLVMModuleCreateWithNameInContext(Ref, Ctx);
  LLVMOrcThreadSafeContextRef TSC =
      LLVMOrcCreateNewThreadSafeContextFromLLVMContext(Ctx);
  if (M) { /* (the LLJIT gives it its data layout) */
    LLVMTypeRef Ptr = LLVMPointerTypeInContext(Ctx, 0);
    LLVMValueRef Pers = LLVMAddFunction(
        M, Personality,
        LLVMFunctionType(LLVMInt32TypeInContext(Ctx), NULL, 0, true));
    LLVMValueRef G = LLVMAddGlobal(M, Ptr, Ref);
    LLVMSetInitializer(G, Pers);
    LLVMSetLinkage(G, LLVMWeakAnyLinkage);
    LLVMSetVisibility(G, LLVMHiddenVisibility);
    LLVMSetGlobalConstant(G, true);
    LLVMOrcThreadSafeModuleRef TSM = LLVMOrcCreateNewThreadSafeModule(M, TSC);
    LLVMErrorRef Err = LLVMOrcLLJITAddLLVMIRModule(J, JD, TSM);
    if (Err)
      LLVMConsumeError(Err); /* (a definition there already wins) */
  }
  LLVMOrcDisposeThreadSafeContext(TSC);
  free(Ref);
}
