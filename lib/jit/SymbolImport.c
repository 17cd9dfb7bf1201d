/*===- lib/jit/SymbolImport.c - Definitions a lookup elsewhere finds ------===*/
/* See SymbolImport.h. */

#include "jit/SymbolImport.h"

#include <stdlib.h>

void orc_rt_jit_defineAbsolute(LLVMOrcJITDylibRef JD,
                               LLVMOrcCSymbolMapPairs Pairs, size_t N) {
  if (!N)
    return;
  LLVMOrcCSymbolMapPairs Copy = calloc(N, sizeof(*Copy));
  if (!Copy)
    return;
  for (size_t I = 0; I < N; ++I) {
    Copy[I] = Pairs[I];
    LLVMOrcRetainSymbolStringPoolEntry(Copy[I].Name);
  }
  LLVMErrorRef E = LLVMOrcJITDylibDefine(JD, LLVMOrcAbsoluteSymbols(Copy, N));
  free(Copy);
  if (E) /* e.g. defined meanwhile by a lookup on another thread */
    LLVMConsumeError(E);
}

typedef struct {
  LLVMOrcLookupStateRef State;
  LLVMOrcJITDylibRef JD;
} PendingLookup;

static void imported(LLVMErrorRef Err, LLVMOrcCSymbolMapPairs Result,
                     size_t NumPairs, void *Ctx) {
  PendingLookup *P = Ctx;
  if (Err)
    LLVMConsumeError(Err); /* what is missing is reported by the outer one */
  else
    orc_rt_jit_defineAbsolute(P->JD, Result, NumPairs);
  LLVMOrcLookupStateContinueLookup(P->State, NULL);
  free(P);
}

LLVMErrorRef orc_rt_jit_importInto(LLVMOrcExecutionSessionRef ES,
                                   LLVMOrcJITDylibRef JD,
                                   LLVMOrcLookupStateRef *State,
                                   LLVMOrcCJITDylibSearchOrder Order,
                                   size_t NOrder,
                                   LLVMOrcCLookupSetElement *Names, size_t N) {
  PendingLookup *P = malloc(sizeof(*P));
  if (!P) {
    for (size_t I = 0; I < N; ++I)
      LLVMOrcReleaseSymbolStringPoolEntry(Names[I].Name);
    return LLVMCreateStringError("out of memory");
  }
  for (size_t I = 0; I < N; ++I)
    Names[I].LookupFlags = LLVMOrcSymbolLookupFlagsWeaklyReferencedSymbol;
  P->State = *State;
  P->JD = JD;
  *State = NULL; /* suspended until imported() continues it */
  LLVMOrcExecutionSessionLookup(ES, LLVMOrcLookupKindStatic, Order, NOrder,
                                Names, N, imported, P);
  return NULL;
}
