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
