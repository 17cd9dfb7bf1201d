/*===- lib/jit/ir/SelfCalls.c - A function calling itself without its entry ===*/
/* See SelfCalls.h. Each call of Entry inside F becomes
 *
 *   %s = load atomic monotonic i32 Flag
 *   %callee = select (%s == Switched), Entry, F
 *   call %callee(...)          (the same call or invoke, its callee replaced)
 *
 * so no block is split and an invoke keeps its unwind edge. */

#include "jit/ir/SelfCalls.h"

#include <stdbool.h>
#include <stdlib.h>

/* I calls (or invokes) Callee: the callee is a call base's last operand. */
static bool calls(LLVMValueRef I, LLVMValueRef Callee) {
  return (LLVMIsACallInst(I) || LLVMIsAInvokeInst(I)) &&
         LLVMGetCalledValue(I) == Callee;
}

unsigned orc_rt_jit_callSelfDirectly(LLVMValueRef F, LLVMValueRef Entry,
                                     uintptr_t Flag, int32_t Switched) {
  if (!Entry || LLVMGlobalGetValueType(Entry) != LLVMGlobalGetValueType(F))
    return 0;
  /* The calls first: rewriting adds uses of Entry (the selects). */
  size_t N = 0, Cap = 0;
  LLVMValueRef *Sites = NULL;
  for (LLVMUseRef U = LLVMGetFirstUse(Entry); U; U = LLVMGetNextUse(U)) {
    LLVMValueRef I = LLVMGetUser(U);
    if (!LLVMIsAInstruction(I) || !calls(I, Entry) ||
        LLVMGetBasicBlockParent(LLVMGetInstructionParent(I)) != F)
      continue;
    if (N == Cap) {
      size_t NewCap = Cap ? 2 * Cap : 8;
      LLVMValueRef *More = realloc(Sites, NewCap * sizeof(*More));
      if (!More)
        break; /* (the calls not rewritten go through Entry, as before) */
      Sites = More;
      Cap = NewCap;
    }
    Sites[N++] = I;
  }
  LLVMContextRef C = LLVMGetTypeContext(LLVMTypeOf(F));
  LLVMTypeRef I32 = LLVMInt32TypeInContext(C);
  LLVMTypeRef Ptr = LLVMPointerTypeInContext(C, 0);
  LLVMValueRef FlagPtr =
      LLVMConstIntToPtr(LLVMConstInt(LLVMInt64TypeInContext(C), Flag, 0), Ptr);
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  for (size_t K = 0; K < N; ++K) {
    LLVMValueRef I = Sites[K];
    LLVMPositionBuilderBefore(B, I);
    LLVMValueRef S = LLVMBuildLoad2(B, I32, FlagPtr, "tier.switched");
    LLVMSetOrdering(S, LLVMAtomicOrderingMonotonic);
    LLVMSetAlignment(S, 4);
    LLVMValueRef Is = LLVMBuildICmp(
        B, LLVMIntEQ, S, LLVMConstInt(I32, (uint64_t)Switched, 1), "");
    LLVMValueRef Callee = LLVMBuildSelect(B, Is, Entry, F, "tier.callee");
    LLVMSetOperand(I, (unsigned)LLVMGetNumOperands(I) - 1, Callee);
  }
  LLVMDisposeBuilder(B);
  free(Sites);
  return (unsigned)N;
}
