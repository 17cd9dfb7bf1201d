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
#include "jit/PtrSet.h"
#include "jit/PtrStack.h"
#include "jit/SplitSupport.h"

#include "jit/Diag.h"

#include <llvm-c/Comdat.h>
#include <llvm-c/DebugInfo.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool isWeakLinkage(LLVMLinkage L) {
  return L == LLVMLinkOnceAnyLinkage || L == LLVMLinkOnceODRLinkage ||
         L == LLVMWeakAnyLinkage || L == LLVMWeakODRLinkage ||
         L == LLVMCommonLinkage || L == LLVMExternalWeakLinkage;
}

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
/* Which constants refer to a global value, and can they be rebuilt? */

/* True if C is dso_local_equivalent or no_cfi of a function: the two
 * constants of one function that the C API does not name (see canRebuild). */
static bool isWrappedFunction(LLVMValueRef C) {
  return LLVMIsAConstant(C) &&
         LLVMGetValueKind(C) == LLVMInstructionValueKind &&
         LLVMGetNumOperands(C) == 1 && LLVMIsAFunction(LLVMGetOperand(C, 0));
}

/* True if C, a constant that is not a global value, can be rebuilt from its
 * operands with the LLVM-C constant builders (see rebuildConstant). */
static bool canRebuild(LLVMValueRef C) {
  switch (LLVMGetValueKind(C)) {
  case LLVMConstantStructValueKind:
  case LLVMConstantArrayValueKind:
  case LLVMConstantVectorValueKind:
    return true;
  case LLVMConstantExprValueKind:
    switch (LLVMGetConstOpcode(C)) {
    case LLVMGetElementPtr:
    case LLVMTrunc:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMAdd:
    case LLVMSub:
    case LLVMXor:
    case LLVMExtractElement:
    case LLVMInsertElement:
      return true;
    default:
      return false;
    }
  case LLVMInstructionValueKind:
    /* What LLVMGetValueKind says of the constants the C API does not name:
     * dso_local_equivalent and no_cfi, each of one function. */
    return isWrappedFunction(C);
  default:
    /* blockaddress, ptrauth. */
    return false;
  }
}

/* Pushes every user of V that is a constant but not a global value (a
 * global variable "uses" its initializer, which stays where it is). */
static bool pushConstantUsers(orc_rt_jit_PtrStack *S, LLVMValueRef V) {
  for (LLVMUseRef U = LLVMGetFirstUse(V); U; U = LLVMGetNextUse(U)) {
    LLVMValueRef User = LLVMGetUser(U);
    if (LLVMIsAConstant(User) && !LLVMIsAGlobalValue(User) &&
        !orc_rt_jit_PtrStack_push(S, User))
      return false;
  }
  return true;
}

/* True if code (an instruction, or a function's personality, prefix or
 * prologue) uses C, directly or through other constants. Constants used only
 * by global initializers stay in the original module and need no rebuilding. */
static bool usedByCode(LLVMValueRef C, orc_rt_jit_PtrSet *Seen) {
  for (LLVMUseRef U = LLVMGetFirstUse(C); U; U = LLVMGetNextUse(U)) {
    LLVMValueRef User = LLVMGetUser(U);
    if (LLVMIsAInstruction(User) || LLVMIsAFunction(User))
      return true;
    if (LLVMIsAConstant(User) && !LLVMIsAGlobalValue(User) &&
        orc_rt_jit_PtrSet_insert(Seen, User) != 0 && usedByCode(User, Seen))
      return true;
  }
  return false;
}

/* Fills Dirty with every constant of M (other than a global value) that
 * refers to a global value, directly or through other constants: only those
 * must be rebuilt when a body moves to another module. Returns false, with
 * *Rebuildable false, if code uses one that cannot be rebuilt; false with
 * *Rebuildable true if out of memory. Linear: it walks the uses of the global
 * values and of the constants found. */
static bool findDirtyConstants(LLVMModuleRef M, orc_rt_jit_PtrSet *Dirty,
                               bool *Rebuildable) {
  orc_rt_jit_PtrStack Work = {0}, Bad = {0};
  bool OK = true;
  *Rebuildable = true;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && OK;
       F = LLVMGetNextFunction(F))
    OK = pushConstantUsers(&Work, F);
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G && OK;
       G = LLVMGetNextGlobal(G))
    OK = pushConstantUsers(&Work, G);
  while (OK && Work.Len) {
    LLVMValueRef C = orc_rt_jit_PtrStack_pop(&Work);
    int Added = orc_rt_jit_PtrSet_insert(Dirty, C);
    if (Added < 0)
      OK = false;
    else if (Added)
      OK = (canRebuild(C) || orc_rt_jit_PtrStack_push(&Bad, C)) &&
           pushConstantUsers(&Work, C);
  }
  orc_rt_jit_PtrSet Seen = {0};
  for (size_t I = 0; OK && I < Bad.Len; ++I)
    if (usedByCode(Bad.Items[I], &Seen))
      OK = *Rebuildable = false;
  orc_rt_jit_PtrSet_free(&Seen);
  orc_rt_jit_PtrStack_free(&Work);
  orc_rt_jit_PtrStack_free(&Bad);
  return OK;
}

/*===----------------------------------------------------------------------===*/
/* Moving bodies from one module into another. */

/* State for moving bodies from one module (the source) into another. */
typedef struct {
  const orc_rt_jit_PtrSet
      *Dirty; /* source constants that name a source global */
  orc_rt_jit_PtrSet
      *Record;        /* if set, gets the rebuilt constants that name one */
  LLVMModuleRef Part; /* where they go */
  char *Buf;          /* a NUL-terminated copy of a name */
  size_t BufCap;
  bool OutOfMemory;
} Splitter;

/* Name (Len bytes, not NUL-terminated), plus Suffix, NUL-terminated. */
static const char *nameWith(Splitter *S, const char *Name, size_t Len,
                            const char *Suffix) {
  size_t Need = Len + strlen(Suffix) + 1;
  if (Need > S->BufCap) {
    char *Buf = realloc(S->Buf, Need * 2);
    if (!Buf) {
      S->OutOfMemory = true;
      return NULL;
    }
    S->Buf = Buf;
    S->BufCap = Need * 2;
  }
  memcpy(S->Buf, Name, Len);
  strcpy(S->Buf + Len, Suffix);
  return S->Buf;
}

/* Copies every attribute of From (function, return value, parameters). */
static void copyAttributes(LLVMValueRef From, LLVMValueRef To) {
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

/* The counterpart in the part of G, a global value of the source: whatever
 * the part already has under G's name (a body moved there), or else a new
 * declaration. Declarations keep what code generation needs to reach G: type,
 * calling convention, attributes (signext, returns_twice, ...), thread-local
 * mode, extern_weak. Visibility is left default, so nothing assumes G is
 * within reach of a PC-relative access. */
static LLVMValueRef declFor(Splitter *S, LLVMValueRef G) {
  size_t Len;
  const char *Name = LLVMGetValueName2(G, &Len);
  bool IsFunction = LLVMIsAFunction(G) != NULL;
  LLVMValueRef D = IsFunction
                       ? LLVMGetNamedFunctionWithLength(S->Part, Name, Len)
                       : LLVMGetNamedGlobalWithLength(S->Part, Name, Len);
  if (D)
    return D;
  const char *Z = nameWith(S, Name, Len, "");
  if (!Z)
    return G; /* OutOfMemory is set; the part is thrown away */
  LLVMTypeRef T = LLVMGlobalGetValueType(G);
  if (IsFunction) {
    D = LLVMAddFunction(S->Part, Z, T);
    LLVMSetFunctionCallConv(D, LLVMGetFunctionCallConv(G));
    copyAttributes(G, D);
  } else {
    D = LLVMAddGlobalInAddressSpace(S->Part, T, Z,
                                    LLVMGetPointerAddressSpace(LLVMTypeOf(G)));
    LLVMSetThreadLocalMode(D, LLVMGetThreadLocalMode(G));
    LLVMSetGlobalConstant(D, LLVMIsGlobalConstant(G));
    LLVMSetExternallyInitialized(D, LLVMIsExternallyInitialized(G));
    LLVMSetAlignment(D, LLVMGetAlignment(G));
  }
  if (LLVMGetLinkage(G) == LLVMExternalWeakLinkage)
    LLVMSetLinkage(D, LLVMExternalWeakLinkage); /* may be null: no error */
  return D;
}

/* C (see canRebuild) rebuilt from new operands Ops. Flags the C API cannot
 * read are dropped, which only loses optimization hints: a GEP's inrange,
 * nuw/nsw of a constant add or sub. */
static LLVMValueRef rebuildConstant(LLVMValueRef C, LLVMValueRef *Ops,
                                    unsigned N) {
  LLVMTypeRef T = LLVMTypeOf(C);
  switch (LLVMGetValueKind(C)) {
  case LLVMConstantStructValueKind:
    return LLVMConstNamedStruct(T, Ops, N);
  case LLVMConstantArrayValueKind:
    return LLVMConstArray2(LLVMGetElementType(T), Ops, N);
  case LLVMConstantVectorValueKind:
    return LLVMConstVector(Ops, N);
  default:
    break;
  }
  if (isWrappedFunction(C))
    /* dso_local_equivalent and no_cfi have no C API builder. In code both
     * may become the function itself: within one JITDylib the function is
     * local to the program anyway, and no jump table was made for it. */
    return Ops[0];
  switch (LLVMGetConstOpcode(C)) {
  case LLVMGetElementPtr:
    return LLVMConstGEPWithNoWrapFlags(LLVMGetGEPSourceElementType(C), Ops[0],
                                       Ops + 1, N - 1,
                                       LLVMGEPGetNoWrapFlags(C));
  case LLVMTrunc:
    return LLVMConstTrunc(Ops[0], T);
  case LLVMPtrToInt:
    return LLVMConstPtrToInt(Ops[0], T);
  case LLVMIntToPtr:
    return LLVMConstIntToPtr(Ops[0], T);
  case LLVMBitCast:
    return LLVMConstBitCast(Ops[0], T);
  case LLVMAddrSpaceCast:
    return LLVMConstAddrSpaceCast(Ops[0], T);
  case LLVMAdd:
    return LLVMConstAdd(Ops[0], Ops[1]);
  case LLVMSub:
    return LLVMConstSub(Ops[0], Ops[1]);
  case LLVMXor:
    return LLVMConstXor(Ops[0], Ops[1]);
  case LLVMExtractElement:
    return LLVMConstExtractElement(Ops[0], Ops[1]);
  case LLVMInsertElement:
    return LLVMConstInsertElement(Ops[0], Ops[1], Ops[2]);
  default:
    return C; /* not reached: findDirtyConstants kept the module whole */
  }
}

/* Adds to S->Record every constant in C's operand tree (C included) that
 * names a global value; true if C does. The constant builders may fold, so
 * what a rebuilt constant contains is found by looking, not assumed. */
static bool recordDirty(Splitter *S, LLVMValueRef C) {
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
static LLVMValueRef remapValue(Splitter *S, LLVMValueRef V) {
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
  LLVMValueRef R = rebuildConstant(V, Ops, N);
  if (Ops != Small)
    free(Ops);
  if (S->Record)
    recordDirty(S, R);
  return R;
}

static void remapOperands(Splitter *S, LLVMValueRef I) {
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

/* A new empty module like From: same data layout, triple and module flags
 * (PIC level, frame pointers, ... steer code generation). */
static LLVMModuleRef newModuleLike(LLVMModuleRef From, const char *Name) {
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

/* Moves the body of F into S->Part as a function named NewName, and leaves F
 * a declaration. The blocks move with their instructions; only the arguments
 * and the operands that name a global value change. */
static void moveBody(Splitter *S, LLVMValueRef F, const char *NewName,
                     LLVMLinkage Linkage, LLVMVisibility Visibility) {
  /* A declaration of NewName may be there already, made for a call from a
   * body moved before: it becomes the definition. */
  LLVMValueRef NF = LLVMGetNamedFunction(S->Part, NewName);
  if (!NF) {
    NF = LLVMAddFunction(S->Part, NewName, LLVMGlobalGetValueType(F));
    LLVMSetFunctionCallConv(NF, LLVMGetFunctionCallConv(F));
    copyAttributes(F, NF);
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
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(NF); BB;
       BB = LLVMGetNextBasicBlock(BB))
    for (LLVMValueRef I = LLVMGetFirstInstruction(BB); I;
         I = LLVMGetNextInstruction(I))
      remapOperands(S, I);

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

  /* What stays of F is a declaration. */
  LLVMSetLinkage(F, LLVMExternalLinkage);
  LLVMSetComdat(F, NULL);
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
  Splitter S = {0};
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
      S.Part = newModuleLike(Holder, Copy);
    moveBody(&S, F, Copy, LLVMGetLinkage(F), LLVMGetVisibility(F));
    free(Copy);
  }
  free(S.Buf);
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
    if (isWeakLinkage(LLVMGetLinkage(F)))
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
      !findDirtyConstants(M, &Dirty, &Splittable) && Splittable) {
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
    St->Weak = isWeakLinkage(LLVMGetLinkage(F));
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
  Splitter S = {0};
  S.Dirty = &Dirty;
  if (B) {
    atomic_init(&B->Refs, 1);
    S.Record = &B->Dirty;
    size_t IdLen;
    const char *Id = LLVMGetModuleIdentifier(M, &IdLen);
    const char *HName = nameWith(&S, Id, IdLen, " (lazy bodies)");
    S.Part = B->Holder = HName ? newModuleLike(M, HName) : NULL;
  }
  size_t K = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && S.Part && !S.OutOfMemory;
       F = LLVMGetNextFunction(F)) {
    if (!isStubbed(F))
      continue;
    bool Stub = IsStub[K++];
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    const char *NewName = nameWith(&S, Name, Len, Stub ? "$body" : "");
    if (NewName)
      moveBody(&S, F, NewName,
               Stub ? bodyLinkage(LLVMGetLinkage(F)) : LLVMGetLinkage(F),
               Stub ? LLVMDefaultVisibility : LLVMGetVisibility(F));
  }
  /* The parts carry no debug info: a part listing its compile unit would emit
   * all of the unit's global variables and types again, and one that does not
   * list it is invalid IR (mini-lli registers no JIT'd code with a debugger,
   * so nothing is lost). Stripped once here, for all of them. */
  if (S.Part && LLVMGetNamedMetadataNumOperands(M, "llvm.dbg.cu"))
    LLVMStripModuleDebugInfo(S.Part);
  free(S.Buf);
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
