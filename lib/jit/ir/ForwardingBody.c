/*===- lib/jit/ir/ForwardingBody.c - A body that only calls elsewhere -----===*/
/* See ForwardingBody.h. The old blocks move into a scratch function that is
 * then deleted (deleting a function drops its blocks' references to each
 * other first, which deleting blocks one by one through LLVM-C cannot). */

#include "jit/ir/ForwardingBody.h"
#include "jit/ir/SplitSupport.h"

#include <stdlib.h>

enum { MaxAttrs = 32 };

/* True if no parameter of F has more than MaxAttrs attributes (all of them
 * must reach the call: the ABI ones say how each argument is passed). */
static bool paramsFit(LLVMValueRef F) {
  unsigned N = LLVMCountParams(F);
  for (unsigned I = 1; I <= N; ++I)
    if (LLVMGetAttributeCountAtIndex(F, I) > MaxAttrs)
      return false;
  return true;
}

/* Gives Call the parameter attributes of F (paramsFit). */
static void copyParamAttributes(LLVMValueRef F, LLVMValueRef Call) {
  unsigned N = LLVMCountParams(F);
  for (unsigned I = 1; I <= N; ++I) {
    LLVMAttributeRef Attrs[MaxAttrs];
    unsigned Count = LLVMGetAttributeCountAtIndex(F, I);
    if (Count)
      LLVMGetAttributesAtIndex(F, I, Attrs);
    for (unsigned K = 0; K < Count; ++K)
      LLVMAddCallSiteAttribute(Call, I, Attrs[K]);
  }
}

bool orc_rt_jit_makeForwardingBody(LLVMValueRef F, const char *Target) {
  LLVMTypeRef FT = LLVMGlobalGetValueType(F);
  if (LLVMIsFunctionVarArg(FT) || LLVMIsDeclaration(F) || !paramsFit(F))
    return false;
  LLVMModuleRef M = LLVMGetGlobalParent(F);
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMValueRef Callee = LLVMGetNamedFunction(M, Target);
  if (Callee && LLVMGlobalGetValueType(Callee) != FT)
    return false;
  bool NewCallee = !Callee;
  if (NewCallee) {
    Callee = LLVMAddFunction(M, Target, FT);
    LLVMSetFunctionCallConv(Callee, LLVMGetFunctionCallConv(F));
  }

  unsigned N = LLVMCountParams(F);
  LLVMValueRef Small[16], *Args = N <= 16 ? Small : malloc(N * sizeof(*Args));
  if (!Args)
    return false;

  LLVMValueRef Scratch = LLVMAddFunction(M, "", FT);
  for (LLVMBasicBlockRef BB; (BB = LLVMGetFirstBasicBlock(F));) {
    LLVMRemoveBasicBlockFromParent(BB);
    LLVMAppendExistingBasicBlock(Scratch, BB);
  }
  for (unsigned I = 0; I < N; ++I)
    LLVMReplaceAllUsesWith(LLVMGetParam(F, I), LLVMGetParam(Scratch, I));
  LLVMDeleteFunction(Scratch);

  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, F, "forward"));
  for (unsigned I = 0; I < N; ++I)
    Args[I] = LLVMGetParam(F, I);
  LLVMValueRef Call = LLVMBuildCall2(B, FT, Callee, Args, N, "");
  if (Args != Small)
    free(Args);
  LLVMSetInstructionCallConv(Call, LLVMGetFunctionCallConv(F));
  LLVMSetTailCallKind(Call, LLVMTailCallKindTail);
  if (NewCallee)
    orc_rt_jit_copyAttributes(F, Callee);
  copyParamAttributes(F, Call);
  if (LLVMGetTypeKind(LLVMGetReturnType(FT)) == LLVMVoidTypeKind)
    LLVMBuildRetVoid(B);
  else
    LLVMBuildRet(B, Call);
  LLVMDisposeBuilder(B);
  return true;
}
