/*===- lib/jit/ir/DlopenIR.c - Preparing a module's IR for dlopen ---------===*/

#include "jit/ir/DlopenIR.h"
#include "jit/ir/EmuTLS.h"
#include "jit/support/GrowArray.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool orc_rt_jit_isExported(LLVMValueRef GV) {
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

/* 1: integer class, 2: SSE class, 0: anything else. */
static int scalarClass(LLVMTypeRef T) {
  switch (LLVMGetTypeKind(T)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(T) <= 64 ? 1 : 0;
  case LLVMPointerTypeKind:
    return 1;
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind:
    return 2;
  default:
    return 0;
  }
}

bool orc_rt_jit_registersOnly(LLVMValueRef F, bool *FloatArgs) {
  LLVMTypeRef FT = LLVMGlobalGetValueType(F);
  if (LLVMIsFunctionVarArg(FT))
    return false;
  unsigned N = LLVMCountParamTypes(FT), Ints = 0, SSE = 0;
  LLVMTypeRef Params[64];
  if (N > 64)
    return false;
  LLVMGetParamTypes(FT, Params);
  static const char *const InMemory[] = {"byval", "inalloca", "preallocated",
                                         "nest"};
  for (unsigned I = 0; I < N; ++I) {
    for (size_t K = 0; K < sizeof(InMemory) / sizeof(*InMemory); ++K) {
      unsigned Kind =
          LLVMGetEnumAttributeKindForName(InMemory[K], strlen(InMemory[K]));
      if (LLVMGetEnumAttributeAtIndex(F, I + 1, Kind))
        return false;
    }
    int Class = scalarClass(Params[I]);
    if (!Class)
      return false;
    Class == 1 ? ++Ints : ++SSE;
  }
  *FloatArgs = SSE > 0;
  if (Ints > 6 || SSE > 8)
    return false;
  LLVMTypeRef R = LLVMGetReturnType(FT);
  switch (LLVMGetTypeKind(R)) {
  case LLVMVoidTypeKind:
    return true;
  case LLVMStructTypeKind: {
    unsigned NE = LLVMCountStructElementTypes(R);
    if (NE == 0 || NE > 2)
      return false;
    for (unsigned I = 0; I < NE; ++I)
      if (!scalarClass(LLVMStructGetTypeAtIndex(R, I)))
        return false;
    return true;
  }
  default:
    return scalarClass(R) != 0;
  }
}

static orc_rt_ErrorRef push(orc_rt_jit_ExportList *L, size_t *Cap,
                            LLVMValueRef GV, bool IsFunction) {
  if (!orc_rt_jit_growArray(&L->Items, Cap, L->Size + 1, sizeof(*L->Items)))
    return orc_rt_Error_create("out of memory");
  size_t Len;
  const char *Own = LLVMGetValueName2(GV, &Len);
  /* A thread_local is its emulated-TLS control variable once lowered
   * (ir/EmuTLS.h): that is what the module defines and what another
   * module's use of it binds. */
  char *Name = LLVMIsAGlobalVariable(GV) && LLVMIsThreadLocal(GV)
                   ? orc_rt_jit_emuTLSControlName(Own, Len)
                   : strndup(Own, Len);
  if (!Name)
    return orc_rt_Error_create("out of memory");
  bool Floats = true;
  bool Regs = IsFunction && LLVMIsAFunction(GV) &&
              orc_rt_jit_registersOnly(GV, &Floats);
  L->Items[L->Size++] = (orc_rt_jit_Export){Name, IsFunction, Regs, Floats};
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_collectExports(LLVMModuleRef M,
                                          orc_rt_jit_ExportList *Out) {
  *Out = (orc_rt_jit_ExportList){NULL, 0};
  size_t Cap = 0;
  orc_rt_ErrorRef Err = NULL;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && !Err;
       F = LLVMGetNextFunction(F))
    if (orc_rt_jit_isExported(F))
      Err = push(Out, &Cap, F, true);
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G && !Err;
       G = LLVMGetNextGlobal(G))
    if (orc_rt_jit_isExported(G))
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

/*---- Escaping function addresses ----*/

static bool isDirectCallee(LLVMValueRef User, LLVMValueRef F) {
  return (LLVMIsACallInst(User) || LLVMIsAInvokeInst(User) ||
          LLVMIsACallBrInst(User)) &&
         LLVMGetCalledValue(User) == F;
}

/* 1: some use lets the address escape and every use can be redirected;
 * 0: no escaping use; -1: a use a declaration cannot stand in for. */
static int classifyUses(LLVMValueRef F) {
  int Escapes = 0;
  for (LLVMUseRef U = LLVMGetFirstUse(F); U; U = LLVMGetNextUse(U)) {
    LLVMValueRef User = LLVMGetUser(U);
    switch (LLVMGetValueKind(User)) {
    case LLVMInstructionValueKind:
      if (!isDirectCallee(User, F))
        Escapes = 1;
      break;
    case LLVMConstantExprValueKind:
    case LLVMConstantArrayValueKind:
    case LLVMConstantStructValueKind:
    case LLVMConstantVectorValueKind:
    case LLVMGlobalVariableValueKind:
      Escapes = 1;
      break;
    default: /* alias, ifunc, personality, blockaddress, ... */
      return -1;
    }
  }
  return Escapes;
}

orc_rt_ErrorRef
orc_rt_jit_routeEscapesThroughStubs(LLVMModuleRef M,
                                    orc_rt_jit_EscapeList *Out) {
  *Out = (orc_rt_jit_EscapeList){NULL, 0};
  size_t Cap = 0;
  unsigned N = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F)) {
    if (LLVMIsDeclaration(F) || LLVMGetIntrinsicID(F) || classifyUses(F) != 1)
      continue;
    if (!orc_rt_jit_growArray(&Out->Items, &Cap, Out->Size + 1,
                              sizeof(*Out->Items))) {
      orc_rt_jit_EscapeList_dispose(Out);
      return orc_rt_Error_create("out of memory");
    }
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    LLVMLinkage L = LLVMGetLinkage(F);
    char Buf[64];
    char *Display = strdup(Len ? Name : "<anonymous>");
    if (!Display) {
      orc_rt_jit_EscapeList_dispose(Out);
      return orc_rt_Error_create("out of memory");
    }
    if (L == LLVMInternalLinkage || L == LLVMPrivateLinkage || !Len) {
      /* Looked up by a unique hidden name: not an export. */
      size_t Size = Len + 48;
      char *Unique = malloc(Size);
      if (!Unique) {
        free(Display);
        orc_rt_jit_EscapeList_dispose(Out);
        return orc_rt_Error_create("out of memory");
      }
      snprintf(Unique, Size, "%s.__mini_lli_escaped.%u", Len ? Name : "anon",
               N);
      LLVMSetValueName2(F, Unique, strlen(Unique));
      free(Unique);
      LLVMSetLinkage(F, LLVMExternalLinkage);
      LLVMSetVisibility(F, LLVMHiddenVisibility);
      Name = LLVMGetValueName2(F, &Len);
    }
    /* The stub takes every use but direct calls: a discardable body left
     * without any would be dropped by the optimizer (a module compiled
     * whole after this), and the stub's target would be missing. */
    if (L == LLVMLinkOnceAnyLinkage)
      LLVMSetLinkage(F, LLVMWeakAnyLinkage);
    else if (L == LLVMLinkOnceODRLinkage)
      LLVMSetLinkage(F, LLVMWeakODRLinkage);
    snprintf(Buf, sizeof(Buf), "__mini_lli_stub.%u", N++);
    LLVMValueRef Stub = LLVMAddFunction(M, Buf, LLVMGlobalGetValueType(F));
    bool Floats = true;
    bool Regs = orc_rt_jit_registersOnly(F, &Floats);
    char *StubName = strdup(Buf), *Target = strdup(Name);
    if (!StubName || !Target) {
      free(StubName);
      free(Target);
      free(Display);
      orc_rt_jit_EscapeList_dispose(Out);
      return orc_rt_Error_create("out of memory");
    }
    Out->Items[Out->Size++] =
        (orc_rt_jit_Escape){StubName, Target, Display, Regs, Floats};
    /* Every use goes to the stub; then direct calls come back. */
    LLVMReplaceAllUsesWith(F, Stub);
    LLVMUseRef Next;
    for (LLVMUseRef U = LLVMGetFirstUse(Stub); U; U = Next) {
      Next = LLVMGetNextUse(U);
      LLVMValueRef User = LLVMGetUser(U);
      if (LLVMGetValueKind(User) == LLVMInstructionValueKind &&
          isDirectCallee(User, Stub))
        LLVMSetOperand(User, (unsigned)LLVMGetNumOperands(User) - 1, F);
    }
  }
  return NULL;
}

void orc_rt_jit_EscapeList_dispose(orc_rt_jit_EscapeList *L) {
  for (size_t I = 0; I < L->Size; ++I) {
    free(L->Items[I].Stub);
    free(L->Items[I].Target);
    free(L->Items[I].Display);
  }
  free(L->Items);
  *L = (orc_rt_jit_EscapeList){NULL, 0};
}
