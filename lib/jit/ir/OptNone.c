/*===- lib/jit/ir/OptNone.c - clang -O0's optnone as unoptimized input ----===*/

#include "jit/ir/OptNone.h"

bool orc_rt_jit_dropO0OptNone(LLVMModuleRef M) {
  unsigned Kind = LLVMGetEnumAttributeKindForName("optnone", 7);
  bool Any = false;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F)) {
    if (LLVMIsDeclaration(F))
      continue;
    if (!LLVMGetEnumAttributeAtIndex(F, LLVMAttributeFunctionIndex, Kind))
      return false; /* a function without it: the marks are the user's */
    Any = true;
  }
  for (LLVMValueRef F = LLVMGetFirstFunction(M); Any && F;
       F = LLVMGetNextFunction(F))
    LLVMRemoveEnumAttributeAtIndex(F, LLVMAttributeFunctionIndex, Kind);
  return Any;
}
