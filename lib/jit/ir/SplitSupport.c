/*===- lib/jit/ir/SplitSupport.c - IR edits for cutting a module into parts ===*/
/* The edits every cut needs (see SplitSupport.h), shared by the lazy split
 * (LazySplit.c) and the parallel-compile cut (CodeGen.c). */

#include "jit/ir/SplitSupport.h"

#include <llvm-c/Comdat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool orc_rt_jit_isLocalLinkage(LLVMLinkage L) {
  return L == LLVMInternalLinkage || L == LLVMPrivateLinkage;
}

LLVMValueRef orc_rt_jit_aliasedVariable(LLVMValueRef A) {
  LLVMValueRef V = LLVMAliasGetAliasee(A);
  for (unsigned Depth = 0; V && Depth < 64; ++Depth) {
    if (LLVMIsAGlobalVariable(V))
      return V;
    if (LLVMIsAGlobalAlias(V))
      V = LLVMAliasGetAliasee(V);
    else if (LLVMIsAConstantExpr(V) && LLVMGetNumOperands(V) > 0)
      V = LLVMGetOperand(V, 0); /* a GEP's, a cast's base */
    else
      return NULL;
  }
  return NULL;
}

static void promote(LLVMValueRef GV, unsigned ModuleIndex, unsigned N) {
  char Name[512];
  size_t Len;
  const char *Old = LLVMGetValueName2(GV, &Len);
  snprintf(Name, sizeof(Name), "%.*s.__mini_lli.%u.%u", (int)Len,
           Len ? Old : "anon", ModuleIndex, N);
  LLVMSetValueName2(GV, Name, strlen(Name));
  LLVMSetLinkage(GV, LLVMExternalLinkage);
  LLVMSetVisibility(GV, LLVMDefaultVisibility);
}

void orc_rt_jit_promoteLocals(LLVMModuleRef M, unsigned ModuleIndex) {
  unsigned N = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    if (!LLVMIsDeclaration(F) && orc_rt_jit_isLocalLinkage(LLVMGetLinkage(F)))
      promote(F, ModuleIndex, N++);
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
    if (!LLVMIsDeclaration(G) && orc_rt_jit_isLocalLinkage(LLVMGetLinkage(G))) {
      promote(G, ModuleIndex, N++);
      /* Another part refers to it by name: it may not be merged away. */
      LLVMSetUnnamedAddress(G, LLVMNoUnnamedAddr);
    }
  for (LLVMValueRef A = LLVMGetFirstGlobalAlias(M); A;
       A = LLVMGetNextGlobalAlias(A))
    if (orc_rt_jit_isLocalLinkage(LLVMGetLinkage(A)))
      promote(A, ModuleIndex, N++);
}

void orc_rt_jit_dropBody(LLVMValueRef F) {
  /* Values may be used across blocks: detach every use first, then erase. */
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB;
       BB = LLVMGetNextBasicBlock(BB))
    for (LLVMValueRef I = LLVMGetFirstInstruction(BB); I;
         I = LLVMGetNextInstruction(I))
      if (LLVMGetTypeKind(LLVMTypeOf(I)) != LLVMVoidTypeKind)
        LLVMReplaceAllUsesWith(I, LLVMGetPoison(LLVMTypeOf(I)));
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB;
       BB = LLVMGetNextBasicBlock(BB))
    for (LLVMValueRef I; (I = LLVMGetLastInstruction(BB));)
      LLVMInstructionEraseFromParent(I);
  for (LLVMBasicBlockRef BB; (BB = LLVMGetFirstBasicBlock(F));)
    LLVMDeleteBasicBlock(BB);
  if (LLVMHasPersonalityFn(F))
    LLVMSetPersonalityFn(F, NULL);
  LLVMSetLinkage(F, LLVMExternalLinkage);
  LLVMSetComdat(F, NULL);
}

void orc_rt_jit_dropInitializer(LLVMValueRef G) {
  LLVMSetInitializer(G, NULL);
  LLVMSetLinkage(G, LLVMExternalLinkage);
  LLVMSetComdat(G, NULL);
}

bool orc_rt_jit_hasModuleAsm(LLVMModuleRef M) {
  size_t Len = 0;
  LLVMGetModuleInlineAsm(M, &Len);
  return Len != 0;
}

bool orc_rt_jit_hasBlockAddress(LLVMValueRef F) {
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB;
       BB = LLVMGetNextBasicBlock(BB))
    for (LLVMUseRef U = LLVMGetFirstUse(LLVMBasicBlockAsValue(BB)); U;
         U = LLVMGetNextUse(U))
      if (!LLVMIsAInstruction(LLVMGetUser(U)))
        return true;
  return false;
}

bool orc_rt_jit_isWeakLinkage(LLVMLinkage L) {
  return L == LLVMLinkOnceAnyLinkage || L == LLVMLinkOnceODRLinkage ||
         L == LLVMWeakAnyLinkage || L == LLVMWeakODRLinkage ||
         L == LLVMCommonLinkage || L == LLVMExternalWeakLinkage;
}

LLVMModuleRef orc_rt_jit_newModuleLike(LLVMModuleRef From, const char *Name) {
  LLVMModuleRef P =
      LLVMModuleCreateWithNameInContext(Name, LLVMGetModuleContext(From));
  LLVMSetDataLayout(P, LLVMGetDataLayoutStr(From));
  LLVMSetTarget(P, LLVMGetTarget(From));
  unsigned N = LLVMGetNamedMetadataNumOperands(From, "llvm.module.flags");
  LLVMValueRef Small[16];
  LLVMValueRef *Flags = N <= 16 ? Small : malloc(N * sizeof(*Flags));
  if (N && Flags) {
    LLVMGetNamedMetadataOperands(From, "llvm.module.flags", Flags);
    for (unsigned I = 0; I < N; ++I)
      LLVMAddNamedMetadataOperand(P, "llvm.module.flags", Flags[I]);
  }
  if (Flags != Small)
    free(Flags);
  return P;
}

/* Copies every attribute of From (function, return value, parameters). */
void orc_rt_jit_copyAttributes(LLVMValueRef From, LLVMValueRef To) {
  LLVMAttributeRef Small[16];
  unsigned NumParams = LLVMCountParams(From);
  for (unsigned K = 0; K < NumParams + 2; ++K) {
    LLVMAttributeIndex Idx =
        K == 0 ? (LLVMAttributeIndex)LLVMAttributeFunctionIndex : K - 1;
    unsigned N = LLVMGetAttributeCountAtIndex(From, Idx);
    if (!N)
      continue;
    LLVMAttributeRef *A = N <= 16 ? Small : malloc(N * sizeof(*A));
    if (!A)
      continue; /* out of memory: the attributes are hints, except ABI ones */
    LLVMGetAttributesAtIndex(From, Idx, A);
    for (unsigned I = 0; I < N; ++I)
      LLVMAddAttributeAtIndex(To, Idx, A[I]);
    if (A != Small)
      free(A);
  }
}
