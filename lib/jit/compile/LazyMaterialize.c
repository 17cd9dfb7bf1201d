/*===- lib/jit/compile/LazyMaterialize.c - Lazy bodies as ORC units -------===*/
/* See LazyMaterialize.h. */

#include "jit/compile/LazyMaterialize.h"
#include "jit/compile/SymbolImport.h"
#include "jit/ir/BodyMover.h"
#include "jit/ir/ConstantRebuild.h"
#include "jit/ir/Module.h"
#include "jit/ir/SplitSupport.h"
#include "jit/support/Diag.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct orc_rt_jit_LazyBodies {
  LLVMModuleRef Holder; /* every body, until defined; then in HolderTSM */
  /* Constants of Holder that name one of its globals. */
  orc_rt_jit_PtrSet Dirty;
  /* Of a holder read lazily: function -> the name its body moves under, if
   * not its own (orc_rt_jit_LazyBodies_createUnread). */
  orc_rt_jit_PtrSet BodyNames;
  /* Reads a body of a lazily read holder (ir/Module.h): an empty legacy
   * pass manager, whose run reads the function first. NULL until needed. */
  LLVMPassManagerRef Reader;
  void (*Report)(void *Ctx, LLVMErrorRef Err); /* or NULL */
  void *ReportCtx;
  /* Set by orc_rt_jit_LazyBodies_define. */
  LLVMOrcThreadSafeModuleRef HolderTSM; /* its lock guards all of the above */
  LLVMOrcThreadSafeContextRef TSC;
  LLVMOrcIRTransformLayerRef Layer;
  orc_rt_jit_LazyEmitFn Emit; /* NULL: Layer */
  void *EmitCtx;
  orc_rt_jit_PtrSet Functions; /* symbol-pool entry -> the function in Holder */
  atomic_size_t Refs; /* one per materialization unit, plus the definer's */
  /* The user's module name: the units' name, so that link errors say where
   * ("In b.ll, duplicate definition of ..."), as lli's do. */
  char *Name;
};

orc_rt_jit_LazyBodies *orc_rt_jit_LazyBodies_create(LLVMModuleRef Holder,
                                                    orc_rt_jit_PtrSet *Dirty) {
  orc_rt_jit_LazyBodies *B = calloc(1, sizeof(*B));
  if (!B) {
    LLVMDisposeModule(Holder);
    orc_rt_jit_PtrSet_free(Dirty);
    return NULL;
  }
  atomic_init(&B->Refs, 1);
  /* The holder is named "<module> (lazy bodies)" (LazySplit.c). */
  static const char Suffix[] = " (lazy bodies)";
  size_t Len;
  const char *Id = LLVMGetModuleIdentifier(Holder, &Len);
  if (Len >= sizeof(Suffix) - 1 &&
      !memcmp(Id + Len - (sizeof(Suffix) - 1), Suffix, sizeof(Suffix) - 1))
    Len -= sizeof(Suffix) - 1;
  B->Name = strndup(Id, Len);
  if (!B->Name) {
    free(B);
    LLVMDisposeModule(Holder);
    orc_rt_jit_PtrSet_free(Dirty);
    return NULL;
  }
  B->Holder = Holder;
  B->Dirty = *Dirty;
  memset(Dirty, 0, sizeof(*Dirty));
  return B;
}

orc_rt_jit_LazyBodies *
orc_rt_jit_LazyBodies_createUnread(LLVMModuleRef Holder,
                                   orc_rt_jit_PtrSet *BodyNames) {
  orc_rt_jit_PtrSet None = {0};
  orc_rt_jit_LazyBodies *B = orc_rt_jit_LazyBodies_create(Holder, &None);
  if (B) {
    B->BodyNames = *BodyNames;
    memset(BodyNames, 0, sizeof(*BodyNames));
  }
  return B;
}

/* The name F's body has once moved: its own, or the one BodyNames gives. */
static const char *bodyName(const orc_rt_jit_LazyBodies *B, LLVMValueRef F,
                            size_t *Len) {
  const char *Name = orc_rt_jit_PtrSet_get(&B->BodyNames, F);
  if (!Name)
    return LLVMGetValueName2(F, Len);
  *Len = strlen(Name);
  return Name;
}

void orc_rt_jit_LazyBodies_setReporter(orc_rt_jit_LazyBodies *B,
                                       void (*Report)(void *Ctx,
                                                      LLVMErrorRef Err),
                                       void *Ctx) {
  B->Report = Report;
  B->ReportCtx = Ctx;
}

void orc_rt_jit_LazyBodies_release(orc_rt_jit_LazyBodies *B) {
  if (atomic_fetch_sub(&B->Refs, 1) != 1)
    return;
  if (B->Reader) /* (before the module it reads for) */
    LLVMDisposePassManager(B->Reader);
  if (B->HolderTSM)
    LLVMOrcDisposeThreadSafeModule(B->HolderTSM); /* under the context lock */
  else if (B->Holder)
    LLVMDisposeModule(B->Holder);
  orc_rt_jit_PtrSet_freeInterned(&B->Functions);
  for (size_t I = 0; B->BodyNames.Keys && I <= B->BodyNames.Mask; ++I)
    free(B->BodyNames.Values[I]);
  orc_rt_jit_PtrSet_free(&B->BodyNames);
  orc_rt_jit_PtrSet_free(&B->Dirty);
  LLVMOrcDisposeThreadSafeContext(B->TSC);
  free(B->Name);
  free(B);
}

/*===----------------------------------------------------------------------===*/
/* Materializing: the requested bodies move into a module of their own. */

typedef struct {
  orc_rt_jit_LazyBodies *B;
  LLVMOrcSymbolStringPoolEntryRef *Names;
  size_t NumNames;
  LLVMModuleRef Part;
  bool Read; /* a body was read for it (its part is checked) */
} Extraction;

/* Reads F's body (it was not read: ir/Module.h) and adds the constants it
 * uses that must be rebuilt to B->Dirty. An error if one cannot move with
 * it (another function's label address, say: the module's variables were
 * checked for label addresses before it was read lazily; its bodies cannot
 * be checked before they are read). */
static LLVMErrorRef readBody(orc_rt_jit_LazyBodies *B, LLVMModuleRef Holder,
                             LLVMValueRef F) {
  if (!B->Reader &&
      !(B->Reader = LLVMCreateFunctionPassManagerForModule(Holder)))
    return LLVMCreateStringError("out of memory");
  /* A body the bitcode reader cannot read is a fatal error of LLVM's (the
   * C API has no other call that reads one). */
  LLVMRunFunctionPassManager(B->Reader, F);
  bool Rebuildable;
  if (orc_rt_jit_findDirtyConstantsOf(F, &B->Dirty, &Rebuildable))
    return NULL;
  if (!Rebuildable) {
    size_t Len, PLen;
    const char *Name = LLVMGetValueName2(F, &Len);
    const char *Path = LLVMGetModuleIdentifier(Holder, &PLen);
    char Msg[1024];
    snprintf(Msg, sizeof(Msg),
             "%.*s: function %.*s: its code uses a constant that cannot move "
             "into a module of its own (another function's label address, "
             "say); such a module is compiled from textual IR",
             (int)(PLen > 400 ? 400 : PLen), Path, (int)(Len > 400 ? 400 : Len),
             Name);
    return LLVMCreateStringError(Msg);
  }
  return LLVMCreateStringError("out of memory");
}

/* Checks a part made of bodies read lazily, whose debug info it sheds
 * (LazySplit.c sheds the holder's for bodies read up front). */
static LLVMErrorRef checkReadPart(LLVMModuleRef Holder, LLVMModuleRef Part) {
  LLVMStripModuleDebugInfo(Part);
  char *Msg = NULL;
  LLVMErrorRef E = NULL;
  if (LLVMVerifyModule(Part, LLVMReturnStatusAction, &Msg)) {
    /* As orc_rt_jit_parseModule says it of a whole module: the file, then
     * the function (the part is named after its first). */
    size_t Len, PLen;
    const char *Path = LLVMGetModuleIdentifier(Holder, &Len);
    const char *Id = LLVMGetModuleIdentifier(Part, &PLen);
    if (PLen > 5 && !memcmp(Id + PLen - 5, "$body", 5))
      PLen -= 5;
    size_t Need = Len + PLen + (Msg ? strlen(Msg) : 0) + 64;
    char *Buf = malloc(Need);
    if (Buf)
      snprintf(Buf, Need, "%.*s: invalid function %.*s: %s", (int)Len, Path,
               (int)PLen, Id, Msg ? Msg : "");
    E = LLVMCreateStringError(Buf ? Buf : "invalid function");
    free(Buf);
  }
  LLVMDisposeMessage(Msg);
  return E;
}

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
    if (orc_rt_jit_isUnread(F)) {
      LLVMErrorRef E = readBody(X->B, Holder, F);
      if (E) {
        if (S.Part)
          LLVMDisposeModule(S.Part);
        orc_rt_jit_BodyMover_dispose(&S);
        return E;
      }
      X->Read = true;
    }
    size_t Len;
    const char *Name = bodyName(X->B, F, &Len);
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
  LLVMErrorRef E = X->Part && X->Read ? checkReadPart(Holder, X->Part) : NULL;
  if (E) {
    LLVMDisposeModule(X->Part);
    X->Part = NULL;
  }
  return E;
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
static void destroyBodies(void *Ctx) { orc_rt_jit_LazyBodies_release(Ctx); }

/* A materialization unit for Syms (names retained for it), which it takes. */
static LLVMOrcMaterializationUnitRef
bodiesUnit(orc_rt_jit_LazyBodies *B, LLVMOrcCSymbolFlagsMapPairs Syms,
           size_t NumSyms) {
  atomic_fetch_add(&B->Refs, 1);
  return LLVMOrcCreateCustomMaterializationUnit(B->Name, B, Syms, NumSyms, NULL,
                                                materializeBodies, discardBody,
                                                destroyBodies);
}

/* Hands the symbols of MR (Syms) that were not requested (Req) back to the
 * JITDylib in a new unit: false if that failed. */
static bool handBackUnrequested(orc_rt_jit_LazyBodies *B,
                                LLVMOrcMaterializationResponsibilityRef MR,
                                LLVMOrcCSymbolFlagsMapPairs Syms,
                                size_t NumSyms,
                                LLVMOrcSymbolStringPoolEntryRef *Req,
                                size_t NumReq) {
  LLVMOrcCSymbolFlagsMapPairs Rest = malloc((NumSyms - NumReq) * sizeof(*Rest));
  size_t NumRest = 0;
  bool Failed = !Rest;
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
  return !Failed;
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
  if (!Failed && NumReq < NumSyms)
    Failed = !handBackUnrequested(B, MR, Syms, NumSyms, Req, NumReq);
  Extraction X = {B, Req, NumReq, NULL, false};
  if (!Failed) {
    LLVMErrorRef E =
        LLVMOrcThreadSafeModuleWithModuleDo(B->HolderTSM, extractBodies, &X);
    if (E && B->Report)
      B->Report(B->ReportCtx, E);
    else if (E)
      LLVMConsumeError(E);
    Failed = E || !X.Part;
  }
  if (Failed) {
    LLVMOrcMaterializationResponsibilityFailMaterialization(MR);
    LLVMOrcDisposeMaterializationResponsibility(MR);
  } else {
    LLVMOrcThreadSafeModuleRef TSM =
        LLVMOrcCreateNewThreadSafeModule(X.Part, B->TSC);
    if (B->Emit)
      B->Emit(B->EmitCtx, MR, TSM);
    else
      LLVMOrcIRTransformLayerEmit(B->Layer, MR, TSM);
  }
  LLVMOrcDisposeCSymbolFlagsMap(Syms);
  LLVMOrcDisposeSymbols(Req);
  orc_rt_jit_LazyBodies_release(B); /* this unit's reference */
}

/*===----------------------------------------------------------------------===*/
/* Defining: the bodies' symbols go to the JITDylib in units. */

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

/* Interns F's mangled name, records it in B->Functions (which keeps that
 * reference) and fills *Pair for a unit (with a reference of its own): false
 * if out of memory. */
static bool symbolFor(orc_rt_jit_LazyBodies *B, LLVMOrcLLJITRef J,
                      LLVMValueRef F, LLVMOrcCSymbolFlagsMapPair *Pair) {
  size_t Len;
  const char *Raw = bodyName(B, F, &Len);
  char *Name = strndup(Raw, Len);
  LLVMOrcSymbolStringPoolEntryRef Sym =
      Name ? LLVMOrcLLJITMangleAndIntern(J, Name) : NULL;
  free(Name);
  if (!Sym || orc_rt_jit_PtrSet_put(&B->Functions, Sym, F) < 0) {
    if (Sym)
      LLVMOrcReleaseSymbolStringPoolEntry(Sym);
    return false;
  }
  /* As ORC derives them from a definition (fromGlobalValue). */
  LLVMJITSymbolFlags Flags = {LLVMJITSymbolGenericFlagsCallable, 0};
  if (orc_rt_jit_isWeakLinkage(LLVMGetLinkage(F)))
    Flags.GenericFlags |= LLVMJITSymbolGenericFlagsWeak;
  if (LLVMGetVisibility(F) != LLVMHiddenVisibility)
    Flags.GenericFlags |= LLVMJITSymbolGenericFlagsExported;
  LLVMOrcRetainSymbolStringPoolEntry(Sym); /* for the unit */
  *Pair = (LLVMOrcCSymbolFlagsMapPair){Sym, Flags};
  return true;
}

/* How many bodies a unit starts with: a lookup of one hands the others back
 * in a new unit, which costs this many symbols; fewer units cost less to
 * define and tear down. */
#define BODIES_PER_UNIT 64

orc_rt_ErrorRef orc_rt_jit_LazyBodies_define(orc_rt_jit_LazyBodies *B,
                                             LLVMOrcLLJITRef J,
                                             LLVMOrcJITDylibRef JD,
                                             LLVMOrcThreadSafeContextRef *TSC,
                                             orc_rt_jit_LazyEmitFn Emit,
                                             void *EmitCtx) {
  B->TSC = *TSC;
  *TSC = NULL;
  B->Layer = LLVMOrcLLJITGetIRTransformLayer(J);
  B->Emit = Emit;
  B->EmitCtx = EmitCtx;
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
    /* (Of a holder read lazily, an available_externally body is never
     * emitted, as in the part the cut leaves the variables in.) */
    if (LLVMIsDeclaration(F) ||
        LLVMGetLinkage(F) == LLVMAvailableExternallyLinkage)
      continue;
    LLVMOrcCSymbolFlagsMapPair Pair;
    if (!symbolFor(B, J, F, &Pair)) {
      Err = orc_rt_Error_create("out of memory");
      break;
    }
    Syms[NumSyms++] = Pair;
    if (NumSyms == BODIES_PER_UNIT) {
      Err = defineUnit(B, JD, Syms, NumSyms);
      NumSyms = 0;
    }
  }
  if (NumSyms && !Err)
    Err = defineUnit(B, JD, Syms, NumSyms);
  free(Syms);
  orc_rt_jit_LazyBodies_release(B);
  return Err;
}
