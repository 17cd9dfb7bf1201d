/*===- lib/jit/ir/CallCounters.c - Counting a function's calls and loops ---===*/
/* See CallCounters.h. The entry becomes
 *
 *   tier.entry:  static allocas of the old entry (moved: they stay static)
 *                %n = load volatile Counter, + 1, store volatile back
 *                br (%n > Threshold), tier.hot, old entry
 *   tier.hot:    call Hook(Arg); br old entry
 *
 * and each block with a back-edge bumps the counter before its terminator. */

#include "jit/ir/CallCounters.h"
#include "jit/support/PtrSet.h"

static bool isNaked(LLVMValueRef F) {
  unsigned Kind = LLVMGetEnumAttributeKindForName("naked", 5);
  return LLVMGetEnumAttributeAtIndex(F, LLVMAttributeFunctionIndex, Kind) !=
         NULL;
}

/* Builds Counter += 1 at B's position; returns the new count. */
static LLVMValueRef bump(LLVMBuilderRef B, LLVMContextRef C,
                         LLVMValueRef Counter) {
  LLVMTypeRef I32 = LLVMInt32TypeInContext(C);
  LLVMValueRef Old = LLVMBuildLoad2(B, I32, Counter, "tier.count");
  LLVMSetVolatile(Old, 1);
  LLVMSetAlignment(Old, 4);
  LLVMValueRef New = LLVMBuildAdd(B, Old, LLVMConstInt(I32, 1, 0), "");
  LLVMValueRef St = LLVMBuildStore(B, New, Counter);
  LLVMSetVolatile(St, 1);
  LLVMSetAlignment(St, 4);
  return New;
}

/* A static alloca: constant size (the old entry's others stay where they
 * are, dynamic as they were). */
static bool isStaticAlloca(LLVMValueRef I) {
  return LLVMIsAAllocaInst(I) && LLVMIsAConstant(LLVMGetOperand(I, 0));
}

/* Bumps the counter in every block of F that branches back (to itself or to
 * a block laid out before it); *Found says whether there was one. Returns
 * false if out of memory. */
static bool countBackEdges(LLVMValueRef F, LLVMBuilderRef B, LLVMContextRef C,
                           LLVMValueRef Counter, bool *Found) {
  orc_rt_jit_PtrSet Seen = {0};
  bool OK = true;
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB && OK;
       BB = LLVMGetNextBasicBlock(BB)) {
    if (orc_rt_jit_PtrSet_insert(&Seen, BB) < 0) {
      OK = false;
      break;
    }
    LLVMValueRef Term = LLVMGetBasicBlockTerminator(BB);
    if (!Term)
      continue;
    unsigned N = LLVMGetNumSuccessors(Term);
    bool Back = false;
    for (unsigned I = 0; I < N && !Back; ++I)
      Back = orc_rt_jit_PtrSet_has(&Seen, LLVMGetSuccessor(Term, I));
    if (!Back)
      continue;
    *Found = true;
    LLVMPositionBuilderBefore(B, Term);
    bump(B, C, Counter);
  }
  orc_rt_jit_PtrSet_free(&Seen);
  return OK;
}

bool orc_rt_jit_addCallCounter(LLVMValueRef F, uintptr_t Counter,
                               int32_t Threshold, uintptr_t Hook, uintptr_t Arg,
                               bool *HasLoop) {
  bool Loop = false;
  if (HasLoop)
    *HasLoop = false;
  LLVMBasicBlockRef Old = LLVMGetEntryBasicBlock(F);
  if (!Old || isNaked(F))
    return false;
  LLVMContextRef C = LLVMGetModuleContext(LLVMGetGlobalParent(F));
  LLVMTypeRef I32 = LLVMInt32TypeInContext(C);
  LLVMTypeRef I64 = LLVMInt64TypeInContext(C);
  LLVMTypeRef Ptr = LLVMPointerTypeInContext(C, 0);
  LLVMValueRef CounterPtr =
      LLVMConstIntToPtr(LLVMConstInt(I64, Counter, 0), Ptr);
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);

  /* Back-edges first: the blocks added below are none. */
  if (!countBackEdges(F, B, C, CounterPtr, &Loop)) {
    LLVMDisposeBuilder(B);
    return false;
  }
  if (HasLoop)
    *HasLoop = Loop;

  LLVMBasicBlockRef Entry = LLVMInsertBasicBlockInContext(C, Old, "tier.entry");
  LLVMBasicBlockRef Hot = LLVMAppendBasicBlockInContext(C, F, "tier.hot");
  LLVMPositionBuilderAtEnd(B, Entry);
  for (LLVMValueRef I = LLVMGetFirstInstruction(Old); I;) {
    LLVMValueRef Next = LLVMGetNextInstruction(I);
    if (isStaticAlloca(I)) {
      LLVMInstructionRemoveFromParent(I);
      LLVMInsertIntoBuilder(B, I); /* (loses its name, which is no matter) */
    }
    I = Next;
  }
  LLVMValueRef Count = bump(B, C, CounterPtr);
  LLVMValueRef IsHot =
      LLVMBuildICmp(B, LLVMIntSGT, Count,
                    LLVMConstInt(I32, (uint32_t)Threshold, 1), "tier.hot");
  LLVMBuildCondBr(B, IsHot, Hot, Old);

  LLVMPositionBuilderAtEnd(B, Hot);
  LLVMTypeRef HookTy =
      LLVMFunctionType(LLVMVoidTypeInContext(C), &Ptr, 1, false);
  LLVMValueRef HookFn = LLVMConstIntToPtr(LLVMConstInt(I64, Hook, 0), Ptr);
  LLVMValueRef ArgV = LLVMConstIntToPtr(LLVMConstInt(I64, Arg, 0), Ptr);
  LLVMBuildCall2(B, HookTy, HookFn, &ArgV, 1, "");
  LLVMBuildBr(B, Old);
  LLVMDisposeBuilder(B);
  return true;
}
