/*===- lib/jit/LazySplit.c - Cutting a module up for lazy compilation -----===*/
/* See LazySplit.h for what the parts are. The per-function split is linear in
 * the size of the module. When the module is added, each body's basic blocks
 * are moved (not copied) into one holder module in the same LLVMContext, and
 * the few operands that name a global value are pointed at a declaration of
 * the same name there; the JIT never compiles the holder. When a body is first
 * looked up, the same move takes it from the holder into a small module of its
 * own, which is compiled. Building every body's module up front instead costs
 * a module, an IR-layer materialization unit and their teardown per function:
 * on a 50,000-function module, twice what moving the bodies costs. */

#include "jit/LazySplit.h"
#include "jit/BodyMover.h"
#include "jit/ConstantRebuild.h"
#include "jit/PtrSet.h"
#include "jit/SplitSupport.h"

#include "jit/Diag.h"

#include <llvm-c/Comdat.h>
#include <llvm-c/DebugInfo.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The linkage of a body behind a stub: a weak body stays weak (a strong one
 * elsewhere wins, as for the stub); linkonce becomes weak, as nothing in its
 * module uses the body, so linkonce would let it be dropped. */
static LLVMLinkage bodyLinkage(LLVMLinkage L) {
  if (L == LLVMLinkOnceAnyLinkage || L == LLVMWeakAnyLinkage)
    return LLVMWeakAnyLinkage;
  if (L == LLVMLinkOnceODRLinkage || L == LLVMWeakODRLinkage)
    return LLVMWeakODRLinkage;
  return LLVMExternalLinkage;
}

/* Renames F to NAME$body and points every use of F at a new declaration
 * named NAME (the stub). Used when the module stays whole. */
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
  LLVMSetLinkage(F, bodyLinkage(LLVMGetLinkage(F)));
  LLVMSetVisibility(F, LLVMDefaultVisibility);
  LLVMSetComdat(F, NULL);
  free(Name);
  free(Body);
}

/* True if some block of M has its address taken (blockaddress): such a
 * function cannot be renamed behind a stub or have its body moved. */
static bool hasBlockAddress(LLVMModuleRef M) {
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    if (orc_rt_jit_hasBlockAddress(F))
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

/* True if M already holds a global value named Name (Len bytes). */
static bool nameTaken(LLVMModuleRef M, const char *Name, size_t Len) {
  return LLVMGetNamedFunctionWithLength(M, Name, Len) ||
         LLVMGetNamedGlobalWithLength(M, Name, Len);
}

/*===----------------------------------------------------------------------===*/
/* The bodies, kept until first looked up. */

struct orc_rt_jit_LazyBodies {
  LLVMModuleRef Holder; /* every body, until defined; then in HolderTSM */
  orc_rt_jit_PtrSet
      Dirty; /* constants of Holder that name one of its globals */
  /* Set by orc_rt_jit_defineLazyBodies. */
  LLVMOrcThreadSafeModuleRef HolderTSM; /* its lock guards all of the above */
  LLVMOrcThreadSafeContextRef TSC;
  LLVMOrcIRTransformLayerRef Layer;
  orc_rt_jit_PtrSet Functions; /* symbol-pool entry -> the function in Holder */
  atomic_size_t Refs; /* one per materialization unit, plus the definer's */
};

static void LazyBodies_release(orc_rt_jit_LazyBodies *B) {
  if (atomic_fetch_sub(&B->Refs, 1) != 1)
    return;
  if (B->HolderTSM)
    LLVMOrcDisposeThreadSafeModule(B->HolderTSM); /* under the context lock */
  else if (B->Holder)
    LLVMDisposeModule(B->Holder);
  for (size_t I = 0; B->Functions.Keys && I <= B->Functions.Mask; ++I)
    if (B->Functions.Keys[I])
      LLVMOrcReleaseSymbolStringPoolEntry(
          (LLVMOrcSymbolStringPoolEntryRef)B->Functions.Keys[I]);
  orc_rt_jit_PtrSet_free(&B->Functions);
  orc_rt_jit_PtrSet_free(&B->Dirty);
  LLVMOrcDisposeThreadSafeContext(B->TSC);
  free(B);
}

typedef struct {
  orc_rt_jit_LazyBodies *B;
  LLVMOrcSymbolStringPoolEntryRef *Names;
  size_t NumNames;
  LLVMModuleRef Part;
} Extraction;

/* Moves the requested bodies from the holder into a new module (called with
 * the context locked). */
static LLVMErrorRef extractBodies(void *Ctx, LLVMModuleRef Holder) {
  Extraction *X = Ctx;
  orc_rt_jit_BodyMover S = {0};
  S.Dirty = &X->B->Dirty;
  for (size_t I = 0; I < X->NumNames && !S.OutOfMemory; ++I) {
    LLVMValueRef F = orc_rt_jit_PtrSet_get(&X->B->Functions, X->Names[I]);
    if (!F || LLVMIsDeclaration(F)) {
      S.OutOfMemory = true; /* cannot happen: each is materialized once */
      break;
    }
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    char *Copy = strndup(Name, Len);
    if (!Copy) {
      S.OutOfMemory = true;
      break;
    }
    if (!S.Part)
      S.Part = orc_rt_jit_newModuleLike(Holder, Copy);
    orc_rt_jit_BodyMover_move(&S, F, Copy, LLVMGetLinkage(F),
                              LLVMGetVisibility(F));
    free(Copy);
  }
  orc_rt_jit_BodyMover_dispose(&S);
  if (S.OutOfMemory && S.Part) {
    LLVMDisposeModule(S.Part);
    S.Part = NULL;
  }
  X->Part = S.Part;
  return NULL;
}

static void materializeBodies(void *Ctx,
                              LLVMOrcMaterializationResponsibilityRef MR);
static void discardBody(void *Ctx, LLVMOrcJITDylibRef JD,
                        LLVMOrcSymbolStringPoolEntryRef Symbol) {
  /* A strong definition elsewhere won: the body stays unused in the holder. */
  (void)Ctx;
  (void)JD;
  (void)Symbol;
}
static void destroyBodies(void *Ctx) { LazyBodies_release(Ctx); }

/* A materialization unit for Syms (names retained for it), which it takes. */
static LLVMOrcMaterializationUnitRef
bodiesUnit(orc_rt_jit_LazyBodies *B, LLVMOrcCSymbolFlagsMapPairs Syms,
           size_t NumSyms) {
  atomic_fetch_add(&B->Refs, 1);
  return LLVMOrcCreateCustomMaterializationUnit(
      "mini-lli lazy bodies", B, Syms, NumSyms, NULL, materializeBodies,
      discardBody, destroyBodies);
}

/* Called when some of MR's bodies are looked up: those are compiled, in one
 * new module; the others go back to the JITDylib in a new unit. */
static void materializeBodies(void *Ctx,
                              LLVMOrcMaterializationResponsibilityRef MR) {
  orc_rt_jit_LazyBodies *B = Ctx;
  size_t NumSyms, NumReq;
  LLVMOrcCSymbolFlagsMapPairs Syms =
      LLVMOrcMaterializationResponsibilityGetSymbols(MR, &NumSyms);
  LLVMOrcSymbolStringPoolEntryRef *Req =
      LLVMOrcMaterializationResponsibilityGetRequestedSymbols(MR, &NumReq);
  bool Failed = !Syms || !Req;
  if (!Failed && NumReq < NumSyms) {
    LLVMOrcCSymbolFlagsMapPairs Rest =
        malloc((NumSyms - NumReq) * sizeof(*Rest));
    size_t NumRest = 0;
    Failed = !Rest;
    for (size_t I = 0; I < NumSyms && !Failed; ++I) {
      bool Requested = false;
      for (size_t J = 0; J < NumReq && !Requested; ++J)
        Requested = Req[J] == Syms[I].Name;
      if (Requested || NumRest == NumSyms - NumReq)
        continue;
      LLVMOrcRetainSymbolStringPoolEntry(Syms[I].Name);
      Rest[NumRest++] = Syms[I];
    }
    if (!Failed) {
      LLVMErrorRef E = LLVMOrcMaterializationResponsibilityReplace(
          MR, bodiesUnit(B, Rest, NumRest));
      if (E) {
        LLVMConsumeError(E);
        Failed = true;
      }
    }
    free(Rest);
  }
  Extraction X = {B, Req, NumReq, NULL};
  if (!Failed) {
    LLVMErrorRef E =
        LLVMOrcThreadSafeModuleWithModuleDo(B->HolderTSM, extractBodies, &X);
    if (E)
      LLVMConsumeError(E);
    Failed = E || !X.Part;
  }
  if (Failed) {
    LLVMOrcMaterializationResponsibilityFailMaterialization(MR);
    LLVMOrcDisposeMaterializationResponsibility(MR);
  } else {
    LLVMOrcIRTransformLayerEmit(
        B->Layer, MR, LLVMOrcCreateNewThreadSafeModule(X.Part, B->TSC));
  }
  LLVMOrcDisposeCSymbolFlagsMap(Syms);
  LLVMOrcDisposeSymbols(Req);
  LazyBodies_release(B); /* this unit's reference */
}

/* Defines a unit for Syms in JD; the unit takes the array's names. */
static orc_rt_ErrorRef defineUnit(orc_rt_jit_LazyBodies *B,
                                  LLVMOrcJITDylibRef JD,
                                  LLVMOrcCSymbolFlagsMapPairs Syms,
                                  size_t NumSyms) {
  LLVMOrcMaterializationUnitRef MU = bodiesUnit(B, Syms, NumSyms);
  LLVMErrorRef E = LLVMOrcJITDylibDefine(JD, MU);
  if (E)
    LLVMOrcDisposeMaterializationUnit(MU); /* still ours if not defined */
  return orc_rt_jit_fromLLVMError(E, NULL);
}

/* How many bodies a unit starts with: a lookup of one hands the others back
 * in a new unit, which costs this many symbols; fewer units cost less to
 * define and tear down. */
#define BODIES_PER_UNIT 64

orc_rt_ErrorRef orc_rt_jit_defineLazyBodies(orc_rt_jit_LazyParts *P,
                                            LLVMOrcLLJITRef J,
                                            LLVMOrcJITDylibRef JD,
                                            LLVMOrcThreadSafeContextRef *TSC) {
  orc_rt_jit_LazyBodies *B = P->Bodies;
  if (!B)
    return NULL;
  P->Bodies = NULL;
  B->TSC = *TSC;
  *TSC = NULL;
  B->Layer = LLVMOrcLLJITGetIRTransformLayer(J);
  LLVMModuleRef H = B->Holder;
  /* From here on the holder is only touched under the context lock. */
  B->HolderTSM = LLVMOrcCreateNewThreadSafeModule(H, B->TSC);

  orc_rt_ErrorRef Err = NULL;
  LLVMOrcCSymbolFlagsMapPairs Syms = malloc(BODIES_PER_UNIT * sizeof(*Syms));
  size_t NumSyms = 0;
  if (!Syms)
    Err = orc_rt_Error_create("out of memory");
  for (LLVMValueRef F = LLVMGetFirstFunction(H); F && !Err;
       F = LLVMGetNextFunction(F)) {
    if (LLVMIsDeclaration(F))
      continue;
    size_t Len;
    const char *Raw = LLVMGetValueName2(F, &Len);
    char *Name = strndup(Raw, Len);
    LLVMOrcSymbolStringPoolEntryRef Sym =
        Name ? LLVMOrcLLJITMangleAndIntern(J, Name) : NULL;
    free(Name);
    if (!Sym || orc_rt_jit_PtrSet_put(&B->Functions, Sym, F) < 0) {
      if (Sym)
        LLVMOrcReleaseSymbolStringPoolEntry(Sym);
      Err = orc_rt_Error_create("out of memory");
      break;
    }
    /* As ORC derives them from a definition (fromGlobalValue). */
    LLVMJITSymbolFlags Flags = {LLVMJITSymbolGenericFlagsCallable, 0};
    if (orc_rt_jit_isWeakLinkage(LLVMGetLinkage(F)))
      Flags.GenericFlags |= LLVMJITSymbolGenericFlagsWeak;
    if (LLVMGetVisibility(F) != LLVMHiddenVisibility)
      Flags.GenericFlags |= LLVMJITSymbolGenericFlagsExported;
    LLVMOrcRetainSymbolStringPoolEntry(Sym); /* for the unit */
    Syms[NumSyms++] = (LLVMOrcCSymbolFlagsMapPair){Sym, Flags};
    if (NumSyms == BODIES_PER_UNIT) {
      Err = defineUnit(B, JD, Syms, NumSyms);
      NumSyms = 0;
    }
  }
  if (NumSyms && !Err)
    Err = defineUnit(B, JD, Syms, NumSyms);
  free(Syms);
  LazyBodies_release(B);
  return Err;
}

/*===----------------------------------------------------------------------===*/

orc_rt_ErrorRef orc_rt_jit_splitForLazy(LLVMModuleRef M, unsigned ModuleIndex,
                                        bool PerFunction,
                                        orc_rt_jit_LazyParts *Out) {
  memset(Out, 0, sizeof(*Out));
  orc_rt_jit_PtrSet Dirty = {0};
  bool Splittable = !LLVMGetFirstGlobalAlias(M) &&
                    !LLVMGetFirstGlobalIFunc(M) && !hasBlockAddress(M);
  if (Splittable && PerFunction &&
      !orc_rt_jit_findDirtyConstants(M, &Dirty, &Splittable) && Splittable) {
    orc_rt_jit_PtrSet_free(&Dirty);
    LLVMDisposeModule(M);
    return orc_rt_Error_create("out of memory");
  }
  Out->Modules = malloc(sizeof(LLVMModuleRef));
  if (!Out->Modules) {
    orc_rt_jit_PtrSet_free(&Dirty);
    LLVMDisposeModule(M);
    return orc_rt_Error_create("out of memory");
  }
  Out->Modules[Out->NumModules++] = M;
  if (!Splittable) {
    /* Added whole and compiled when first needed; no stubs. */
    orc_rt_jit_PtrSet_free(&Dirty);
    return NULL;
  }
  orc_rt_jit_promoteLocals(M, ModuleIndex);

  /* Every function with a body is split out (per function); those only ever
   * called directly also get a stub. */
  size_t NumFns = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    NumFns += isStubbed(F);
  bool *IsStub = calloc(NumFns ? NumFns : 1, sizeof(*IsStub));
  Out->Stubs = calloc(NumFns ? NumFns : 1, sizeof(*Out->Stubs));
  orc_rt_ErrorRef Err = NULL;
  if (!IsStub || !Out->Stubs)
    Err = orc_rt_Error_create("out of memory");
  size_t NumParts = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && !Err;
       F = LLVMGetNextFunction(F)) {
    if (!isStubbed(F))
      continue;
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    char *Body = malloc(Len + 6);
    if (!Body) {
      Err = orc_rt_Error_create("out of memory");
      break;
    }
    snprintf(Body, Len + 6, "%.*s$body", (int)Len, Name);
    /* A module that already names something NAME$body keeps NAME unstubbed
     * rather than have the two names clash. */
    bool Stub = onlyCalled(F) && !nameTaken(M, Body, Len + 5);
    IsStub[NumParts++] = Stub;
    if (!Stub) {
      free(Body);
      continue;
    }
    orc_rt_jit_LazyStub *St = &Out->Stubs[Out->NumStubs++];
    St->Name = strndup(Name, Len);
    St->Body = Body;
    St->Weak = orc_rt_jit_isWeakLinkage(LLVMGetLinkage(F));
    if (!St->Name)
      Err = orc_rt_Error_create("out of memory");
  }
  if (Err || !PerFunction) {
    for (size_t I = 0; I < Out->NumStubs && !Err; ++I)
      makeBody(M, LLVMGetNamedFunction(M, Out->Stubs[I].Name));
    free(IsStub);
    orc_rt_jit_PtrSet_free(&Dirty);
    if (Err)
      orc_rt_jit_LazyParts_dispose(Out);
    return Err;
  }

  /* Every body moves into one holder module, which the JIT never compiles:
   * orc_rt_jit_defineLazyBodies moves each from there into a module of its
   * own when first looked up. The original keeps the global variables (and
   * available_externally bodies, which are never emitted). */
  orc_rt_jit_LazyBodies *B = calloc(1, sizeof(*B));
  orc_rt_jit_BodyMover S = {0};
  S.Dirty = &Dirty;
  if (B) {
    atomic_init(&B->Refs, 1);
    S.Record = &B->Dirty;
    size_t IdLen;
    const char *Id = LLVMGetModuleIdentifier(M, &IdLen);
    const char *HName =
        orc_rt_jit_BodyMover_name(&S, Id, IdLen, " (lazy bodies)");
    S.Part = B->Holder = HName ? orc_rt_jit_newModuleLike(M, HName) : NULL;
  }
  size_t K = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && S.Part && !S.OutOfMemory;
       F = LLVMGetNextFunction(F)) {
    if (!isStubbed(F))
      continue;
    bool Stub = IsStub[K++];
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    const char *NewName =
        orc_rt_jit_BodyMover_name(&S, Name, Len, Stub ? "$body" : "");
    if (NewName)
      orc_rt_jit_BodyMover_move(
          &S, F, NewName,
          Stub ? bodyLinkage(LLVMGetLinkage(F)) : LLVMGetLinkage(F),
          Stub ? LLVMDefaultVisibility : LLVMGetVisibility(F));
  }
  /* The parts carry no debug info: a part listing its compile unit would emit
   * all of the unit's global variables and types again, and one that does not
   * list it is invalid IR (mini-lli registers no JIT'd code with a debugger,
   * so nothing is lost). Stripped once here, for all of them. */
  if (S.Part && LLVMGetNamedMetadataNumOperands(M, "llvm.dbg.cu"))
    LLVMStripModuleDebugInfo(S.Part);
  orc_rt_jit_BodyMover_dispose(&S);
  free(IsStub);
  orc_rt_jit_PtrSet_free(&Dirty);
  Out->Bodies = B;
  if (!B || !S.Part || S.OutOfMemory) {
    orc_rt_jit_LazyParts_dispose(Out);
    return orc_rt_Error_create("out of memory");
  }
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
  if (P->Bodies)
    LazyBodies_release(P->Bodies);
  free(P->Modules);
  free(P->Stubs);
  memset(P, 0, sizeof(*P));
}
