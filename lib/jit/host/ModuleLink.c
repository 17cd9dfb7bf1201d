/*===- lib/jit/host/ModuleLink.c - A compiled module linked for loading ---===*/

#include "jit/host/ModuleLink.h"
#include "jit/compile/SymbolImport.h"
#include "jit/support/Diag.h"

#include <llvm-c/Error.h>
#include <llvm-c/Orc.h>

#include <stdlib.h>
#include <string.h>

static orc_rt_ErrorRef define(LLVMOrcJITDylibRef JD,
                              LLVMOrcCSymbolMapPairs Pairs, size_t N) {
  LLVMOrcMaterializationUnitRef MU = LLVMOrcAbsoluteSymbols(Pairs, N);
  LLVMErrorRef E = LLVMOrcJITDylibDefine(JD, MU);
  if (E) /* the unit stays ours */
    LLVMOrcDisposeMaterializationUnit(MU);
  return orc_rt_jit_fromLLVMError(E, NULL);
}

/* The stubs escaping function addresses name, defined before the code that
 * uses them is linked; their targets are set once it is. */
static orc_rt_ErrorRef defineEscapeStubs(orc_rt_jit_LinkedModule *L) {
  const orc_rt_jit_EscapeList *X = &L->Code->Escapes;
  if (!X->Size)
    return NULL;
  orc_rt_ErrorRef Err;
  L->EscapeStubs = calloc(X->Size, sizeof(uint64_t));
  LLVMOrcCSymbolMapPairs Pairs = calloc(X->Size, sizeof(*Pairs));
  if (!L->EscapeStubs || !Pairs) {
    free(Pairs);
    return orc_rt_Error_create("out of memory");
  }
  size_t N = 0;
  for (; N < X->Size; ++N) {
    L->StubsMade = true;
    L->EscapeStubs[N] = orc_rt_jit_ModuleStubs_create(
        L->Id, X->Items[N].Display, 0, X->Items[N].RegsOnly,
        X->Items[N].FloatArgs);
    if (!L->EscapeStubs[N])
      break;
    Pairs[N].Name = LLVMOrcLLJITMangleAndIntern(L->LLJIT, X->Items[N].Stub);
    Pairs[N].Sym = (LLVMJITEvaluatedSymbol){
        L->EscapeStubs[N],
        {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable,
         0}};
  }
  if (N < X->Size) {
    for (size_t K = 0; K < N; ++K)
      LLVMOrcReleaseSymbolStringPoolEntry(Pairs[K].Name);
    Err = orc_rt_Error_create("out of memory");
  } else {
    Err = define(L->JD, Pairs, N);
  }
  free(Pairs);
  return Err;
}

/* Adds the objects and looks up, in one lookup that links everything, the
 * exports, constructors, destructors and escaping functions. */
static orc_rt_ErrorRef linkObjects(orc_rt_jit_LinkedModule *L) {
  const orc_rt_jit_CompiledModule *C = L->Code;
  LLVMMemoryBufferRef *Bufs = calloc(C->NumObjs + 1, sizeof(*Bufs));
  if (!Bufs)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < C->NumObjs; ++I)
    Bufs[I] = LLVMCreateMemoryBufferWithMemoryRangeCopy(C->Objs[I],
                                                        C->ObjSizes[I], "");
  orc_rt_ErrorRef Err = L->AddObjects(L->JD, Bufs, C->NumObjs, L->Ctx);
  free(Bufs);
  if (Err)
    return Err;
  size_t NE = C->Exports.Size, NC = C->Ctors.Size, ND = C->Dtors.Size,
         NX = C->Escapes.Size, N = NE + NC + ND + NX;
  const char **Names = calloc(N + 1, sizeof(char *));
  uint64_t *Addrs = calloc(N + 1, sizeof(uint64_t));
  L->ExportAddrs = calloc(NE + 1, sizeof(uint64_t));
  L->CtorAddrs = calloc(NC + 1, sizeof(uint64_t));
  L->DtorAddrs = calloc(ND + 1, sizeof(uint64_t));
  if (!Names || !Addrs || !L->ExportAddrs || !L->CtorAddrs || !L->DtorAddrs)
    Err = orc_rt_Error_create("out of memory");
  for (size_t I = 0; !Err && I < NE; ++I)
    Names[I] = C->Exports.Items[I].Name;
  for (size_t I = 0; !Err && I < NC; ++I)
    Names[NE + I] = C->Ctors.Items[I].Symbol;
  for (size_t I = 0; !Err && I < ND; ++I)
    Names[NE + NC + I] = C->Dtors.Items[I].Symbol;
  for (size_t I = 0; !Err && I < NX; ++I)
    Names[NE + NC + ND + I] = C->Escapes.Items[I].Target;
  if (!Err && N)
    Err = L->Lookup(L->JD, Names, N, Addrs, L->Ctx);
  if (!Err) {
    for (size_t I = 0; I < NX; ++I)
      orc_rt_jit_ModuleStubs_setTarget(L->EscapeStubs[I],
                                       Addrs[NE + NC + ND + I]);
    memcpy(L->ExportAddrs, Addrs, NE * sizeof(uint64_t));
    memcpy(L->CtorAddrs, Addrs + NE, NC * sizeof(uint64_t));
    memcpy(L->DtorAddrs, Addrs + NE + NC, ND * sizeof(uint64_t));
  }
  free(Names);
  free(Addrs);
  return Err;
}

/* The escape stub of the function named Name, or 0 if its address does
 * not escape. */
static uint64_t escapeStubOf(const orc_rt_jit_LinkedModule *L,
                             const char *Name) {
  const orc_rt_jit_EscapeList *E = &L->Code->Escapes;
  for (size_t I = 0; I < E->Size; ++I)
    if (!strcmp(E->Items[I].Target, Name))
      return L->EscapeStubs[I];
  return 0;
}

/* The entries of the exported functions. One whose address escapes the
 * module has its escape stub for entry, so that the pointer the module
 * hands out and the one a lookup (dlsym) gives are the same, as natively. */
static orc_rt_ErrorRef makeExportStubs(orc_rt_jit_LinkedModule *L) {
  const orc_rt_jit_ExportList *X = &L->Code->Exports;
  for (size_t I = 0; I < X->Size; ++I) {
    if (!X->Items[I].IsFunction)
      continue;
    uint64_t Escape = escapeStubOf(L, X->Items[I].Name);
    if (Escape) {
      L->ExportAddrs[I] = Escape;
      continue;
    }
    L->StubsMade = true;
    uint64_t Stub = orc_rt_jit_ModuleStubs_create(
        L->Id, X->Items[I].Name, L->ExportAddrs[I], X->Items[I].RegsOnly,
        X->Items[I].FloatArgs);
    if (!Stub)
      return orc_rt_Error_create("out of memory");
    L->ExportAddrs[I] = Stub;
  }
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_LinkedModule_link(orc_rt_jit_LinkedModule *L) {
  orc_rt_ErrorRef Err = defineEscapeStubs(L);
  if (!Err)
    Err = linkObjects(L);
  if (!Err)
    Err = makeExportStubs(L);
  return Err;
}

void orc_rt_jit_LinkedModule_dispose(orc_rt_jit_LinkedModule *L) {
  free(L->ExportAddrs);
  free(L->CtorAddrs);
  free(L->DtorAddrs);
  free(L->EscapeStubs);
  L->ExportAddrs = L->CtorAddrs = L->DtorAddrs = L->EscapeStubs = NULL;
}

LLVMErrorRef orc_rt_jit_generateFromModules(
    LLVMOrcExecutionSessionRef ES, LLVMOrcJITDylibRef JD,
    LLVMOrcLookupStateRef *State, LLVMOrcCLookupSet Set, size_t N,
    pthread_mutex_t *Lock, orc_rt_jit_FindExportFn Find, void *FindCtx,
    LLVMOrcJITDylibRef Fallback) {
  LLVMOrcCSymbolMapPairs Found = calloc(N + 1, sizeof(*Found));
  LLVMOrcCLookupSetElement *Rest = calloc(N + 1, sizeof(*Rest));
  if (!Found || !Rest) {
    free(Found), free(Rest);
    return LLVMCreateStringError("out of memory");
  }
  size_t NF = 0, NR = 0;
  pthread_mutex_lock(Lock);
  for (size_t I = 0; I < N; ++I) {
    uint64_t Addr;
    if (Find(Set[I].Name, &Addr, FindCtx)) {
      Found[NF].Name = Set[I].Name;
      Found[NF].Sym.Address = Addr;
      Found[NF].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported;
      ++NF;
    } else {
      LLVMOrcRetainSymbolStringPoolEntry(Set[I].Name); /* the lookup's */
      Rest[NR++].Name = Set[I].Name;
    }
  }
  pthread_mutex_unlock(Lock);
  orc_rt_jit_defineAbsolute(JD, Found, NF);
  free(Found);
  LLVMOrcCJITDylibSearchOrderElement Order = {
      Fallback, LLVMOrcJITDylibLookupFlagsMatchExportedSymbolsOnly};
  LLVMErrorRef E =
      NR ? orc_rt_jit_importInto(ES, JD, State, &Order, 1, Rest, NR) : NULL;
  free(Rest);
  return E;
}
