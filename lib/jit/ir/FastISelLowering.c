/*===- lib/jit/ir/FastISelLowering.c - Tier-0 IR that FastISel selects whole ===*/

#include "jit/ir/FastISelLowering.h"
#include "jit/ir/Module.h"

#include <stdbool.h>
#include <string.h>

/* select i1 C, A, B -> (C & A) | (~C & B); with a constant A or B, the one
 * `or` or `and` it is (SelectionDAG folds it so). */
static LLVMValueRef boolSelect(LLVMBuilderRef B, LLVMValueRef S) {
  LLVMValueRef C = LLVMGetOperand(S, 0), T = LLVMGetOperand(S, 1),
               F = LLVMGetOperand(S, 2);
  if (LLVMIsAConstantInt(T) && LLVMConstIntGetZExtValue(T) == 1)
    return LLVMBuildOr(B, C, F, "");
  if (LLVMIsAConstantInt(F) && LLVMConstIntGetZExtValue(F) == 0)
    return LLVMBuildAnd(B, C, T, "");
  LLVMValueRef NotC = LLVMBuildNot(B, C, "");
  return LLVMBuildOr(B, LLVMBuildAnd(B, C, T, ""), LLVMBuildAnd(B, NotC, F, ""),
                     "");
}

/* llvm.smin/smax/umin/umax on a scalar integer -> icmp + select. */
static LLVMValueRef minMax(LLVMBuilderRef B, LLVMValueRef Call) {
  LLVMValueRef Callee = LLVMGetCalledValue(Call);
  size_t Len;
  const char *Name = LLVMGetValueName2(Callee, &Len);
  static const struct {
    const char *Prefix;
    LLVMIntPredicate Pred;
  } Kinds[] = {{"llvm.smin.i", LLVMIntSLT},
               {"llvm.smax.i", LLVMIntSGT},
               {"llvm.umin.i", LLVMIntULT},
               {"llvm.umax.i", LLVMIntUGT}};
  for (size_t K = 0; K < sizeof(Kinds) / sizeof(*Kinds); ++K) {
    size_t P = strlen(Kinds[K].Prefix);
    if (Len <= P || strncmp(Name, Kinds[K].Prefix, P))
      continue;
    LLVMValueRef X = LLVMGetOperand(Call, 0), Y = LLVMGetOperand(Call, 1);
    LLVMValueRef Cmp = LLVMBuildICmp(B, Kinds[K].Pred, X, Y, "");
    return LLVMBuildSelect(B, Cmp, X, Y, "");
  }
  return NULL;
}

/* Rewrites F's selects and min/max calls; returns whether F has a switch. */
static bool lowerFunction(LLVMValueRef F, LLVMBuilderRef B) {
  bool Switch = false;
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB;
       BB = LLVMGetNextBasicBlock(BB)) {
    LLVMValueRef Next;
    for (LLVMValueRef I = LLVMGetFirstInstruction(BB); I; I = Next) {
      Next = LLVMGetNextInstruction(I);
      Switch |= LLVMGetInstructionOpcode(I) == LLVMSwitch;
      LLVMTypeRef Ty = LLVMTypeOf(I);
      LLVMValueRef New = NULL;
      LLVMPositionBuilderBefore(B, I);
      if (LLVMGetInstructionOpcode(I) == LLVMSelect &&
          LLVMGetTypeKind(Ty) == LLVMIntegerTypeKind &&
          LLVMGetIntTypeWidth(Ty) == 1 &&
          LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(I, 0))) ==
              LLVMIntegerTypeKind)
        New = boolSelect(B, I);
      else if (LLVMIsACallInst(I) &&
               LLVMGetTypeKind(Ty) == LLVMIntegerTypeKind &&
               LLVMIsAFunction(LLVMGetCalledValue(I)))
        New = minMax(B, I);
      if (!New)
        continue;
      LLVMReplaceAllUsesWith(I, New);
      LLVMInstructionEraseFromParent(I);
    }
  }
  return Switch;
}

orc_rt_ErrorRef orc_rt_jit_lowerForFastISel(LLVMModuleRef M) {
  LLVMBuilderRef B = LLVMCreateBuilderInContext(LLVMGetModuleContext(M));
  bool Switch = false;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    if (!LLVMIsDeclaration(F))
      Switch |= lowerFunction(F, B);
  LLVMDisposeBuilder(B);
  /* (Building the pass pipeline costs about a millisecond: only if needed.) */
  return Switch ? orc_rt_jit_runPasses(M, "lower-switch", NULL) : NULL;
}
