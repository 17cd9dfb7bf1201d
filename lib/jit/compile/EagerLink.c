/*===- lib/jit/compile/EagerLink.c - Linking everything before anything runs ------===*/

#include "jit/compile/EagerLink.h"
#include "jit/compile/SymbolImport.h"
#include "jit/support/GrowArray.h"

#include <llvm-c/Object.h>
#include <llvm-c/Orc.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static orc_rt_ErrorRef note(orc_rt_jit_EagerLink *L, const char *Name,
                            size_t Len, bool Raw) {
  size_t RawCap = L->Capacity;
  if (!orc_rt_jit_growArray(&L->Raw, &RawCap, L->Size + 1, sizeof(*L->Raw)) ||
      !orc_rt_jit_growArray(&L->Names, &L->Capacity, L->Size + 1,
                            sizeof(*L->Names)))
    return orc_rt_Error_create("out of memory");
  char *Copy = strndup(Name, Len);
  if (!Copy)
    return orc_rt_Error_create("out of memory");
  L->Raw[L->Size] = Raw;
  L->Names[L->Size++] = Copy;
  return NULL;
}

/* A definition the module's object exports for certain. */
static bool exported(LLVMValueRef G) {
  switch (LLVMGetLinkage(G)) {
  case LLVMExternalLinkage:
  case LLVMWeakAnyLinkage:
  case LLVMWeakODRLinkage:
  case LLVMCommonLinkage:
    break;
  default:
    return false;
  }
  size_t Len;
  const char *Name = LLVMGetValueName2(G, &Len);
  return Len && strncmp(Name, "llvm.", 5);
}

static orc_rt_ErrorRef noteValue(orc_rt_jit_EagerLink *L, LLVMValueRef G) {
  size_t Len;
  const char *Name = LLVMGetValueName2(G, &Len);
  return note(L, Name, Len, false);
}

orc_rt_ErrorRef orc_rt_jit_EagerLink_noteModule(orc_rt_jit_EagerLink *L,
                                                LLVMModuleRef M) {
  orc_rt_ErrorRef Err = NULL;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && !Err;
       F = LLVMGetNextFunction(F))
    if (!LLVMIsDeclaration(F) && exported(F))
      Err = noteValue(L, F);
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G && !Err;
       G = LLVMGetNextGlobal(G))
    if (!LLVMIsDeclaration(G) && exported(G))
      Err = noteValue(L, G);
  for (LLVMValueRef A = LLVMGetFirstGlobalAlias(M); A && !Err;
       A = LLVMGetNextGlobalAlias(A))
    if (exported(A))
      Err = noteValue(L, A);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_EagerLink_noteObject(orc_rt_jit_EagerLink *L,
                                                LLVMMemoryBufferRef Obj) {
  char *Msg = NULL;
  LLVMBinaryRef B = LLVMCreateBinary(Obj, NULL, &Msg);
  if (!B) { /* adding it reports what is wrong with it */
    LLVMDisposeMessage(Msg);
    return NULL;
  }
  orc_rt_ErrorRef Err = NULL;
  LLVMSymbolIteratorRef Sym = LLVMObjectFileCopySymbolIterator(B);
  LLVMSectionIteratorRef Sec = LLVMObjectFileCopySectionIterator(B);
  for (; Sym && Sec && !Err && !LLVMObjectFileIsSymbolIteratorAtEnd(B, Sym);
       LLVMMoveToNextSymbol(Sym)) {
    /* Undefined (and common, absolute) symbols are in no section; section
     * symbols are named after their section. */
    LLVMMoveToContainingSection(Sec, Sym);
    const char *Name = LLVMGetSymbolName(Sym);
    if (!LLVMObjectFileIsSectionIteratorAtEnd(B, Sec) && Name && *Name &&
        *Name != '.')
      Err = note(L, Name, strlen(Name), true);
  }
  if (Sec)
    LLVMDisposeSectionIterator(Sec);
  if (Sym)
    LLVMDisposeSymbolIterator(Sym);
  LLVMDisposeBinary(B);
  return Err;
}

static int byEntry(const void *A, const void *B) {
  uintptr_t X = (uintptr_t) * (const LLVMOrcSymbolStringPoolEntryRef *)A;
  uintptr_t Y = (uintptr_t) * (const LLVMOrcSymbolStringPoolEntryRef *)B;
  return X < Y ? -1 : X > Y;
}

LLVMErrorRef orc_rt_jit_EagerLink_run(orc_rt_jit_EagerLink *L,
                                      LLVMOrcLLJITRef J,
                                      LLVMOrcJITDylibRef JD) {
  if (!L->Size)
    return NULL;
  LLVMOrcExecutionSessionRef ES = LLVMOrcLLJITGetExecutionSession(J);
  LLVMOrcSymbolStringPoolEntryRef *Interned =
      calloc(L->Size, sizeof(*Interned));
  uint64_t *Addrs = calloc(L->Size, sizeof(*Addrs));
  LLVMErrorRef E = NULL;
  if (!Interned || !Addrs) {
    E = LLVMCreateStringError("out of memory");
  } else {
    for (size_t I = 0; I < L->Size; ++I)
      Interned[I] = L->Raw[I] ? LLVMOrcExecutionSessionIntern(ES, L->Names[I])
                              : LLVMOrcLLJITMangleAndIntern(J, L->Names[I]);
    /* A name two modules define (a weak and a strong definition) is looked
     * up once: ORC's lookup set takes each name once. Equal names are the
     * same pool entry. */
    qsort(Interned, L->Size, sizeof(*Interned), byEntry);
    size_t N = 0;
    for (size_t I = 0; I < L->Size; ++I) {
      if (N && Interned[N - 1] == Interned[I])
        LLVMOrcReleaseSymbolStringPoolEntry(Interned[I]);
      else
        Interned[N++] = Interned[I];
    }
    E = orc_rt_jit_lookupWeaklyAndWait(ES, JD, Interned, N, Addrs);
    for (size_t I = 0; I < N; ++I)
      LLVMOrcReleaseSymbolStringPoolEntry(Interned[I]);
  }
  free(Interned);
  free(Addrs);
  return E;
}

void orc_rt_jit_EagerLink_dispose(orc_rt_jit_EagerLink *L) {
  for (size_t I = 0; I < L->Size; ++I)
    free(L->Names[I]);
  free(L->Names);
  free(L->Raw);
  memset(L, 0, sizeof(*L));
}
