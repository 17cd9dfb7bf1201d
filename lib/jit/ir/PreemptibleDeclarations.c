/*===- lib/jit/ir/PreemptibleDeclarations.c - Declarations the GOT reaches ===*/

#include "jit/ir/PreemptibleDeclarations.h"
#include "jit/ir/SplitSupport.h"

#include <stdlib.h>
#include <string.h>

/* What a declaration carries besides its name and type. */
static void copyCommon(LLVMValueRef From, LLVMValueRef To) {
  LLVMSetLinkage(To, LLVMGetLinkage(From)); /* external or extern_weak */
  LLVMSetDLLStorageClass(To, LLVMGetDLLStorageClass(From));
  LLVMSetUnnamedAddress(To, LLVMGetUnnamedAddress(From));
  LLVMSetAlignment(To, LLVMGetAlignment(From));
  const char *Section = LLVMGetSection(From);
  if (Section && *Section)
    LLVMSetSection(To, Section);
  size_t N = 0;
  LLVMValueMetadataEntry *MD = LLVMGlobalCopyAllMetadata(From, &N);
  for (size_t I = 0; I < N; ++I)
    LLVMGlobalSetMetadata(To, LLVMValueMetadataEntriesGetKind(MD, I),
                          LLVMValueMetadataEntriesGetMetadata(MD, I));
  if (MD)
    LLVMDisposeValueMetadataEntries(MD);
}

static LLVMValueRef newFunction(LLVMModuleRef M, LLVMValueRef F) {
  LLVMValueRef D = LLVMAddFunction(M, "", LLVMGlobalGetValueType(F));
  LLVMSetFunctionCallConv(D, LLVMGetFunctionCallConv(F));
  orc_rt_jit_copyAttributes(F, D);
  const char *GC = LLVMGetGC(F);
  if (GC)
    LLVMSetGC(D, GC);
  return D;
}

static LLVMValueRef newVariable(LLVMModuleRef M, LLVMValueRef G) {
  LLVMValueRef D =
      LLVMAddGlobalInAddressSpace(M, LLVMGlobalGetValueType(G), "",
                                  LLVMGetPointerAddressSpace(LLVMTypeOf(G)));
  LLVMSetThreadLocalMode(D, LLVMGetThreadLocalMode(G));
  LLVMSetGlobalConstant(D, LLVMIsGlobalConstant(G));
  LLVMSetExternallyInitialized(D, LLVMIsExternallyInitialized(G));
  return D;
}

/* Old's name, in Small if it fits. */
static char *nameOf(LLVMValueRef Old, char *Small, size_t SmallSize,
                    size_t *Len) {
  const char *Name = LLVMGetValueName2(Old, Len);
  char *Copy = *Len < SmallSize ? Small : malloc(*Len + 1);
  if (Copy)
    memcpy(Copy, Name, *Len);
  return Copy;
}

/* Puts D in Old's place: its name, what it carries and every use. */
static void replace(LLVMValueRef Old, LLVMValueRef D, const char *Name,
                    size_t Len) {
  copyCommon(Old, D);
  LLVMSetValueName2(Old, "", 0);
  LLVMSetValueName2(D, Name, Len);
  LLVMReplaceAllUsesWith(Old, D);
}

static bool isIntrinsicName(LLVMValueRef F) {
  size_t Len;
  const char *Name = LLVMGetValueName2(F, &Len);
  return Len >= 5 && !memcmp(Name, "llvm.", 5);
}

orc_rt_ErrorRef orc_rt_jit_makeDeclarationsPreemptible(LLVMModuleRef M) {
  char Small[256], *Name;
  size_t Len;
  /* New declarations go to the end of each list: stop at the old end. */
  LLVMValueRef LastF = LLVMGetLastFunction(M), LastG = LLVMGetLastGlobal(M);
  for (LLVMValueRef F = LLVMGetFirstFunction(M), Next; F && LastF; F = Next) {
    Next = F == LastF ? NULL : LLVMGetNextFunction(F);
    if (!LLVMIsDeclaration(F) || isIntrinsicName(F))
      continue;
    if (!(Name = nameOf(F, Small, sizeof(Small), &Len)))
      return orc_rt_Error_create("out of memory");
    replace(F, newFunction(M, F), Name, Len);
    LLVMDeleteFunction(F);
    if (Name != Small)
      free(Name);
  }
  for (LLVMValueRef G = LLVMGetFirstGlobal(M), Next; G && LastG; G = Next) {
    Next = G == LastG ? NULL : LLVMGetNextGlobal(G);
    if (!LLVMIsDeclaration(G))
      continue;
    if (!(Name = nameOf(G, Small, sizeof(Small), &Len)))
      return orc_rt_Error_create("out of memory");
    replace(G, newVariable(M, G), Name, Len);
    LLVMDeleteGlobal(G);
    if (Name != Small)
      free(Name);
  }
  return NULL;
}
