/*===- lib/jit/ir/Module.c - Reading and preparing the program's IR -------===*/

#include "jit/ir/Module.h"
#include "jit/ir/SplitSupport.h"
#include "jit/support/Diag.h"
#include "jit/support/GrowArray.h"
#include "jit/support/ReadFile.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file at Path as a buffer named Path (support/ReadFile.h); NULL and
 * errno if it cannot be read. */
static LLVMMemoryBufferRef readAll(const char *Path) {
  size_t Size;
  char *Data = orc_rt_jit_readFile(Path, &Size);
  if (!Data)
    return NULL;
  LLVMMemoryBufferRef Buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(Data, Size, Path);
  free(Data);
  return Buf;
}

orc_rt_ErrorRef orc_rt_jit_readInput(const char *Path,
                                     LLVMMemoryBufferRef *Buf) {
  char *Msg = NULL;
  if (!strcmp(Path, "-") ? LLVMCreateMemoryBufferWithSTDIN(Buf, &Msg)
                         : !(*Buf = readAll(Path))) {
    orc_rt_ErrorRef E = orc_rt_Error_createf(
        "%s: Could not open input file: %s", Path, Msg ? Msg : strerror(errno));
    LLVMDisposeMessage(Msg);
    return E;
  }
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_parseModule(const char *Path,
                                       LLVMMemoryBufferRef Buf,
                                       LLVMContextRef *Ctx, LLVMModuleRef *M) {
  char *Msg = NULL;
  *Ctx = LLVMContextCreate();
  if (LLVMParseIRInContext(*Ctx, Buf, M, &Msg)) {
    LLVMContextDispose(*Ctx);
    return orc_rt_jit_fromDiagnostic(Msg);
  }
  if (LLVMVerifyModule(*M, LLVMReturnStatusAction, &Msg)) {
    orc_rt_ErrorRef E =
        orc_rt_Error_createf("%s: invalid module: %s", Path, Msg ? Msg : "");
    LLVMDisposeMessage(Msg);
    LLVMDisposeModule(*M);
    LLVMContextDispose(*Ctx);
    return E;
  }
  LLVMDisposeMessage(Msg);
  return NULL;
}

bool orc_rt_jit_isUnread(LLVMValueRef F) {
  return !LLVMIsDeclaration(F) && !LLVMGetFirstBasicBlock(F);
}

/* True if Buf holds bitcode (raw or in its wrapper). */
static bool isBitcode(LLVMMemoryBufferRef Buf) {
  const unsigned char *P = (const unsigned char *)LLVMGetBufferStart(Buf);
  size_t N = LLVMGetBufferSize(Buf);
  return N >= 4 &&
         ((P[0] == 'B' && P[1] == 'C' && P[2] == 0xC0 && P[3] == 0xDE) ||
          (P[0] == 0xDE && P[1] == 0xC0 && P[2] == 0x17 && P[3] == 0x0B));
}

/* True if C (a constant) holds a blockaddress, directly or through other
 * constants; Depth bounds the walk. */
static bool holdsBlockAddress(LLVMValueRef C, unsigned Depth) {
  if (LLVMIsABlockAddress(C))
    return true;
  if (Depth > 32 || LLVMIsAGlobalValue(C))
    return false;
  int N = LLVMGetNumOperands(C);
  for (int I = 0; I < N; ++I) {
    LLVMValueRef Op = LLVMGetOperand(C, (unsigned)I);
    if (Op && LLVMIsAConstant(Op) && holdsBlockAddress(Op, Depth + 1))
      return true;
  }
  return false;
}

/* True if M, read lazily, can stay so (see orc_rt_jit_parseModuleLazily):
 * what the split and the lowerings need to see of every body is
 * module-level here. */
static bool canStayUnread(LLVMModuleRef M) {
  if (orc_rt_jit_hasModuleAsm(M) || LLVMGetFirstGlobalIFunc(M))
    return false;
  /* -fsanitize=kcfi and -fsanitize=function put type data before a
   * function's entry, which the split must see (a front cannot stand for
   * such an address); it is in the function's metadata, read with its body.
   * Such a module says so at module level: kcfi in a module flag, the other
   * in what its checks call (the handler, or the trap of
   * -fsanitize-trap, which other checks call too: read whole then). */
  if (LLVMGetModuleFlag(M, "kcfi", 4) ||
      LLVMGetNamedFunction(M, "__ubsan_handle_function_type_mismatch") ||
      LLVMGetNamedFunction(M, "__ubsan_handle_function_type_mismatch_abort") ||
      LLVMGetNamedFunction(M, "llvm.ubsantrap"))
    return false;
  for (LLVMValueRef A = LLVMGetFirstGlobalAlias(M); A;
       A = LLVMGetNextGlobalAlias(A))
    if (!orc_rt_jit_aliasedVariable(A))
      return false;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G)) {
    LLVMValueRef Init = LLVMGetInitializer(G);
    if (LLVMIsThreadLocal(G) || (Init && holdsBlockAddress(Init, 0)))
      return false;
  }
  /* A body read already (the reader reads one whose block a constant
   * names) would be split as usual: fine, but then read them all. */
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    if (!LLVMIsDeclaration(F) && LLVMGetFirstBasicBlock(F))
      return false;
  return true;
}

orc_rt_ErrorRef orc_rt_jit_parseModuleLazily(const char *Path,
                                             LLVMMemoryBufferRef Buf,
                                             LLVMContextRef *Ctx,
                                             LLVMModuleRef *M,
                                             LLVMModuleRef *Holder) {
  *Holder = NULL;
  if (!isBitcode(Buf))
    return orc_rt_jit_parseModule(Path, Buf, Ctx, M);
  /* The module owns the copy it reads its bodies from. */
  LLVMMemoryBufferRef Copy = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      LLVMGetBufferStart(Buf), LLVMGetBufferSize(Buf), Path);
  LLVMContextRef C = LLVMContextCreate();
  LLVMModuleRef Lazy = NULL;
  if (Copy && !LLVMGetBitcodeModuleInContext2(C, Copy, &Lazy) &&
      canStayUnread(Lazy)) {
    char *Msg = NULL;
    bool Valid = !LLVMVerifyModule(Lazy, LLVMReturnStatusAction, &Msg);
    LLVMDisposeMessage(Msg);
    if (Valid) {
      LLVMModuleRef Again;
      if (LLVMGetBitcodeModuleInContext2(C, Buf, &Again)) { /* takes Buf */
        LLVMDisposeModule(Lazy);
        LLVMContextDispose(C);
        return orc_rt_Error_createf("%s: could not be read again", Path);
      }
      *Ctx = C;
      *M = Lazy;
      *Holder = Again;
      return NULL;
    }
  }
  /* Read whole, as any other module (its errors are reported from there). */
  if (Lazy)
    LLVMDisposeModule(Lazy);
  LLVMContextDispose(C);
  return orc_rt_jit_parseModule(Path, Buf, Ctx, M);
}

orc_rt_ErrorRef orc_rt_jit_runPasses(LLVMModuleRef M, const char *Pipeline,
                                     LLVMTargetMachineRef TM) {
  LLVMPassBuilderOptionsRef PBO = LLVMCreatePassBuilderOptions();
  LLVMErrorRef E = LLVMRunPasses(M, Pipeline, TM, PBO);
  LLVMDisposePassBuilderOptions(PBO);
  char Prefix[256];
  snprintf(Prefix, sizeof(Prefix), "for the --passes option: ");
  return orc_rt_jit_fromLLVMError(E, Prefix);
}

orc_rt_ErrorRef orc_rt_jit_InitList_push(orc_rt_jit_InitList *L,
                                         unsigned Priority,
                                         const char *Symbol) {
  if (!orc_rt_jit_growArray(&L->Items, &L->Capacity, L->Size + 1,
                            sizeof(*L->Items)))
    return orc_rt_Error_create("out of memory");
  char *Copy = strdup(Symbol);
  if (!Copy)
    return orc_rt_Error_create("out of memory");
  L->Items[L->Size] = (orc_rt_jit_Init){Priority, (unsigned)L->Size, Copy, 0};
  ++L->Size;
  return NULL;
}

static bool isLocal(LLVMValueRef GV) {
  LLVMLinkage L = LLVMGetLinkage(GV);
  size_t Len;
  LLVMGetValueName2(GV, &Len);
  return L == LLVMInternalLinkage || L == LLVMPrivateLinkage || Len == 0;
}

/* Gives a local function a unique external name so it can be looked up. */
static void exposeFunction(LLVMValueRef F, const char *Name) {
  LLVMSetValueName2(F, Name, strlen(Name));
  LLVMSetLinkage(F, LLVMExternalLinkage);
  LLVMSetVisibility(F, LLVMDefaultVisibility);
}

static orc_rt_ErrorRef takeArray(LLVMModuleRef M, const char *ArrayName,
                                 const char *Kind, unsigned ModuleIndex,
                                 orc_rt_jit_InitList *Out) {
  LLVMValueRef GV = LLVMGetNamedGlobal(M, ArrayName);
  if (!GV)
    return NULL;
  LLVMValueRef Init = LLVMGetInitializer(GV);
  unsigned N =
      Init && LLVMIsAConstantArray(Init) ? LLVMGetNumOperands(Init) : 0;
  for (unsigned I = 0; I < N; ++I) {
    LLVMValueRef Entry = LLVMGetOperand(Init, I);
    if (!LLVMIsAConstantStruct(Entry) || LLVMGetNumOperands(Entry) < 2)
      continue;
    LLVMValueRef Prio = LLVMGetOperand(Entry, 0);
    LLVMValueRef Fn = LLVMGetOperand(Entry, 1);
    if (!LLVMIsAFunction(Fn))
      continue; /* null entries */
    if (isLocal(Fn)) {
      /* "<name>.__mini_lli.<module>.<index>": unique, and reported by its
       * own name (orc_rt_jit_restoreUserNames). */
      size_t OldLen;
      const char *Old = LLVMGetValueName2(Fn, &OldLen);
      char Name[192];
      if (OldLen)
        snprintf(Name, sizeof(Name), "%.*s.__mini_lli.%u.%u",
                 (int)(OldLen < 96 ? OldLen : 96), Old, ModuleIndex, I);
      else
        snprintf(Name, sizeof(Name), "__mini_lli.%s.%u.%u", Kind, ModuleIndex,
                 I);
      exposeFunction(Fn, Name);
    }
    size_t Len;
    const char *Name = LLVMGetValueName2(Fn, &Len);
    orc_rt_ErrorRef Err = orc_rt_jit_InitList_push(
        Out, (unsigned)LLVMConstIntGetZExtValue(Prio), Name);
    if (Err)
      return Err;
  }
  LLVMDeleteGlobal(GV);
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_takeInitializers(LLVMModuleRef M,
                                            unsigned ModuleIndex,
                                            orc_rt_jit_InitList *Ctors,
                                            orc_rt_jit_InitList *Dtors) {
  orc_rt_ErrorRef Err =
      takeArray(M, "llvm.global_ctors", "ctor", ModuleIndex, Ctors);
  if (!Err)
    Err = takeArray(M, "llvm.global_dtors", "dtor", ModuleIndex, Dtors);
  return Err;
}

static int compareInit(const void *A, const void *B) {
  const orc_rt_jit_Init *X = A, *Y = B;
  if (X->Priority != Y->Priority)
    return X->Priority < Y->Priority ? -1 : 1;
  return X->Order < Y->Order ? -1 : X->Order > Y->Order;
}

void orc_rt_jit_InitList_sort(orc_rt_jit_InitList *L) {
  if (L->Size)
    qsort(L->Items, L->Size, sizeof(*L->Items), compareInit);
}

void orc_rt_jit_InitList_dispose(orc_rt_jit_InitList *L) {
  for (size_t I = 0; I < L->Size; ++I)
    free(L->Items[I].Symbol);
  free(L->Items);
  L->Items = NULL;
  L->Size = L->Capacity = 0;
}

orc_rt_ErrorRef orc_rt_jit_NameList_push(orc_rt_jit_NameList *L,
                                         const char *Lookup,
                                         const char *Display) {
  if (!orc_rt_jit_growArray(&L->Items, &L->Capacity, L->Size + 1,
                            sizeof(*L->Items)))
    return orc_rt_Error_create("out of memory");
  char *A = strdup(Lookup), *B = strdup(Display);
  if (!A || !B) {
    free(A);
    free(B);
    return orc_rt_Error_create("out of memory");
  }
  L->Items[L->Size++] = (orc_rt_jit_Name){A, B, 0};
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_collectFunctionNames(LLVMModuleRef M,
                                                unsigned ModuleIndex,
                                                bool AddAliases,
                                                orc_rt_jit_NameList *Out) {
  unsigned I = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F), ++I) {
    if (LLVMIsDeclaration(F))
      continue;
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    if (!Len)
      continue;
    orc_rt_ErrorRef Err;
    if (!isLocal(F)) {
      Err = orc_rt_jit_NameList_push(Out, Name, Name);
    } else if (AddAliases) {
      char Alias[96];
      snprintf(Alias, sizeof(Alias), "__mini_lli.fn.%u.%u", ModuleIndex, I);
      LLVMAddAlias2(M, LLVMGlobalGetValueType(F), 0, F, Alias);
      Err = orc_rt_jit_NameList_push(Out, Alias, Name);
    } else {
      continue;
    }
    if (Err)
      return Err;
  }
  return NULL;
}

void orc_rt_jit_NameList_dispose(orc_rt_jit_NameList *L) {
  for (size_t I = 0; I < L->Size; ++I) {
    free(L->Items[I].Lookup);
    free(L->Items[I].Display);
  }
  free(L->Items);
  L->Items = NULL;
  L->Size = L->Capacity = 0;
}
