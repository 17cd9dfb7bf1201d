/*===- lib/jit/compile/SymbolImport.c - Definitions a lookup elsewhere finds ===*/
/* See SymbolImport.h. */

#include "jit/compile/SymbolImport.h"

#include <pthread.h>
#include <stdbool.h>
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

typedef struct {
  pthread_mutex_t Lock;
  pthread_cond_t Done; /* signalled with Finished set, under Lock */
  bool Finished;
  LLVMErrorRef Err;
  LLVMOrcSymbolStringPoolEntryRef *Names;
  uint64_t *Addrs;
  size_t N;
} LookupState;

static void lookupDone(LLVMErrorRef Err, LLVMOrcCSymbolMapPairs Result,
                       size_t NumPairs, void *Ctx) {
  LookupState *S = Ctx;
  pthread_mutex_lock(&S->Lock);
  S->Err = Err;
  for (size_t I = 0; !Err && I < NumPairs; ++I)
    for (size_t K = 0; K < S->N; ++K)
      if (S->Names[K] == Result[I].Name)
        S->Addrs[K] = Result[I].Sym.Address;
  S->Finished = true;
  pthread_cond_signal(&S->Done);
  pthread_mutex_unlock(&S->Lock);
}

static LLVMErrorRef lookupAndWait(LLVMOrcExecutionSessionRef ES,
                                  LLVMOrcJITDylibRef JD,
                                  LLVMOrcSymbolStringPoolEntryRef *Names,
                                  size_t N, LLVMOrcSymbolLookupFlags Flags,
                                  uint64_t *Addrs,
                                  void (*Unfinished)(void *Ctx), void *Ctx) {
  LLVMOrcCLookupSetElement *Syms = calloc(N ? N : 1, sizeof(*Syms));
  orc_rt_jit_PtrSet Seen = {0};
  if (!Syms)
    return LLVMCreateStringError("out of memory");
  /* Each name once: ORC's lookup sets may not repeat one (a function both
   * exported and escaping is asked for twice), and a lookup that has to
   * generate a repeated name breaks ORC's bookkeeping (SIGSEGV in
   * OL_completeLookup). Every Addrs[K] of a name is filled (lookupDone). */
  size_t NS = 0;
  for (size_t I = 0; I < N; ++I) {
    Addrs[I] = 0;
    int New = 1; /* a few: compared; many: a set */
    for (size_t K = 0; N <= 32 && K < NS && New; ++K)
      New = Syms[K].Name != Names[I];
    if (N > 32)
      New = orc_rt_jit_PtrSet_insert(&Seen, Names[I]);
    if (New < 0) {
      orc_rt_jit_PtrSet_free(&Seen);
      for (size_t K = 0; K < NS; ++K)
        LLVMOrcReleaseSymbolStringPoolEntry(Syms[K].Name);
      free(Syms);
      return LLVMCreateStringError("out of memory");
    }
    if (!New)
      continue;
    LLVMOrcRetainSymbolStringPoolEntry(Names[I]); /* the lookup takes one */
    Syms[NS++] = (LLVMOrcCLookupSetElement){Names[I], Flags};
  }
  orc_rt_jit_PtrSet_free(&Seen);
  LookupState S = {PTHREAD_MUTEX_INITIALIZER,
                   PTHREAD_COND_INITIALIZER,
                   false,
                   NULL,
                   Names,
                   Addrs,
                   N};
  LLVMOrcCJITDylibSearchOrderElement Order = {
      JD, LLVMOrcJITDylibLookupFlagsMatchAllSymbols};
  LLVMOrcExecutionSessionLookup(ES, LLVMOrcLookupKindStatic, &Order, 1, Syms,
                                NS, lookupDone, &S);
  pthread_mutex_lock(&S.Lock);
  if (!S.Finished && Unfinished)
    Unfinished(Ctx);
  while (!S.Finished)
    pthread_cond_wait(&S.Done, &S.Lock);
  pthread_mutex_unlock(&S.Lock);
  pthread_mutex_destroy(&S.Lock);
  pthread_cond_destroy(&S.Done);
  free(Syms);
  return S.Err;
}

LLVMErrorRef orc_rt_jit_lookupAndWait(LLVMOrcExecutionSessionRef ES,
                                      LLVMOrcJITDylibRef JD,
                                      LLVMOrcSymbolStringPoolEntryRef *Names,
                                      size_t N, uint64_t *Addrs,
                                      void (*Unfinished)(void *Ctx),
                                      void *Ctx) {
  return lookupAndWait(ES, JD, Names, N, LLVMOrcSymbolLookupFlagsRequiredSymbol,
                       Addrs, Unfinished, Ctx);
}

LLVMErrorRef orc_rt_jit_lookupWeaklyAndWait(
    LLVMOrcExecutionSessionRef ES, LLVMOrcJITDylibRef JD,
    LLVMOrcSymbolStringPoolEntryRef *Names, size_t N, uint64_t *Addrs) {
  return lookupAndWait(ES, JD, Names, N,
                       LLVMOrcSymbolLookupFlagsWeaklyReferencedSymbol, Addrs,
                       NULL, NULL);
}

void orc_rt_jit_PtrSet_freeInterned(orc_rt_jit_PtrSet *S) {
  for (size_t I = 0; S->Keys && I <= S->Mask; ++I)
    if (S->Keys[I])
      LLVMOrcReleaseSymbolStringPoolEntry(
          (LLVMOrcSymbolStringPoolEntryRef)S->Keys[I]);
  orc_rt_jit_PtrSet_free(S);
}
