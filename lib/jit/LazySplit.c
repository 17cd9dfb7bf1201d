/*===- lib/jit/LazySplit.c - Cutting a module up for lazy compilation -----===*/

#include "jit/LazySplit.h"

#include <llvm-c/Comdat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool isLocalLinkage(LLVMLinkage L) {
  return L == LLVMInternalLinkage || L == LLVMPrivateLinkage;
}

static bool isWeakLinkage(LLVMLinkage L) {
  return L == LLVMLinkOnceAnyLinkage || L == LLVMLinkOnceODRLinkage ||
         L == LLVMWeakAnyLinkage || L == LLVMWeakODRLinkage ||
         L == LLVMCommonLinkage || L == LLVMExternalWeakLinkage;
}

/* Gives every local global value a unique external name. */
static void promoteLocals(LLVMModuleRef M, unsigned ModuleIndex) {
  unsigned I = 0;
  char Name[512];
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    if (!LLVMIsDeclaration(F) && isLocalLinkage(LLVMGetLinkage(F))) {
      size_t Len;
      const char *Old = LLVMGetValueName2(F, &Len);
      snprintf(Name, sizeof(Name), "%.*s.__mini_lli.%u.%u", (int)Len, Old,
               ModuleIndex, I++);
      LLVMSetValueName2(F, Name, strlen(Name));
      LLVMSetLinkage(F, LLVMExternalLinkage);
      LLVMSetVisibility(F, LLVMDefaultVisibility);
    }
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
    if (!LLVMIsDeclaration(G) && isLocalLinkage(LLVMGetLinkage(G))) {
      size_t Len;
      const char *Old = LLVMGetValueName2(G, &Len);
      snprintf(Name, sizeof(Name), "%.*s.__mini_lli.%u.%u", (int)Len,
               Len ? Old : "anon", ModuleIndex, I++);
      LLVMSetValueName2(G, Name, strlen(Name));
      LLVMSetLinkage(G, LLVMExternalLinkage);
      LLVMSetVisibility(G, LLVMDefaultVisibility);
      LLVMSetUnnamedAddress(G, LLVMNoUnnamedAddr);
    }
}

/* Turns a function definition into a declaration (Function::deleteBody). */
static void dropBody(LLVMValueRef F) {
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

static void dropInitializer(LLVMValueRef G) {
  LLVMSetInitializer(G, NULL);
  LLVMSetLinkage(G, LLVMExternalLinkage);
  LLVMSetComdat(G, NULL);
}

/* Renames F to NAME$body and points every use of F at a new declaration
 * named NAME (the stub). */
static void makeBody(LLVMModuleRef M, LLVMValueRef F) {
  size_t Len;
  const char *Old = LLVMGetValueName2(F, &Len);
  char *Name = strndup(Old, Len);
  char *Body = malloc(Len + 6);
  if (!Name || !Body) {
    free(Name);
    free(Body);
    return;
  }
  snprintf(Body, Len + 6, "%s$body", Name);
  LLVMSetValueName2(F, Body, strlen(Body));
  LLVMValueRef Decl = LLVMAddFunction(M, Name, LLVMGlobalGetValueType(F));
  LLVMReplaceAllUsesWith(F, Decl);
  /* A weak body stays weak (a strong one elsewhere wins, as for the stub);
   * linkonce becomes weak, as nothing in this module uses the body. */
  LLVMLinkage L = LLVMGetLinkage(F);
  if (L == LLVMLinkOnceAnyLinkage)
    LLVMSetLinkage(F, LLVMWeakAnyLinkage);
  else if (L == LLVMLinkOnceODRLinkage)
    LLVMSetLinkage(F, LLVMWeakODRLinkage);
  else if (L != LLVMWeakAnyLinkage && L != LLVMWeakODRLinkage)
    LLVMSetLinkage(F, LLVMExternalLinkage);
  LLVMSetVisibility(F, LLVMDefaultVisibility);
  LLVMSetComdat(F, NULL);
  free(Name);
  free(Body);
}

/* True if some block of M has its address taken (blockaddress): such a
 * function cannot be renamed behind a stub or have its body dropped. */
static bool hasBlockAddress(LLVMModuleRef M) {
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB;
         BB = LLVMGetNextBasicBlock(BB))
      for (LLVMUseRef U = LLVMGetFirstUse(LLVMBasicBlockAsValue(BB)); U;
           U = LLVMGetNextUse(U))
        if (!LLVMIsAInstruction(LLVMGetUser(U)))
          return true;
  return false;
}

static bool isStubbed(LLVMValueRef F) {
  return !LLVMIsDeclaration(F) &&
         LLVMGetLinkage(F) != LLVMAvailableExternallyLinkage &&
         !LLVMGetIntrinsicID(F);
}

/* True if every use of F is as the callee of a call or invoke. A function
 * whose address escapes (callbacks, vtables, function pointers handed to
 * non-JIT code) is not put behind a stub: it is compiled when the code that
 * takes its address is linked, so it never needs compiling while the program
 * is inside a library (e.g. in std::call_once, whose state LLVM's own
 * call_once would wipe). */
static bool onlyCalled(LLVMValueRef F) {
  for (LLVMUseRef U = LLVMGetFirstUse(F); U; U = LLVMGetNextUse(U)) {
    LLVMValueRef User = LLVMGetUser(U);
    if (!LLVMIsACallInst(User) && !LLVMIsAInvokeInst(User))
      return false;
    if (LLVMGetCalledValue(User) != F)
      return false;
    unsigned N = LLVMGetNumArgOperands(User);
    for (unsigned I = 0; I < N; ++I)
      if (LLVMGetOperand(User, I) == F)
        return false;
  }
  return true;
}

/* The largest number of per-function parts a module is split into (see
 * orc_rt_jit_splitForLazy). */
#define MAX_SPLIT_PARTS 256

typedef struct {
  char *Name;
  bool Stub;
} Part;

static void freeParts(Part *Parts, size_t N) {
  for (size_t I = 0; Parts && I < N; ++I)
    free(Parts[I].Name);
  free(Parts);
}

static LLVMValueRef findFunction(LLVMModuleRef M, const char *Name,
                                 size_t Len) {
  return LLVMGetNamedFunctionWithLength(M, Name, Len);
}

orc_rt_ErrorRef orc_rt_jit_splitForLazy(LLVMModuleRef M, unsigned ModuleIndex,
                                        bool PerFunction,
                                        orc_rt_jit_LazyParts *Out) {
  memset(Out, 0, sizeof(*Out));
  bool Splittable = !LLVMGetFirstGlobalAlias(M) &&
                    !LLVMGetFirstGlobalIFunc(M) && !hasBlockAddress(M);
  if (!Splittable) {
    /* Added whole and compiled when first needed; no stubs. */
    Out->Modules = malloc(sizeof(LLVMModuleRef));
    if (!Out->Modules) {
      LLVMDisposeModule(M);
      return orc_rt_Error_create("out of memory");
    }
    Out->Modules[0] = M;
    Out->NumModules = 1;
    return NULL;
  }
  promoteLocals(M, ModuleIndex);

  /* Every function with a body gets a part (per function); those only ever
   * called directly also get a stub. */
  size_t NumFns = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    NumFns += isStubbed(F);
  Part *Parts = calloc(NumFns ? NumFns : 1, sizeof(*Parts));
  Out->Stubs = calloc(NumFns ? NumFns : 1, sizeof(*Out->Stubs));
  Out->Modules = calloc(PerFunction ? NumFns + 1 : 1, sizeof(LLVMModuleRef));
  orc_rt_ErrorRef Err = NULL;
  if (!Parts || !Out->Stubs || !Out->Modules)
    Err = orc_rt_Error_create("out of memory");
  size_t NumParts = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && !Err;
       F = LLVMGetNextFunction(F)) {
    if (!isStubbed(F))
      continue;
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    Part *P = &Parts[NumParts++];
    P->Name = strndup(Name, Len);
    P->Stub = onlyCalled(F);
    if (!P->Name) {
      Err = orc_rt_Error_create("out of memory");
      break;
    }
    if (!P->Stub)
      continue;
    orc_rt_jit_LazyStub *S = &Out->Stubs[Out->NumStubs++];
    S->Name = strdup(P->Name);
    S->Body = malloc(Len + 6);
    if (S->Body)
      snprintf(S->Body, Len + 6, "%.*s$body", (int)Len, Name);
    S->Weak = isWeakLinkage(LLVMGetLinkage(F));
    if (!S->Name || !S->Body)
      Err = orc_rt_Error_create("out of memory");
  }
  if (Err) {
    freeParts(Parts, NumParts);
    LLVMDisposeModule(M);
    return Err;
  }

  /* Each per-function part is a clone of the whole module, so splitting costs
   * parts x module size. Past MAX_SPLIT_PARTS that is worse than compiling the
   * module on its first call, so large modules stay whole (still lazy: nothing
   * is compiled until a stub is called). */
  if (NumParts > MAX_SPLIT_PARTS)
    PerFunction = false;
  if (!PerFunction) {
    for (size_t I = 0; I < Out->NumStubs; ++I)
      makeBody(M,
               findFunction(M, Out->Stubs[I].Name, strlen(Out->Stubs[I].Name)));
    Out->Modules[Out->NumModules++] = M;
    freeParts(Parts, NumParts);
    return NULL;
  }

  /* One module per body: a clone where every other definition is dropped. */
  for (size_t I = 0; I < NumParts; ++I) {
    LLVMModuleRef Mod = LLVMCloneModule(M);
    for (LLVMValueRef F = LLVMGetFirstFunction(Mod); F;
         F = LLVMGetNextFunction(F)) {
      size_t Len;
      const char *Name = LLVMGetValueName2(F, &Len);
      if (isStubbed(F) &&
          (Len != strlen(Parts[I].Name) || memcmp(Name, Parts[I].Name, Len)))
        dropBody(F);
    }
    for (LLVMValueRef G = LLVMGetFirstGlobal(Mod); G; G = LLVMGetNextGlobal(G))
      if (!LLVMIsDeclaration(G))
        dropInitializer(G);
    if (Parts[I].Stub)
      makeBody(Mod, findFunction(Mod, Parts[I].Name, strlen(Parts[I].Name)));
    Out->Modules[Out->NumModules++] = Mod;
  }
  /* The original keeps the global variables and no bodies. */
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    if (isStubbed(F))
      dropBody(F);
  Out->Modules[Out->NumModules++] = M;
  freeParts(Parts, NumParts);
  return NULL;
}

void orc_rt_jit_LazyParts_dispose(orc_rt_jit_LazyParts *P) {
  for (size_t I = 0; I < P->NumModules; ++I)
    if (P->Modules[I])
      LLVMDisposeModule(P->Modules[I]);
  for (size_t I = 0; I < P->NumStubs; ++I) {
    free(P->Stubs[I].Name);
    free(P->Stubs[I].Body);
  }
  free(P->Modules);
  free(P->Stubs);
  memset(P, 0, sizeof(*P));
}
