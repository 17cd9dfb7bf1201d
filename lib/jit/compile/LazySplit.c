/*===- lib/jit/compile/LazySplit.c - Cutting a module up for lazy compilation ===*/
/* See LazySplit.h for what the parts are. The per-function split is linear in
 * the size of the module. When the module is added, each body's basic blocks
 * are moved (not copied) into one holder module in the same LLVMContext, and
 * the few operands that name a global value are pointed at a declaration of
 * the same name there; the JIT never compiles the holder. When a body is first
 * looked up, the same move takes it from the holder into a small module of its
 * own, which is compiled. Building every body's module up front instead costs
 * a module, an IR-layer materialization unit and their teardown per function:
 * on a 50,000-function module, twice what moving the bodies costs.
 *
 * This file decides the cut (which module is split, which function gets a
 * stub) and makes it; the move itself is BodyMover.c (with ConstantRebuild.c
 * for the constants that name globals), and the ORC units that move bodies
 * out of the holder on first lookup are LazyMaterialize.c. */

#include "jit/compile/LazySplit.h"
#include "jit/compile/LazyMaterialize.h"
#include "jit/ir/BodyMover.h"
#include "jit/ir/ConstantRebuild.h"
#include "jit/ir/Module.h"
#include "jit/ir/SplitSupport.h"
#include "jit/support/Diag.h"
#include "jit/support/PtrSet.h"

#include <llvm-c/Comdat.h>
#include <llvm-c/DebugInfo.h>

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

/* True if F has a body the cut takes out (split out per function, renamed
 * behind a stub if it gets one). */
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
         LLVMGetNamedGlobalWithLength(M, Name, Len) ||
         LLVMGetNamedGlobalAlias(M, Name, Len);
}

/*===----------------------------------------------------------------------===*/
/* The cut. */

/* True if M can be cut (see LazySplit.h): no module-level assembly (the
 * symbols it defines are in no part's table of what it defines, and so
 * found nowhere), no aliases but of variables (the
 * companions of kept variables, ir/KeptVariables.h, are such: an alias of a
 * variable stays with it, in the part the cut leaves the variables in, and
 * a moved body reaches it by name; one of a function would name a body that
 * moves away), no ifuncs, no blockaddress constants. */
static bool canSplit(LLVMModuleRef M) {
  for (LLVMValueRef A = LLVMGetFirstGlobalAlias(M); A;
       A = LLVMGetNextGlobalAlias(A))
    if (!orc_rt_jit_aliasedVariable(A))
      return false;
  return !orc_rt_jit_hasModuleAsm(M) && !LLVMGetFirstGlobalIFunc(M) &&
         !hasBlockAddress(M);
}

/* F's type is a signal handler's: void (i32), or void (i32, ptr, ptr). */
static bool handlerType(LLVMValueRef F) {
  LLVMTypeRef T = LLVMGlobalGetValueType(F);
  unsigned N = LLVMCountParamTypes(T);
  if (LLVMGetTypeKind(LLVMGetReturnType(T)) != LLVMVoidTypeKind ||
      LLVMIsFunctionVarArg(T) || (N != 1 && N != 3))
    return false;
  LLVMTypeRef P[3];
  LLVMGetParamTypes(T, P);
  if (LLVMGetTypeKind(P[0]) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(P[0]) != 32)
    return false;
  return N == 1 || (LLVMGetTypeKind(P[1]) == LLVMPointerTypeKind &&
                    LLVMGetTypeKind(P[2]) == LLVMPointerTypeKind);
}

/* F's address means more than where to call it, so a front (8 bytes, 8
 * apart: tier/TierFronts.h) may not stand for it: an alignment above 8 (a
 * program may keep tags in the low bits), prefix data, or the type data
 * that -fsanitize=kcfi and -fsanitize=function emit just before the entry
 * and check through a function pointer before an indirect call. */
static bool addressCarriesData(LLVMValueRef F) {
  if (LLVMGetAlignment(F) > 8 || LLVMHasPrefixData(F))
    return true;
  LLVMContextRef C = LLVMGetModuleContext(LLVMGetGlobalParent(F));
  unsigned KCFI = LLVMGetMDKindIDInContext(C, "kcfi_type", 9),
           Sanitize = LLVMGetMDKindIDInContext(C, "func_sanitize", 13);
  size_t N = 0;
  LLVMValueMetadataEntry *MD = LLVMGlobalCopyAllMetadata(F, &N);
  bool Found = false;
  for (size_t I = 0; I < N && !Found; ++I) {
    unsigned Kind = LLVMValueMetadataEntriesGetKind(MD, I);
    Found = Kind == KCFI || Kind == Sanitize;
  }
  if (MD)
    LLVMDisposeValueMetadataEntries(MD);
  return Found;
}

/* Decides whether F (see isStubbed) gets a stub: if so, adds it to Out->Stubs.
 * *Stub says which; an error only if out of memory. */
static orc_rt_ErrorRef stubFor(LLVMModuleRef M, LLVMValueRef F, bool Every,
                               orc_rt_jit_LazyParts *Out, bool *Stub) {
  size_t Len;
  const char *Name = LLVMGetValueName2(F, &Len);
  char *Body = malloc(Len + 6);
  if (!Body)
    return orc_rt_Error_create("out of memory");
  snprintf(Body, Len + 6, "%.*s$body", (int)Len, Name);
  /* A module that already names something NAME$body keeps NAME unstubbed
   * rather than have the two names clash. */
  /* Every (tiered) gives a weak function (__attribute__((weak)): a default
   * that another module may override) no stub: a stub's front is defined,
   * and looked up, as its module is added, so a strong definition in a
   * module added later could no longer replace it. Its body is compiled on
   * its first lookup, and never tiers up. So is a function whose address
   * escapes and carries data (addressCarriesData): its address stays its
   * code's, as without Every. */
  /* Of a body not read yet, the uses in other such bodies are unknown: its
   * address may escape. */
  bool Called = !orc_rt_jit_isUnread(F) && onlyCalled(F);
  bool Weak = LLVMGetLinkage(F) == LLVMWeakAnyLinkage;
  *Stub = (Every ? !Weak && (Called || !addressCarriesData(F)) : Called) &&
          !nameTaken(M, Body, Len + 5);
  if (!*Stub) {
    free(Body);
    return NULL;
  }
  orc_rt_jit_LazyStub *St = &Out->Stubs[Out->NumStubs++];
  St->Name = strndup(Name, Len);
  St->Body = Body;
  St->Weak = orc_rt_jit_isWeakLinkage(LLVMGetLinkage(F));
  St->HandlerType = handlerType(F);
  /* Of a body not read yet it is unknown whether its address escapes; what
   * that stands for (tier/Tiers.h: it may be a signal handler) is told by
   * its type. */
  St->Escapes = orc_rt_jit_isUnread(F) ? St->HandlerType : !Called;
  return St->Name ? NULL : orc_rt_Error_create("out of memory");
}

/* Every function with a body is split out (per function); those only ever
 * called directly (or all, if Every) also get a stub (Out->Stubs). *IsStub gets, for each
 * function with a body in order, whether it got one. */
static orc_rt_ErrorRef chooseStubs(LLVMModuleRef M, bool Every,
                                   orc_rt_jit_LazyParts *Out, bool **IsStub) {
  size_t NumFns = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    NumFns += isStubbed(F);
  *IsStub = calloc(NumFns ? NumFns : 1, sizeof(**IsStub));
  Out->Stubs = calloc(NumFns ? NumFns : 1, sizeof(*Out->Stubs));
  if (!*IsStub || !Out->Stubs)
    return orc_rt_Error_create("out of memory");
  orc_rt_ErrorRef Err = NULL;
  size_t NumParts = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && !Err;
       F = LLVMGetNextFunction(F))
    if (isStubbed(F))
      Err = stubFor(M, F, Every, Out, &(*IsStub)[NumParts++]);
  return Err;
}

/* Every body moves into one holder module, which the JIT never compiles:
 * orc_rt_jit_defineLazyBodies moves each from there into a module of its
 * own when first looked up. The original keeps the global variables (and
 * available_externally bodies, which are never emitted). Sets Out->Bodies. */
static orc_rt_ErrorRef moveToHolder(LLVMModuleRef M, const bool *IsStub,
                                    const orc_rt_jit_PtrSet *Dirty,
                                    orc_rt_jit_LazyParts *Out) {
  orc_rt_jit_BodyMover S = {0};
  orc_rt_jit_PtrSet HolderDirty = {0};
  S.Dirty = Dirty;
  S.Record = &HolderDirty;
  size_t IdLen;
  const char *Id = LLVMGetModuleIdentifier(M, &IdLen);
  const char *HName =
      orc_rt_jit_BodyMover_name(&S, Id, IdLen, " (lazy bodies)");
  S.Part = HName ? orc_rt_jit_newModuleLike(M, HName) : NULL;
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
  if (S.Part && !S.OutOfMemory)
    Out->Bodies = orc_rt_jit_LazyBodies_create(S.Part, &HolderDirty);
  else if (S.Part)
    LLVMDisposeModule(S.Part);
  orc_rt_jit_PtrSet_free(&HolderDirty);
  return Out->Bodies ? NULL : orc_rt_Error_create("out of memory");
}

/* Makes F, a body not read yet, a declaration: a new one takes its name
 * and its uses, and F goes (its body is read from the holder instead). */
static bool declareUnread(LLVMModuleRef M, LLVMValueRef F) {
  size_t Len;
  const char *Name = LLVMGetValueName2(F, &Len);
  char *Copy = strndup(Name, Len);
  if (!Copy)
    return false;
  LLVMSetValueName2(F, "", 0);
  LLVMValueRef Decl = LLVMAddFunction(M, Copy, LLVMGlobalGetValueType(F));
  free(Copy);
  LLVMSetFunctionCallConv(Decl, LLVMGetFunctionCallConv(F));
  orc_rt_jit_copyAttributes(F, Decl);
  LLVMReplaceAllUsesWith(F, Decl);
  LLVMDeleteFunction(F);
  return true;
}

/* In the holder H, F (of M, by name), stubbed, keeps its name (renaming it
 * would point its own blockaddresses, in a body not read yet, at the
 * declaration taking its name) and is recorded in Bodies with the name its
 * body gets when it moves (NAME$body): the code that calls it names NAME,
 * which the move points at the stub. It gets its body's linkage now. */
static bool noteStubbed(LLVMModuleRef H, const char *Name, size_t Len,
                        orc_rt_jit_PtrSet *Bodies) {
  LLVMValueRef F = LLVMGetNamedFunctionWithLength(H, Name, Len);
  if (!F || LLVMIsDeclaration(F))
    return true; /* (cannot happen: H is M read again) */
  char *Body = malloc(Len + 6);
  if (!Body)
    return false;
  snprintf(Body, Len + 6, "%.*s$body", (int)Len, Name);
  if (orc_rt_jit_PtrSet_put(Bodies, F, Body) < 0) {
    free(Body);
    return false;
  }
  LLVMSetLinkage(F, bodyLinkage(LLVMGetLinkage(F)));
  LLVMSetVisibility(F, LLVMDefaultVisibility);
  LLVMSetComdat(F, NULL);
  return true;
}

/* The split of a module whose bodies are not read yet (ir/Module.h): a body
 * cannot move before it is read, so the same module read again, H, holds
 * them (orc_rt_jit_defineLazyBodies reads each when it is first looked up,
 * then moves it), and M keeps the variables and declarations. */
static orc_rt_ErrorRef splitUnread(LLVMModuleRef M, LLVMModuleRef H,
                                   const bool *IsStub,
                                   orc_rt_jit_LazyParts *Out) {
  orc_rt_jit_PtrSet Bodies = {0}; /* F -> NAME$body, for the stubbed */
  bool OK = true;
  size_t K = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M), Next; F && OK; F = Next) {
    Next = LLVMGetNextFunction(F);
    if (LLVMIsDeclaration(F))
      continue;
    bool Stub = isStubbed(F) && IsStub[K++];
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    if (Stub)
      OK = noteStubbed(H, Name, Len, &Bodies);
    OK = OK && declareUnread(M, F);
  }
  if (OK)
    Out->Bodies = orc_rt_jit_LazyBodies_createUnread(H, &Bodies);
  else
    LLVMDisposeModule(H);
  for (size_t I = 0; !Out->Bodies && Bodies.Keys && I <= Bodies.Mask; ++I)
    free(Bodies.Values[I]);
  orc_rt_jit_PtrSet_free(&Bodies);
  return Out->Bodies ? NULL : orc_rt_Error_create("out of memory");
}

orc_rt_ErrorRef orc_rt_jit_splitForLazy(LLVMModuleRef M, unsigned ModuleIndex,
                                        bool PerFunction, bool EveryFunction,
                                        LLVMModuleRef Holder,
                                        orc_rt_jit_LazyParts *Out) {
  memset(Out, 0, sizeof(*Out));
  orc_rt_jit_PtrSet Dirty = {0};
  bool Splittable = canSplit(M);
  if (Holder && (!Splittable || !PerFunction)) {
    /* (parseModuleLazily reads lazily only what can be split) */
    LLVMDisposeModule(Holder);
    LLVMDisposeModule(M);
    return orc_rt_Error_create("internal error: a module read lazily cannot "
                               "be split");
  }
  if (Splittable && PerFunction &&
      !orc_rt_jit_findDirtyConstants(M, &Dirty, &Splittable) && Splittable) {
    orc_rt_jit_PtrSet_free(&Dirty);
    if (Holder)
      LLVMDisposeModule(Holder);
    LLVMDisposeModule(M);
    return orc_rt_Error_create("out of memory");
  }
  Out->Modules = malloc(sizeof(LLVMModuleRef));
  if (!Out->Modules) {
    orc_rt_jit_PtrSet_free(&Dirty);
    if (Holder)
      LLVMDisposeModule(Holder);
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
  if (Holder) /* the same names: it is the same module, read again */
    orc_rt_jit_promoteLocals(Holder, ModuleIndex);
  bool *IsStub = NULL;
  orc_rt_ErrorRef Err = chooseStubs(M, EveryFunction, Out, &IsStub);
  if (!Err && Holder)
    Err = splitUnread(M, Holder, IsStub, Out);
  else if (Holder)
    LLVMDisposeModule(Holder);
  else if (!Err && PerFunction)
    Err = moveToHolder(M, IsStub, &Dirty, Out);
  else if (!Err)
    /* The module stays whole: each stubbed body is renamed in place. */
    for (size_t I = 0; I < Out->NumStubs; ++I)
      makeBody(M, LLVMGetNamedFunction(M, Out->Stubs[I].Name));
  free(IsStub);
  orc_rt_jit_PtrSet_free(&Dirty);
  if (Err)
    orc_rt_jit_LazyParts_dispose(Out);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_defineLazyBodies(orc_rt_jit_LazyParts *P,
                                            LLVMOrcLLJITRef J,
                                            LLVMOrcJITDylibRef JD,
                                            LLVMOrcThreadSafeContextRef *TSC,
                                            orc_rt_jit_LazyEmitFn Emit,
                                            void *EmitCtx) {
  orc_rt_jit_LazyBodies *B = P->Bodies;
  if (!B)
    return NULL;
  P->Bodies = NULL;
  return orc_rt_jit_LazyBodies_define(B, J, JD, TSC, Emit, EmitCtx);
}

/* One lazy-reexports unit per STUB_CHUNK stubs: ORC splits a unit at each
 * first call (the called stub out, the others into a new unit), which costs
 * the unit's size, so a single unit made a program that calls every
 * function quadratic. */
#define STUB_CHUNK 64

orc_rt_ErrorRef orc_rt_jit_defineLazyStubs(
    LLVMOrcLLJITRef J, LLVMOrcJITDylibRef JD,
    LLVMOrcLazyCallThroughManagerRef LCTM, LLVMOrcIndirectStubsManagerRef ISM,
    const orc_rt_jit_LazyStub *Stubs, size_t N, char *const *Names) {
  LLVMOrcCSymbolAliasMapPairs Pairs = calloc(N + 1, sizeof(*Pairs));
  if (!Pairs)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < N; ++I) {
    Pairs[I].Name =
        LLVMOrcLLJITMangleAndIntern(J, Names ? Names[I] : Stubs[I].Name);
    Pairs[I].Entry.Name = LLVMOrcLLJITMangleAndIntern(J, Stubs[I].Body);
    Pairs[I].Entry.Flags.GenericFlags =
        LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable |
        (Stubs[I].Weak ? LLVMJITSymbolGenericFlagsWeak : 0);
    Pairs[I].Entry.Flags.TargetFlags = 0;
  }
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; I < N; I += STUB_CHUNK) {
    size_t Size = N - I < STUB_CHUNK ? N - I : STUB_CHUNK;
    if (!Err) {
      Err = orc_rt_jit_fromLLVMError(
          LLVMOrcJITDylibDefine(
              JD, LLVMOrcLazyReexports(LCTM, ISM, JD, Pairs + I, Size)),
          NULL);
      continue;
    }
    for (size_t K = I; K < I + Size; ++K) { /* not handed to ORC */
      LLVMOrcReleaseSymbolStringPoolEntry(Pairs[K].Name);
      LLVMOrcReleaseSymbolStringPoolEntry(Pairs[K].Entry.Name);
    }
  }
  free(Pairs);
  return Err;
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
    orc_rt_jit_LazyBodies_release(P->Bodies);
  free(P->Modules);
  free(P->Stubs);
  memset(P, 0, sizeof(*P));
}
