/*===- lib/jit/ir/EmuTLS.c - thread_local variables without a TLS runtime -===*/

#include "jit/ir/EmuTLS.h"

#include <llvm-c/Target.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  LLVMModuleRef M;
  LLVMContextRef Ctx;
  LLVMBuilderRef B;
  LLVMTypeRef Ptr, I64, CtlTy, GetAddrTy, ExtAddrTy;
  LLVMValueRef GetAddr, ExtAddr;
  /* For a declaration (defined in another JIT'd module, or natively in a
   * shared library such as libstdc++), the variable's name: the address then
   * comes from ORC_RT_JIT_TLS_ADDRESS(@__emutls_v.x (weak), "x"). */
  LLVMValueRef CurName;
} Lowering;

/* Prefix (at most 15 bytes) and Name (Len bytes), malloc'd. */
static char *emuTLSName(const char *Prefix, const char *Name, size_t Len) {
  char *C = malloc(Len + 16);
  if (C)
    snprintf(C, Len + 16, "%s%.*s", Prefix, (int)Len, Name);
  return C;
}

char *orc_rt_jit_emuTLSControlName(const char *Name, size_t Len) {
  return emuTLSName("__emutls_v.", Name, Len);
}

static LLVMValueRef makeControl(Lowering *L, LLVMValueRef GV) {
  size_t Len;
  const char *Name = LLVMGetValueName2(GV, &Len);
  char *CtlName = orc_rt_jit_emuTLSControlName(Name, Len),
       *TmplName = emuTLSName("__emutls_t.", Name, Len);
  if (!CtlName || !TmplName) {
    free(CtlName);
    free(TmplName);
    return NULL;
  }
  LLVMValueRef Ctl = LLVMGetNamedGlobal(L->M, CtlName);
  if (!Ctl) {
    Ctl = LLVMAddGlobal(L->M, L->CtlTy, CtlName);
    LLVMSetLinkage(Ctl, LLVMIsDeclaration(GV) ? LLVMExternalWeakLinkage
                                              : LLVMGetLinkage(GV));
    LLVMSetVisibility(Ctl, LLVMGetVisibility(GV));
    LLVMSetAlignment(Ctl, 8);
  }
  LLVMValueRef Init = LLVMIsDeclaration(GV) ? NULL : LLVMGetInitializer(GV);
  if (Init) {
    LLVMTypeRef Ty = LLVMGlobalGetValueType(GV);
    LLVMTargetDataRef TD = LLVMGetModuleDataLayout(L->M);
    unsigned long long Size = LLVMABISizeOfType(TD, Ty);
    unsigned Align = LLVMGetAlignment(GV);
    if (!Align)
      Align = LLVMABIAlignmentOfType(TD, Ty);
    LLVMValueRef Tmpl = LLVMConstNull(L->Ptr);
    if (!LLVMIsNull(Init)) {
      LLVMValueRef T = LLVMAddGlobal(L->M, Ty, TmplName);
      LLVMSetInitializer(T, Init);
      LLVMSetGlobalConstant(T, 1);
      LLVMSetLinkage(T, LLVMPrivateLinkage);
      LLVMSetAlignment(T, Align);
      Tmpl = T;
    }
    LLVMValueRef Fields[4] = {LLVMConstInt(L->I64, Size, 0),
                              LLVMConstInt(L->I64, Align, 0),
                              LLVMConstNull(L->Ptr), Tmpl};
    LLVMSetInitializer(Ctl, LLVMConstNamedStruct(L->CtlTy, Fields, 4));
  }
  free(CtlName);
  free(TmplName);
  return Ctl;
}

static bool isThreadLocalAddress(LLVMValueRef I) {
  if (!LLVMIsACallInst(I))
    return false;
  LLVMValueRef Callee = LLVMGetCalledValue(I);
  if (!Callee || !LLVMIsAFunction(Callee))
    return false;
  size_t Len;
  const char *Name = LLVMGetValueName2(Callee, &Len);
  return Len >= 24 && !strncmp(Name, "llvm.threadlocal.address", 24);
}

/* Where to compute the address for operand use in instruction User. */
static LLVMValueRef insertionPoint(LLVMValueRef User, LLVMValueRef Operand) {
  if (LLVMIsAPHINode(User)) {
    unsigned N = LLVMCountIncoming(User);
    for (unsigned I = 0; I < N; ++I)
      if (LLVMGetIncomingValue(User, I) == Operand)
        return LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(User, I));
  }
  return User;
}

static LLVMValueRef buildAddress(Lowering *L, LLVMValueRef Ctl,
                                 LLVMValueRef At) {
  LLVMPositionBuilderBefore(L->B, At);
  if (L->CurName) {
    LLVMValueRef Args[2] = {Ctl, L->CurName};
    return LLVMBuildCall2(L->B, L->ExtAddrTy, L->ExtAddr, Args, 2, "");
  }
  LLVMValueRef Args[1] = {Ctl};
  return LLVMBuildCall2(L->B, L->GetAddrTy, L->GetAddr, Args, 1, "");
}

static void replaceOperand(LLVMValueRef User, LLVMValueRef Old,
                           LLVMValueRef New) {
  unsigned N = (unsigned)LLVMGetNumOperands(User);
  for (unsigned I = 0; I < N; ++I)
    if (LLVMGetOperand(User, I) == Old)
      LLVMSetOperand(User, I, New);
}

static orc_rt_ErrorRef unsupported(LLVMValueRef GV) {
  size_t Len;
  const char *Name = LLVMGetValueName2(GV, &Len);
  return orc_rt_Error_createf(
      "thread_local variable '%.*s' is used in a constant expression "
      "mini-lli's emulated TLS cannot rewrite",
      (int)Len, Name);
}

/* A use of GV in instruction User. */
static void lowerInstructionUse(Lowering *L, LLVMValueRef Ctl, LLVMValueRef GV,
                                LLVMValueRef User) {
  LLVMValueRef Addr = buildAddress(L, Ctl, insertionPoint(User, GV));
  if (isThreadLocalAddress(User)) {
    LLVMReplaceAllUsesWith(User, Addr);
    LLVMInstructionEraseFromParent(User);
  } else {
    replaceOperand(User, GV, Addr);
  }
}

/* A constant GEP on GV (e.g. a field of a thread_local struct), used by
 * instructions: each use gets its own address call and GEP instruction. */
static orc_rt_ErrorRef lowerGEPUse(Lowering *L, LLVMValueRef Ctl,
                                   LLVMValueRef GV, LLVMValueRef CE) {
  size_t NumUsers = 0;
  for (LLVMUseRef U = LLVMGetFirstUse(CE); U; U = LLVMGetNextUse(U))
    ++NumUsers;
  LLVMValueRef *Users = malloc((NumUsers + 1) * sizeof(*Users));
  if (!Users)
    return orc_rt_Error_create("out of memory");
  size_t I = 0;
  for (LLVMUseRef U = LLVMGetFirstUse(CE); U; U = LLVMGetNextUse(U))
    Users[I++] = LLVMGetUser(U);
  orc_rt_ErrorRef Err = NULL;
  unsigned NumIdx = (unsigned)LLVMGetNumOperands(CE) - 1;
  LLVMValueRef Idx[16];
  if (NumIdx > 16)
    Err = unsupported(GV);
  for (unsigned J = 0; !Err && J < NumIdx; ++J)
    Idx[J] = LLVMGetOperand(CE, J + 1);
  for (size_t K = 0; !Err && K < NumUsers; ++K) {
    if (!LLVMIsAInstruction(Users[K])) {
      Err = unsupported(GV);
      break;
    }
    LLVMValueRef Addr = buildAddress(L, Ctl, insertionPoint(Users[K], CE));
    LLVMValueRef GEP = LLVMBuildGEP2(L->B, LLVMGetGEPSourceElementType(CE),
                                     Addr, Idx, NumIdx, "");
    replaceOperand(Users[K], CE, GEP);
  }
  free(Users);
  return Err;
}

static LLVMValueRef nameString(Lowering *L, LLVMValueRef GV) {
  size_t Len;
  const char *Name = LLVMGetValueName2(GV, &Len);
  LLVMValueRef Str = LLVMConstStringInContext2(L->Ctx, Name, Len, 0);
  LLVMValueRef G = LLVMAddGlobal(L->M, LLVMTypeOf(Str), "__orc_rt.tls_name");
  LLVMSetInitializer(G, Str);
  LLVMSetGlobalConstant(G, 1);
  LLVMSetLinkage(G, LLVMPrivateLinkage);
  return G;
}

static orc_rt_ErrorRef lowerOne(Lowering *L, LLVMValueRef GV) {
  LLVMValueRef Ctl = makeControl(L, GV);
  if (!Ctl)
    return orc_rt_Error_create("out of memory");
  L->CurName = LLVMIsDeclaration(GV) ? nameString(L, GV) : NULL;
  size_t NumUsers = 0;
  for (LLVMUseRef U = LLVMGetFirstUse(GV); U; U = LLVMGetNextUse(U))
    ++NumUsers;
  LLVMValueRef *Users = malloc((NumUsers + 1) * sizeof(*Users));
  if (!Users)
    return orc_rt_Error_create("out of memory");
  size_t I = 0;
  for (LLVMUseRef U = LLVMGetFirstUse(GV); U; U = LLVMGetNextUse(U))
    Users[I++] = LLVMGetUser(U);
  orc_rt_ErrorRef Err = NULL;
  for (size_t K = 0; !Err && K < NumUsers; ++K) {
    LLVMValueRef User = Users[K];
    if (LLVMIsAInstruction(User))
      lowerInstructionUse(L, Ctl, GV, User);
    else if (LLVMIsAConstantExpr(User) &&
             LLVMGetConstOpcode(User) == LLVMGetElementPtr &&
             LLVMGetOperand(User, 0) == GV)
      Err = lowerGEPUse(L, Ctl, GV, User);
    else
      Err = unsupported(GV);
  }
  free(Users);
  if (Err)
    return Err;
  /* Dead constant expressions may still refer to GV. */
  LLVMReplaceAllUsesWith(GV, LLVMGetPoison(LLVMTypeOf(GV)));
  LLVMDeleteGlobal(GV);
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_lowerEmulatedTLS(LLVMModuleRef M) {
  size_t N = 0;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
    N += LLVMIsThreadLocal(G) != 0;
  if (!N)
    return NULL;
  LLVMValueRef *TLS = malloc(N * sizeof(*TLS));
  if (!TLS)
    return orc_rt_Error_create("out of memory");
  N = 0;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
    if (LLVMIsThreadLocal(G))
      TLS[N++] = G;

  Lowering L;
  L.M = M;
  L.Ctx = LLVMGetModuleContext(M);
  L.B = LLVMCreateBuilderInContext(L.Ctx);
  L.Ptr = LLVMPointerTypeInContext(L.Ctx, 0);
  L.I64 = LLVMInt64TypeInContext(L.Ctx);
  L.CtlTy = LLVMGetTypeByName2(L.Ctx, "__orc_rt.emutls_control");
  if (!L.CtlTy) {
    L.CtlTy = LLVMStructCreateNamed(L.Ctx, "__orc_rt.emutls_control");
    LLVMTypeRef Fields[4] = {L.I64, L.I64, L.Ptr, L.Ptr};
    LLVMStructSetBody(L.CtlTy, Fields, 4, 0);
  }
  LLVMTypeRef Params[1] = {L.Ptr};
  L.GetAddrTy = LLVMFunctionType(L.Ptr, Params, 1, 0);
  LLVMTypeRef ExtParams[2] = {L.Ptr, L.Ptr};
  L.ExtAddrTy = LLVMFunctionType(L.Ptr, ExtParams, 2, 0);
  L.ExtAddr = LLVMGetNamedFunction(M, ORC_RT_JIT_TLS_ADDRESS);
  if (!L.ExtAddr)
    L.ExtAddr = LLVMAddFunction(M, ORC_RT_JIT_TLS_ADDRESS, L.ExtAddrTy);
  L.CurName = NULL;
  L.GetAddr = LLVMGetNamedFunction(M, "__emutls_get_address");
  if (!L.GetAddr)
    L.GetAddr = LLVMAddFunction(M, "__emutls_get_address", L.GetAddrTy);

  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; I < N && !Err; ++I)
    Err = lowerOne(&L, TLS[I]);
  LLVMDisposeBuilder(L.B);
  free(TLS);
  return Err;
}

/*---- What a module imports ----*/

orc_rt_ErrorRef orc_rt_jit_listTLSImports(LLVMModuleRef M) {
  size_t N = 0;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
    N += LLVMIsThreadLocal(G) && LLVMIsDeclaration(G);
  if (!N || LLVMGetNamedGlobal(M, ORC_RT_JIT_TLS_IMPORTS))
    return NULL;
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMTypeRef Ptr = LLVMPointerTypeInContext(C, 0);
  LLVMTypeRef I64 = LLVMInt64TypeInContext(C);
  LLVMTypeRef PairTy[2] = {Ptr, Ptr};
  LLVMTypeRef Pair = LLVMStructTypeInContext(C, PairTy, 2, 0);
  LLVMValueRef *Pairs = calloc(N, sizeof(*Pairs));
  if (!Pairs)
    return orc_rt_Error_create("out of memory");
  size_t K = 0;
  orc_rt_ErrorRef Err = NULL;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G && !Err;
       G = LLVMGetNextGlobal(G)) {
    if (!LLVMIsThreadLocal(G) || !LLVMIsDeclaration(G))
      continue;
    size_t Len;
    const char *Name = LLVMGetValueName2(G, &Len);
    char *CtlName = orc_rt_jit_emuTLSControlName(Name, Len);
    if (!CtlName) {
      Err = orc_rt_Error_create("out of memory");
      break;
    }
    /* The control variable the lowering would declare (it finds this one). */
    LLVMValueRef Ctl = LLVMGetNamedGlobal(M, CtlName);
    if (!Ctl) {
      Ctl = LLVMAddGlobal(M, I64, CtlName);
      LLVMSetLinkage(Ctl, LLVMExternalWeakLinkage);
      LLVMSetVisibility(Ctl, LLVMGetVisibility(G));
    }
    free(CtlName);
    LLVMValueRef Str = LLVMConstStringInContext2(C, Name, Len, 0);
    LLVMValueRef S = LLVMAddGlobal(M, LLVMTypeOf(Str), "__orc_rt_tls_name");
    LLVMSetInitializer(S, Str);
    LLVMSetGlobalConstant(S, 1);
    LLVMSetLinkage(S, LLVMPrivateLinkage);
    LLVMValueRef Fields[2] = {Ctl, S};
    Pairs[K++] = LLVMConstNamedStruct(Pair, Fields, 2);
  }
  if (!Err) {
    LLVMValueRef Body[2] = {LLVMConstInt(I64, K, 0),
                            LLVMConstArray2(Pair, Pairs, K)};
    LLVMValueRef Init = LLVMConstStructInContext(C, Body, 2, 0);
    LLVMValueRef T = LLVMAddGlobal(M, LLVMTypeOf(Init), ORC_RT_JIT_TLS_IMPORTS);
    LLVMSetInitializer(T, Init);
    LLVMSetGlobalConstant(T, 1);
  }
  free(Pairs);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_checkTLSImports(const void *Table) {
  uint64_t N;
  memcpy(&N, Table, sizeof(N));
  const char *Pairs = (const char *)Table + sizeof(N);
  for (uint64_t I = 0; I < N; ++I) {
    void *Ctl;
    const char *Name;
    memcpy(&Ctl, Pairs + 16 * I, sizeof(Ctl));
    memcpy(&Name, Pairs + 16 * I + 8, sizeof(Name));
    if (!Ctl && !dlsym(RTLD_DEFAULT, Name))
      return orc_rt_Error_createf("undefined thread_local variable '%s' (no "
                                  "loaded module or library defines it)",
                                  Name);
  }
  return NULL;
}

/*---- At run time ----*/

void *orc_rt_jit_emuTLSAddress(void *Ctl, const char *Name) {
  if (!Ctl)
    return dlsym(RTLD_DEFAULT, Name);
  /* libgcc_s's: the one every module's own thread_locals use. Relaxed: any
   * thread that looks it up stores the same value. */
  static void *(*GetAddress)(void *);
  void *(*Get)(void *) = __atomic_load_n(&GetAddress, __ATOMIC_RELAXED);
  if (!Get) {
    void *Sym = dlsym(RTLD_DEFAULT, "__emutls_get_address");
    memcpy(&Get, &Sym, sizeof(Sym));
    __atomic_store_n(&GetAddress, Get, __ATOMIC_RELAXED);
  }
  return Get ? Get(Ctl) : NULL;
}
