/*===- lib/jit/DlopenIR.c - Preparing a module's IR for dlopen ------------===*/

#include "jit/DlopenIR.h"

#include <stdlib.h>
#include <string.h>

static bool isExported(LLVMValueRef GV) {
  if (LLVMIsDeclaration(GV))
    return false;
  switch (LLVMGetLinkage(GV)) {
  case LLVMInternalLinkage:
  case LLVMPrivateLinkage:
  case LLVMAppendingLinkage:
    return false;
  default:
    break;
  }
  if (LLVMGetVisibility(GV) == LLVMHiddenVisibility)
    return false;
  size_t Len;
  const char *Name = LLVMGetValueName2(GV, &Len);
  return Len && strncmp(Name, "llvm.", 5) != 0;
}

static orc_rt_ErrorRef push(orc_rt_jit_ExportList *L, size_t *Cap,
                            LLVMValueRef GV, bool IsFunction) {
  if (L->Size == *Cap) {
    size_t NewCap = *Cap ? 2 * *Cap : 16;
    orc_rt_jit_Export *N = realloc(L->Items, NewCap * sizeof(*N));
    if (!N)
      return orc_rt_Error_create("out of memory");
    L->Items = N;
    *Cap = NewCap;
  }
  size_t Len;
  char *Name = strdup(LLVMGetValueName2(GV, &Len));
  if (!Name)
    return orc_rt_Error_create("out of memory");
  L->Items[L->Size++] = (orc_rt_jit_Export){Name, IsFunction};
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_collectExports(LLVMModuleRef M,
                                          orc_rt_jit_ExportList *Out) {
  *Out = (orc_rt_jit_ExportList){NULL, 0};
  size_t Cap = 0;
  orc_rt_ErrorRef Err = NULL;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && !Err;
       F = LLVMGetNextFunction(F))
    if (isExported(F))
      Err = push(Out, &Cap, F, true);
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G && !Err;
       G = LLVMGetNextGlobal(G))
    if (isExported(G))
      Err = push(Out, &Cap, G, false);
  for (LLVMValueRef A = LLVMGetFirstGlobalAlias(M); A && !Err;
       A = LLVMGetNextGlobalAlias(A)) {
    LLVMValueRef Target = LLVMAliasGetAliasee(A);
    if (LLVMGetLinkage(A) != LLVMInternalLinkage &&
        LLVMGetLinkage(A) != LLVMPrivateLinkage &&
        LLVMGetVisibility(A) != LLVMHiddenVisibility)
      Err = push(Out, &Cap, A, LLVMIsAFunction(Target) != NULL);
  }
  if (Err)
    orc_rt_jit_ExportList_dispose(Out);
  return Err;
}

void orc_rt_jit_ExportList_dispose(orc_rt_jit_ExportList *L) {
  for (size_t I = 0; I < L->Size; ++I)
    free(L->Items[I].Name);
  free(L->Items);
  *L = (orc_rt_jit_ExportList){NULL, 0};
}

void orc_rt_jit_defineModuleAtexit(LLVMModuleRef M) {
  LLVMValueRef Atexit = LLVMGetNamedFunction(M, "atexit");
  if (!Atexit || !LLVMIsDeclaration(Atexit) || LLVMCountParams(Atexit) != 1)
    return;
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMTypeRef Ptr = LLVMPointerTypeInContext(C, 0);
  LLVMTypeRef I32 = LLVMInt32TypeInContext(C);
  if (LLVMGetReturnType(LLVMGlobalGetValueType(Atexit)) != I32)
    return;
  LLVMTypeRef CxaParams[] = {Ptr, Ptr, Ptr};
  LLVMTypeRef CxaTy = LLVMFunctionType(I32, CxaParams, 3, false);
  LLVMValueRef Cxa = LLVMGetNamedFunction(M, "__cxa_atexit");
  if (!Cxa)
    Cxa = LLVMAddFunction(M, "__cxa_atexit", CxaTy);
  LLVMValueRef Dso = LLVMGetNamedGlobal(M, "__dso_handle");
  if (!Dso) {
    Dso = LLVMAddGlobal(M, LLVMInt8TypeInContext(C), "__dso_handle");
    LLVMSetLinkage(Dso, LLVMExternalLinkage);
  }
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMPositionBuilderAtEnd(B,
                           LLVMAppendBasicBlockInContext(C, Atexit, "entry"));
  LLVMValueRef Args[] = {LLVMGetParam(Atexit, 0), LLVMConstNull(Ptr), Dso};
  LLVMValueRef R = LLVMBuildCall2(B, CxaTy, Cxa, Args, 3, "");
  LLVMBuildRet(B, R);
  LLVMDisposeBuilder(B);
  LLVMSetLinkage(Atexit, LLVMInternalLinkage);
}
