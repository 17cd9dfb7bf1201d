/*===- lib/jit/ir/ConstantRebuild.c - Constants naming globals, rebuilt ---===*/
/* See ConstantRebuild.h. canRebuild and orc_rt_jit_rebuildConstant list the
 * same kinds of constant: what one accepts the other must build. */

#include "jit/ir/ConstantRebuild.h"
#include "jit/support/PtrStack.h"

#include <stdlib.h>

/* True if C is dso_local_equivalent or no_cfi of a function: the two
 * constants of one function that the C API does not name (see canRebuild). */
static bool isWrappedFunction(LLVMValueRef C) {
  return LLVMIsAConstant(C) &&
         LLVMGetValueKind(C) == LLVMInstructionValueKind &&
         LLVMGetNumOperands(C) == 1 && LLVMIsAFunction(LLVMGetOperand(C, 0));
}

/* True if C, a constant that is not a global value, can be rebuilt from its
 * operands with the LLVM-C constant builders (see
 * orc_rt_jit_rebuildConstant). */
static bool canRebuild(LLVMValueRef C) {
  switch (LLVMGetValueKind(C)) {
  case LLVMConstantStructValueKind:
  case LLVMConstantArrayValueKind:
  case LLVMConstantVectorValueKind:
    return true;
  case LLVMConstantExprValueKind:
    switch (LLVMGetConstOpcode(C)) {
    case LLVMGetElementPtr:
    case LLVMTrunc:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMAdd:
    case LLVMSub:
    case LLVMXor:
    case LLVMExtractElement:
    case LLVMInsertElement:
      return true;
    default:
      return false;
    }
  case LLVMInstructionValueKind:
    /* What LLVMGetValueKind says of the constants the C API does not name:
     * dso_local_equivalent and no_cfi, each of one function. */
    return isWrappedFunction(C);
  default:
    /* blockaddress, ptrauth. */
    return false;
  }
}

/* Pushes every user of V that is a constant but not a global value (a
 * global variable "uses" its initializer, which stays where it is). */
static bool pushConstantUsers(orc_rt_jit_PtrStack *S, LLVMValueRef V) {
  for (LLVMUseRef U = LLVMGetFirstUse(V); U; U = LLVMGetNextUse(U)) {
    LLVMValueRef User = LLVMGetUser(U);
    if (LLVMIsAConstant(User) && !LLVMIsAGlobalValue(User) &&
        !orc_rt_jit_PtrStack_push(S, User))
      return false;
  }
  return true;
}

/* True if code (an instruction, or a function's personality, prefix or
 * prologue) uses C, directly or through other constants. Constants used only
 * by global initializers stay in the original module and need no rebuilding. */
static bool usedByCode(LLVMValueRef C, orc_rt_jit_PtrSet *Seen) {
  for (LLVMUseRef U = LLVMGetFirstUse(C); U; U = LLVMGetNextUse(U)) {
    LLVMValueRef User = LLVMGetUser(U);
    if (LLVMIsAInstruction(User) || LLVMIsAFunction(User))
      return true;
    if (LLVMIsAConstant(User) && !LLVMIsAGlobalValue(User) &&
        orc_rt_jit_PtrSet_insert(Seen, User) != 0 && usedByCode(User, Seen))
      return true;
  }
  return false;
}

/* See ConstantRebuild.h. */
bool orc_rt_jit_findDirtyConstants(LLVMModuleRef M, orc_rt_jit_PtrSet *Dirty,
                                   bool *Rebuildable) {
  orc_rt_jit_PtrStack Work = {0}, Bad = {0};
  bool OK = true;
  *Rebuildable = true;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && OK;
       F = LLVMGetNextFunction(F))
    OK = pushConstantUsers(&Work, F);
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G && OK;
       G = LLVMGetNextGlobal(G))
    OK = pushConstantUsers(&Work, G);
  while (OK && Work.Len) {
    LLVMValueRef C = orc_rt_jit_PtrStack_pop(&Work);
    int Added = orc_rt_jit_PtrSet_insert(Dirty, C);
    if (Added < 0)
      OK = false;
    else if (Added)
      OK = (canRebuild(C) || orc_rt_jit_PtrStack_push(&Bad, C)) &&
           pushConstantUsers(&Work, C);
  }
  orc_rt_jit_PtrSet Seen = {0};
  for (size_t I = 0; OK && I < Bad.Len; ++I)
    if (usedByCode(Bad.Items[I], &Seen))
      OK = *Rebuildable = false;
  orc_rt_jit_PtrSet_free(&Seen);
  orc_rt_jit_PtrStack_free(&Work);
  orc_rt_jit_PtrStack_free(&Bad);
  return OK;
}

/* 1 if C (a constant) refers to a global value, directly or through other
 * constants, adding each such constant but global values to Dirty; 0 if
 * not; -1 if out of memory or one cannot be rebuilt (*Rebuildable false). */
static int scanConstant(LLVMValueRef F, LLVMValueRef C,
                        orc_rt_jit_PtrSet *Dirty, bool *Rebuildable) {
  if (LLVMIsAGlobalValue(C))
    return 1;
  /* A label address names its block only; the function is the block's.
   * One of F's own blocks moves with F (BodyMover.h), and the constant with
   * it; another function's block does not. */
  if (LLVMIsABlockAddress(C)) {
    LLVMBasicBlockRef BB = LLVMValueAsBasicBlock(LLVMGetOperand(C, 0));
    if (LLVMGetBasicBlockParent(BB) == F)
      return 0;
    *Rebuildable = false;
    return -1;
  }
  int N = LLVMGetNumOperands(C);
  if (N <= 0)
    return 0;
  if (orc_rt_jit_PtrSet_has(Dirty, C))
    return 1;
  int Names = 0;
  for (int I = 0; I < N; ++I) {
    LLVMValueRef Op = LLVMGetOperand(C, (unsigned)I);
    int R =
        Op && LLVMIsAConstant(Op) ? scanConstant(F, Op, Dirty, Rebuildable) : 0;
    if (R < 0)
      return R;
    Names |= R;
  }
  if (!Names)
    return 0;
  if (!canRebuild(C)) {
    *Rebuildable = false;
    return -1;
  }
  return orc_rt_jit_PtrSet_insert(Dirty, C) < 0 ? -1 : 1;
}

bool orc_rt_jit_findDirtyConstantsOf(LLVMValueRef F, orc_rt_jit_PtrSet *Dirty,
                                     bool *Rebuildable) {
  *Rebuildable = true;
  LLVMValueRef Data[3] = {
      LLVMHasPersonalityFn(F) ? LLVMGetPersonalityFn(F) : NULL,
      LLVMHasPrefixData(F) ? LLVMGetPrefixData(F) : NULL,
      LLVMHasPrologueData(F) ? LLVMGetPrologueData(F) : NULL};
  for (int I = 0; I < 3; ++I)
    if (Data[I] && scanConstant(F, Data[I], Dirty, Rebuildable) < 0)
      return false;
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB;
       BB = LLVMGetNextBasicBlock(BB))
    for (LLVMValueRef I = LLVMGetFirstInstruction(BB); I;
         I = LLVMGetNextInstruction(I)) {
      int N = LLVMGetNumOperands(I);
      for (int K = 0; K < N; ++K) {
        LLVMValueRef Op = LLVMGetOperand(I, (unsigned)K);
        if (Op && LLVMIsAConstant(Op) &&
            scanConstant(F, Op, Dirty, Rebuildable) < 0)
          return false;
      }
    }
  return true;
}

/* See ConstantRebuild.h. */
LLVMValueRef orc_rt_jit_rebuildConstant(LLVMValueRef C, LLVMValueRef *Ops,
                                        unsigned N) {
  LLVMTypeRef T = LLVMTypeOf(C);
  switch (LLVMGetValueKind(C)) {
  case LLVMConstantStructValueKind:
    return LLVMConstNamedStruct(T, Ops, N);
  case LLVMConstantArrayValueKind:
    return LLVMConstArray2(LLVMGetElementType(T), Ops, N);
  case LLVMConstantVectorValueKind:
    return LLVMConstVector(Ops, N);
  default:
    break;
  }
  if (isWrappedFunction(C))
    /* dso_local_equivalent and no_cfi have no C API builder. In code both
     * may become the function itself: within one JITDylib the function is
     * local to the program anyway, and no jump table was made for it. */
    return Ops[0];
  switch (LLVMGetConstOpcode(C)) {
  case LLVMGetElementPtr:
    return LLVMConstGEPWithNoWrapFlags(LLVMGetGEPSourceElementType(C), Ops[0],
                                       Ops + 1, N - 1,
                                       LLVMGEPGetNoWrapFlags(C));
  case LLVMTrunc:
    return LLVMConstTrunc(Ops[0], T);
  case LLVMPtrToInt:
    return LLVMConstPtrToInt(Ops[0], T);
  case LLVMIntToPtr:
    return LLVMConstIntToPtr(Ops[0], T);
  case LLVMBitCast:
    return LLVMConstBitCast(Ops[0], T);
  case LLVMAddrSpaceCast:
    return LLVMConstAddrSpaceCast(Ops[0], T);
  case LLVMAdd:
    return LLVMConstAdd(Ops[0], Ops[1]);
  case LLVMSub:
    return LLVMConstSub(Ops[0], Ops[1]);
  case LLVMXor:
    return LLVMConstXor(Ops[0], Ops[1]);
  case LLVMExtractElement:
    return LLVMConstExtractElement(Ops[0], Ops[1]);
  case LLVMInsertElement:
    return LLVMConstInsertElement(Ops[0], Ops[1], Ops[2]);
  default:
    return C; /* not reached: findDirtyConstants kept the module whole */
  }
}
