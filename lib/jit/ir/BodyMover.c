/*===- lib/jit/ir/BodyMover.c - Moving function bodies between modules ----===*/
/* See BodyMover.h. */

#include "jit/ir/BodyMover.h"
#include "jit/ir/ConstantRebuild.h"
#include "jit/ir/SplitSupport.h"
#include "jit/support/GrowArray.h"

#include <llvm-c/Comdat.h>

#include <stdlib.h>
#include <string.h>

const char *orc_rt_jit_BodyMover_name(orc_rt_jit_BodyMover *S, const char *Name,
                                      size_t Len, const char *Suffix) {
  size_t Need = Len + strlen(Suffix) + 1;
  if (!orc_rt_jit_growArray(&S->Buf, &S->BufCap, Need, 1)) {
    S->OutOfMemory = true;
    return NULL;
  }
  memcpy(S->Buf, Name, Len);
  strcpy(S->Buf + Len, Suffix);
  return S->Buf;
}

/* The counterpart in the part of G, a global value of the source: whatever
 * the part already has under G's name (a body moved there), or else a new
 * declaration. Declarations keep what code generation needs to reach G: type,
 * calling convention, attributes (signext, returns_twice, ...), thread-local
 * mode, extern_weak. Visibility is left default, so nothing assumes G is
 * within reach of a PC-relative access. */
static LLVMValueRef declFor(orc_rt_jit_BodyMover *S, LLVMValueRef G) {
  size_t Len;
  const char *Name = LLVMGetValueName2(G, &Len);
  bool IsFunction = LLVMIsAFunction(G) != NULL;
  LLVMValueRef D = IsFunction
                       ? LLVMGetNamedFunctionWithLength(S->Part, Name, Len)
                       : LLVMGetNamedGlobalWithLength(S->Part, Name, Len);
  if (D)
    return D;
  const char *Z = orc_rt_jit_BodyMover_name(S, Name, Len, "");
  if (!Z)
    return G; /* OutOfMemory is set; the part is thrown away */
  LLVMTypeRef T = LLVMGlobalGetValueType(G);
  if (IsFunction) {
    D = LLVMAddFunction(S->Part, Z, T);
    LLVMSetFunctionCallConv(D, LLVMGetFunctionCallConv(G));
    orc_rt_jit_copyAttributes(G, D);
  } else {
    D = LLVMAddGlobalInAddressSpace(S->Part, T, Z,
                                    LLVMGetPointerAddressSpace(LLVMTypeOf(G)));
    LLVMSetThreadLocalMode(D, LLVMGetThreadLocalMode(G));
    if (!LLVMIsAGlobalAlias(G)) { /* (an alias of a variable: a variable) */
      LLVMSetGlobalConstant(D, LLVMIsGlobalConstant(G));
      LLVMSetExternallyInitialized(D, LLVMIsExternallyInitialized(G));
      LLVMSetAlignment(D, LLVMGetAlignment(G));
    }
  }
  if (LLVMGetLinkage(G) == LLVMExternalWeakLinkage)
    LLVMSetLinkage(D, LLVMExternalWeakLinkage); /* may be null: no error */
  return D;
}

/* Adds to S->Record every constant in C's operand tree (C included) that
 * names a global value; true if C does. The constant builders may fold, so
 * what a rebuilt constant contains is found by looking, not assumed. */
static bool recordDirty(orc_rt_jit_BodyMover *S, LLVMValueRef C) {
  if (LLVMIsAGlobalValue(C))
    return true;
  int N = LLVMGetNumOperands(C);
  if (N <= 0)
    return false;
  if (orc_rt_jit_PtrSet_has(S->Record, C))
    return true;
  bool Dirty = false;
  for (int I = 0; I < N; ++I) {
    LLVMValueRef Op = LLVMGetOperand(C, (unsigned)I);
    Dirty |= Op && LLVMIsAConstant(Op) && recordDirty(S, Op);
  }
  if (Dirty && orc_rt_jit_PtrSet_insert(S->Record, C) < 0)
    S->OutOfMemory = true;
  return Dirty;
}

/* V as the part sees it: global values become the part's, constants that
 * refer to them are rebuilt, anything else is shared through the context. */
static LLVMValueRef remapValue(orc_rt_jit_BodyMover *S, LLVMValueRef V) {
  if (LLVMIsAGlobalValue(V))
    return declFor(S, V);
  if (!LLVMIsAConstant(V) || !orc_rt_jit_PtrSet_has(S->Dirty, V))
    return V;
  unsigned N = (unsigned)LLVMGetNumOperands(V);
  LLVMValueRef Small[8];
  LLVMValueRef *Ops = N <= 8 ? Small : malloc(N * sizeof(*Ops));
  if (!Ops) {
    S->OutOfMemory = true;
    return V;
  }
  for (unsigned I = 0; I < N; ++I)
    Ops[I] = remapValue(S, LLVMGetOperand(V, I));
  LLVMValueRef R = orc_rt_jit_rebuildConstant(V, Ops, N);
  if (Ops != Small)
    free(Ops);
  if (S->Record)
    recordDirty(S, R);
  return R;
}

static void remapOperands(orc_rt_jit_BodyMover *S, LLVMValueRef I) {
  int N = LLVMGetNumOperands(I);
  for (int K = 0; K < N; ++K) {
    LLVMValueRef V = LLVMGetOperand(I, (unsigned)K);
    if (!V || !LLVMIsAConstant(V))
      continue;
    LLVMValueRef R = remapValue(S, V);
    if (R != V)
      LLVMSetOperand(I, (unsigned)K, R);
  }
}

/* The definition in S->Part that F's body moves into, named NewName,
 * with F's properties. */
static LLVMValueRef definitionFor(orc_rt_jit_BodyMover *S, LLVMValueRef F,
                                  const char *NewName, LLVMLinkage Linkage,
                                  LLVMVisibility Visibility) {
  /* A declaration of NewName may be there already, made for a call from a
   * body moved before: it becomes the definition. */
  LLVMValueRef NF = LLVMGetNamedFunction(S->Part, NewName);
  if (!NF) {
    NF = LLVMAddFunction(S->Part, NewName, LLVMGlobalGetValueType(F));
    LLVMSetFunctionCallConv(NF, LLVMGetFunctionCallConv(F));
    orc_rt_jit_copyAttributes(F, NF);
  }
  LLVMSetLinkage(NF, Linkage);
  LLVMSetVisibility(NF, Visibility);
  LLVMSetUnnamedAddress(NF, LLVMGetUnnamedAddress(F));
  LLVMSetAlignment(NF, LLVMGetAlignment(F));
  const char *Section = LLVMGetSection(F);
  if (Section && *Section)
    LLVMSetSection(NF, Section);
  const char *GC = LLVMGetGC(F);
  if (GC)
    LLVMSetGC(NF, GC);
  /* No comdat: the part holds nothing else of its group, and the JIT
   * resolves weak definitions by their symbol flags. */
  return NF;
}

/* Moves F's blocks into NF, gives their code NF's arguments and points their
 * operands at the part's globals. */
static void moveBlocks(orc_rt_jit_BodyMover *S, LLVMValueRef F,
                       LLVMValueRef NF) {
  for (LLVMBasicBlockRef BB; (BB = LLVMGetFirstBasicBlock(F));) {
    LLVMRemoveBasicBlockFromParent(BB);
    LLVMAppendExistingBasicBlock(NF, BB);
  }
  unsigned NumParams = LLVMCountParams(F);
  for (unsigned I = 0; I < NumParams; ++I) {
    LLVMValueRef Old = LLVMGetParam(F, I), New = LLVMGetParam(NF, I);
    size_t ArgLen;
    const char *ArgName = LLVMGetValueName2(Old, &ArgLen);
    if (ArgLen)
      LLVMSetValueName2(New, ArgName, ArgLen);
    LLVMReplaceAllUsesWith(Old, New);
  }
  /* An indirect call's !callees names functions of the module the body
   * came from (a hint, nothing more): dropped, so that the part refers to
   * nothing outside itself (its bitcode can be written, tier/Tiers.h). */
  unsigned Callees =
      LLVMGetMDKindIDInContext(LLVMGetModuleContext(S->Part), "callees", 7);
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(NF); BB;
       BB = LLVMGetNextBasicBlock(BB))
    for (LLVMValueRef I = LLVMGetFirstInstruction(BB); I;
         I = LLVMGetNextInstruction(I)) {
      remapOperands(S, I);
      if (LLVMIsACallInst(I) || LLVMIsAInvokeInst(I))
        LLVMSetMetadata(I, Callees, NULL);
    }
}

/* Moves what belongs to F's body besides its blocks: personality, prefix and
 * prologue data, metadata attachments. */
static void moveFunctionData(orc_rt_jit_BodyMover *S, LLVMValueRef F,
                             LLVMValueRef NF) {
  if (LLVMHasPersonalityFn(F)) {
    LLVMSetPersonalityFn(NF, remapValue(S, LLVMGetPersonalityFn(F)));
    LLVMSetPersonalityFn(F, NULL);
  }
  if (LLVMHasPrefixData(F)) {
    LLVMSetPrefixData(NF, remapValue(S, LLVMGetPrefixData(F)));
    LLVMSetPrefixData(F, NULL);
  }
  if (LLVMHasPrologueData(F)) {
    LLVMSetPrologueData(NF, remapValue(S, LLVMGetPrologueData(F)));
    LLVMSetPrologueData(F, NULL);
  }
  /* Attachments such as !dbg (the DISubprogram, which belongs to one
   * function only) go with the body. */
  size_t NumMD;
  LLVMValueMetadataEntry *MD = LLVMGlobalCopyAllMetadata(F, &NumMD);
  if (MD) {
    for (unsigned I = 0; I < NumMD; ++I)
      LLVMGlobalSetMetadata(NF, LLVMValueMetadataEntriesGetKind(MD, I),
                            LLVMValueMetadataEntriesGetMetadata(MD, I));
    LLVMDisposeValueMetadataEntries(MD);
    LLVMGlobalClearMetadata(F);
  }
}

void orc_rt_jit_BodyMover_move(orc_rt_jit_BodyMover *S, LLVMValueRef F,
                               const char *NewName, LLVMLinkage Linkage,
                               LLVMVisibility Visibility) {
  LLVMValueRef NF = definitionFor(S, F, NewName, Linkage, Visibility);
  moveBlocks(S, F, NF);
  moveFunctionData(S, F, NF);
  /* What stays of F is a declaration. */
  LLVMSetLinkage(F, LLVMExternalLinkage);
  LLVMSetComdat(F, NULL);
}

void orc_rt_jit_BodyMover_dispose(orc_rt_jit_BodyMover *S) {
  free(S->Buf);
  S->Buf = NULL;
  S->BufCap = 0;
}
