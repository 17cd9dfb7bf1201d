/*===- lib/jit/tier/Tiers.c - Tiered compilation of a lazy module ----------===*/
/* See Tiers.h. Who touches what:
 *
 *   - a slot's Count: tier-0 code on any thread (monotonic loads and stores,
 *     CallCounters.h), and tierHot, which sets it negative;
 *   - a slot's State: tierHot moves it Tier0 -> Queued (compare-and-swap, so
 *     a slot is queued once); the compile thread moves it on;
 *   - the queue: a stack that tierHot pushes on (release) and the compile
 *     thread empties at once (acquire exchange), so no node is ever popped
 *     alone and there is no ABA;
 *   - everything else (the map of bodies, a slot's unit, the stats): Lock. */

#include "jit/tier/Tiers.h"
#include "jit/cache/ObjectCache.h"
#include "jit/compile/SymbolImport.h"
#include "jit/ir/CallCounters.h"
#include "jit/ir/ForwardingBody.h"
#include "jit/ir/Module.h"
#include "jit/ir/SplitSupport.h"
#include "jit/support/Diag.h"
#include "jit/support/GrowArray.h"
#include "jit/support/LibcPthread.h"
#include "jit/support/PtrSet.h"
#include "jit/tier/TierFronts.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Comdat.h>

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A slot's State. A tier-up that failed leaves it Queued: never queued
 * again, its tier-0 code serving on. */
enum { Tier0, Queued, Tier1 };

typedef struct Slot Slot;

/* One tier-0 module, as bitcode, and the bodies in it that have a front. */
typedef struct {
  LLVMMemoryBufferRef Bitcode;
  Slot **Slots;
  size_t NumSlots;
  bool Taken;            /* a tier-up of it has started */
  orc_rt_jit_Digest Key; /* with an object cache: tier 1's key */
  bool Linked;           /* tier 1 came from the cache and is in the JITDylib */
} Unit;

struct Slot {
  int32_t Count; /* see CallCounters.h */
  int State;
  orc_rt_jit_Tiers *T;
  Slot *NextQueued;
  uint64_t Front;
  char *Name, *Body; /* NAME, NAME$body */
  Unit *U;           /* the module it was compiled in at tier 0 */
};

struct orc_rt_jit_Tiers {
  orc_rt_jit_TierOptions Opts;
  LLVMOrcExecutionSessionRef ES;
  pthread_mutex_t Lock;
  orc_rt_jit_PtrSet ByBody; /* interned NAME$body -> Slot (key retained) */
  struct Batch {
    Slot *Items;
    size_t Size;
  } * Batches; /* the slots of each addFunctions */
  size_t NumBatches, BatchCap;
  Unit **Units;
  size_t NumUnits, UnitCap;
  orc_rt_jit_TierFronts Fronts;
  Slot **Eager; /* bodies orc_rt_jit_Tiers_compileEager compiles */
  size_t NumEager, EagerCap;
  orc_rt_jit_TierStats Stats;
  uint64_t Tier0Nanos, Tier1Nanos;
  /* The compile thread and its queue. The thread holds Gate for each
   * tier-up (it holds LLVM's locks only then); fork takes it first (see
   * orc_rt_jit_Tiers_beforeFork). */
  pthread_mutex_t Gate;
  Slot *Queue;
  sem_t Wake;
  int Started; /* 0 no, 1 running, 2 could not start */
  pthread_t Thread;
  bool Stop;
};

static uint64_t nowNanos(void) {
  struct timespec TS;
  clock_gettime(CLOCK_MONOTONIC, &TS);
  return (uint64_t)TS.tv_sec * 1000000000u + (uint64_t)TS.tv_nsec;
}

/*===----------------------------------------------------------------------===*/
/* Tier 1, on the compile thread. */

static char *suffixed(const char *Name, const char *Suffix) {
  size_t N = strlen(Name) + strlen(Suffix) + 1;
  char *S = malloc(N);
  if (S)
    snprintf(S, N, "%s%s", Name, Suffix);
  return S;
}

/* F becomes a declaration of the same name, type and calling convention
 * (what tier 0 defines). False if out of memory. */
static bool declareFunction(LLVMModuleRef M, LLVMValueRef F) {
  size_t Len;
  const char *Old = LLVMGetValueName2(F, &Len);
  char *Name = strndup(Old, Len);
  if (!Name)
    return false;
  LLVMValueRef D = LLVMAddFunction(M, "", LLVMGlobalGetValueType(F));
  LLVMSetFunctionCallConv(D, LLVMGetFunctionCallConv(F));
  LLVMReplaceAllUsesWith(F, D);
  LLVMDeleteFunction(F);
  LLVMSetValueName2(D, Name, Len);
  free(Name);
  return true;
}

/* Every definition of M but the tier-1 bodies (Keep) becomes a declaration
 * of the same name, which resolves to tier 0's definition; local functions
 * and constants stay (a copy of them is harmless), a writable local variable
 * is an error. */
static orc_rt_ErrorRef declareOthers(LLVMModuleRef M,
                                     const orc_rt_jit_PtrSet *Keep) {
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;) {
    LLVMValueRef Next = LLVMGetNextFunction(F);
    if (!LLVMIsDeclaration(F) && !orc_rt_jit_PtrSet_has(Keep, F) &&
        !orc_rt_jit_isLocalLinkage(LLVMGetLinkage(F)) && !declareFunction(M, F))
      return orc_rt_Error_create("out of memory");
    F = Next;
  }
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G;) {
    LLVMValueRef Next = LLVMGetNextGlobal(G);
    LLVMLinkage L = LLVMGetLinkage(G);
    /* A writable local would be a second variable in tier 1. (The split
     * gives locals external names; this is a backstop.) */
    if (orc_rt_jit_isLocalLinkage(L) && !LLVMIsDeclaration(G) &&
        !LLVMIsGlobalConstant(G))
      return orc_rt_Error_createf(
          "the tier-0 module defines the writable local variable '%s'",
          LLVMGetValueName(G));
    if (L == LLVMAppendingLinkage) {
      LLVMDeleteGlobal(G);
    } else if (!LLVMIsDeclaration(G) && !orc_rt_jit_isLocalLinkage(L)) {
      LLVMSetInitializer(G, NULL);
      LLVMSetLinkage(G, LLVMExternalLinkage);
      LLVMSetComdat(G, NULL);
    }
    G = Next;
  }
  return NULL;
}

/* True if P is used only as the address of loads and stores. */
static bool promotable(LLVMValueRef P) {
  for (LLVMUseRef U = LLVMGetFirstUse(P); U; U = LLVMGetNextUse(U)) {
    LLVMValueRef I = LLVMGetUser(U);
    if (LLVMIsALoadInst(I))
      continue;
    if (LLVMIsAStoreInst(I) && LLVMGetOperand(I, 1) == P &&
        LLVMGetOperand(I, 0) != P)
      continue;
    return false;
  }
  return true;
}

/* Not optimized: a stack slot that only loads and stores use is left, which
 * any optimizing pipeline (mem2reg/SROA) would have removed. */
static bool unoptimized(LLVMValueRef F) {
  LLVMBasicBlockRef E = LLVMGetEntryBasicBlock(F);
  for (LLVMValueRef I = E ? LLVMGetFirstInstruction(E) : NULL; I;
       I = LLVMGetNextInstruction(I))
    if (LLVMIsAAllocaInst(I) && promotable(I))
      return true;
  return false;
}

/* The name of a slot's tier-1 code. */
static char *tier1Name(const Slot *S) { return suffixed(S->Name, "$tier1"); }

/* Builds and compiles U's tier-1 code into *Objs; *Optimized says whether it
 * went through the IR pipeline. */
static orc_rt_ErrorRef compileUnit(orc_rt_jit_Tiers *T, Unit *U,
                                   orc_rt_jit_ObjectList *Objs,
                                   bool *Optimized) {
  LLVMContextRef C = LLVMContextCreate();
  LLVMModuleRef M = NULL;
  if (LLVMParseBitcodeInContext2(C, U->Bitcode, &M)) {
    LLVMContextDispose(C);
    return orc_rt_Error_create("cannot read back a tier-0 module");
  }
  orc_rt_ErrorRef Err = NULL;
  orc_rt_jit_PtrSet Keep = {0};
  char **Names = calloc(U->NumSlots, sizeof(*Names));
  bool Optimize = false;
  if (!Names)
    Err = orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < U->NumSlots && !Err; ++I) {
    Slot *S = U->Slots[I];
    LLVMValueRef F = LLVMGetNamedFunction(M, S->Body);
    Names[I] = tier1Name(S);
    if (!F || LLVMIsDeclaration(F))
      Err = orc_rt_Error_createf("%s: no body in its tier-0 module", S->Name);
    else if (!Names[I] || orc_rt_jit_PtrSet_insert(&Keep, F) < 0)
      Err = orc_rt_Error_create("out of memory");
    if (Err)
      break;
    Optimize |= unoptimized(F);
    LLVMSetValueName2(F, Names[I], strlen(Names[I]));
    LLVMSetLinkage(F, LLVMExternalLinkage);
    LLVMSetVisibility(F, LLVMDefaultVisibility);
    LLVMSetComdat(F, NULL);
  }
  if (!Err)
    Err = declareOthers(M, &Keep);
  orc_rt_jit_PtrSet_free(&Keep);
  LLVMTargetMachineRef TM = Err ? NULL : T->Opts.NewTM(T->Opts.TMCtx);
  if (!Err && !TM)
    Err = orc_rt_Error_create("cannot make a tier-1 target machine");
  if (!Err && Optimize)
    Err = orc_rt_jit_runPasses(M, "default<O2>", TM);
  *Optimized = Optimize;
  if (!Err)
    Err = orc_rt_jit_compileModule(M, 0, 1, false, TM, NULL, NULL, Objs);
  if (TM)
    LLVMDisposeTargetMachine(TM);
  LLVMDisposeModule(M);
  LLVMContextDispose(C);
  for (size_t I = 0; Names && I < U->NumSlots; ++I)
    free(Names[I]);
  free(Names);
  return Err;
}

/* Looks the N names up in the JITDylib (compiling what they need). */
static orc_rt_ErrorRef lookup(orc_rt_jit_Tiers *T, const char *const *Names,
                              size_t N, uint64_t *Addrs) {
  LLVMOrcSymbolStringPoolEntryRef *Interned = calloc(N, sizeof(*Interned));
  if (!Interned)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < N; ++I)
    Interned[I] = LLVMOrcLLJITMangleAndIntern(T->Opts.J, Names[I]);
  orc_rt_ErrorRef Err = orc_rt_jit_fromLLVMError(
      orc_rt_jit_lookupAndWait(T->ES, T->Opts.JD, Interned, N, Addrs, NULL,
                               NULL),
      NULL);
  for (size_t I = 0; I < N; ++I)
    LLVMOrcReleaseSymbolStringPoolEntry(Interned[I]);
  free(Interned);
  return Err;
}

/* Adds U's tier-1 objects (taken, also on failure) to the JITDylib and links
 * them; Addrs[i] gets the address of U->Slots[i]'s code. */
/* Adds the N objects to the JITDylib; takes them all, also on failure. */
static orc_rt_ErrorRef addObjects(orc_rt_jit_Tiers *T,
                                  LLVMMemoryBufferRef *Objs, size_t N) {
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; I < N; ++I) {
    if (!Err)
      Err = orc_rt_jit_fromLLVMError(
          LLVMOrcLLJITAddObjectFile(T->Opts.J, T->Opts.JD, Objs[I]), NULL);
    else
      LLVMDisposeMemoryBuffer(Objs[I]);
  }
  return Err;
}

static orc_rt_ErrorRef linkUnit(orc_rt_jit_Tiers *T, Unit *U,
                                LLVMMemoryBufferRef *Objs, size_t NumObjs,
                                uint64_t *Addrs) {
  orc_rt_ErrorRef Err = addObjects(T, Objs, NumObjs);
  char **Names = Err ? NULL : calloc(U->NumSlots, sizeof(*Names));
  if (!Err && !Names)
    Err = orc_rt_Error_create("out of memory");
  for (size_t I = 0; !Err && I < U->NumSlots; ++I)
    if (!(Names[I] = tier1Name(U->Slots[I])))
      Err = orc_rt_Error_create("out of memory");
  if (!Err)
    Err = lookup(T, (const char *const *)Names, U->NumSlots, Addrs);
  for (size_t I = 0; Names && I < U->NumSlots; ++I)
    free(Names[I]);
  free(Names);
  return Err;
}

static void tierUp(orc_rt_jit_Tiers *T, Slot *S) {
  pthread_mutex_lock(&T->Lock);
  Unit *U = S->U;
  bool Go = U && !U->Taken;
  if (Go)
    U->Taken = true;
  pthread_mutex_unlock(&T->Lock);
  if (!Go)
    return; /* another body of its module took it up */
  uint64_t Start = nowNanos();
  uint64_t *Addrs = calloc(U->NumSlots, sizeof(*Addrs));
  orc_rt_ErrorRef Err = Addrs ? NULL : orc_rt_Error_create("out of memory");
  bool Optimized = false;
  if (!Err && U->Linked) {
    Err = linkUnit(T, U, NULL, 0, Addrs);
  } else if (!Err) {
    orc_rt_jit_ObjectList Objs = {0};
    Err = compileUnit(T, U, &Objs, &Optimized);
    /* A cache that cannot be written is only a slower next run. */
    if (!Err && T->Opts.CacheDir)
      orc_rt_Error_consume(orc_rt_jit_ObjectCache_store(
          T->Opts.CacheDir, U->Key, &(orc_rt_jit_CacheManifest){0}, Objs.Items,
          Objs.Size));
    if (!Err) {
      Err = linkUnit(T, U, Objs.Items, Objs.Size, Addrs);
      Objs.Size = 0; /* (linkUnit took them) */
    }
    orc_rt_jit_ObjectList_dispose(&Objs);
  }
  /* Counted before the switch, so that a program that sees its calls run
   * tier-1 code and then ends finds them in -tiered-stats. */
  uint64_t Took = nowNanos() - Start;
  pthread_mutex_lock(&T->Lock);
  T->Tier1Nanos += Took;
  if (Err) {
    ++T->Stats.Failed;
  } else {
    T->Stats.Tier1Functions += U->NumSlots;
    T->Stats.Optimized += Optimized ? U->NumSlots : 0;
  }
  pthread_mutex_unlock(&T->Lock);
  /* The fronts' release stores order the linked code before the calls that
   * read the new target. */
  for (size_t I = 0; !Err && I < U->NumSlots; ++I) {
    orc_rt_jit_TierFronts_retarget(U->Slots[I]->Front, Addrs[I]);
    __atomic_store_n(&U->Slots[I]->State, Tier1, __ATOMIC_RELAXED);
  }
  free(Addrs);
  /* A tier-up that failed leaves tier 0 serving (see Tiers.h). */
  orc_rt_Error_consume(Err);
}

static void *compileThread(void *Arg) {
  orc_rt_jit_Tiers *T = Arg;
  for (;;) {
    while (sem_wait(&T->Wake) && errno == EINTR)
      ;
    /* Acquire: pairs with the release store in dispose. */
    if (__atomic_load_n(&T->Stop, __ATOMIC_ACQUIRE))
      break;
    /* Acquire: pairs with tierHot's release push, which wrote the node. */
    Slot *L = __atomic_exchange_n(&T->Queue, NULL, __ATOMIC_ACQUIRE);
    Slot *Fifo = NULL;
    while (L) {
      Slot *Next = L->NextQueued;
      L->NextQueued = Fifo;
      Fifo = L;
      L = Next;
    }
    for (; Fifo && !__atomic_load_n(&T->Stop, __ATOMIC_ACQUIRE);
         Fifo = Fifo->NextQueued) {
      pthread_mutex_lock(&T->Gate);
      tierUp(T, Fifo);
      pthread_mutex_unlock(&T->Gate);
    }
  }
  return NULL;
}

/* The compile thread, started by the first tier-up with every signal
 * blocked (the program's signals go to the program's threads). */
static void startThread(orc_rt_jit_Tiers *T) {
  int Expected = 0;
  if (!__atomic_compare_exchange_n(&T->Started, &Expected, 1, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  if (orc_rt_jit_realPthreadCreate(&T->Thread, NULL, compileThread, T))
    __atomic_store_n(&T->Started, 2, __ATOMIC_RELEASE);
  pthread_sigmask(SIG_SETMASK, &Old, NULL);
}

/* Queues S for tier 1 (once: the first caller moves it out of Tier0). */
static void enqueue(Slot *S) {
  int Expected = Tier0;
  if (!__atomic_compare_exchange_n(&S->State, &Expected, Queued, false,
                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return;
  orc_rt_jit_Tiers *T = S->T;
  Slot *Head = __atomic_load_n(&T->Queue, __ATOMIC_RELAXED);
  do
    S->NextQueued = Head;
  while (!__atomic_compare_exchange_n(&T->Queue, &Head, S, true,
                                      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  __atomic_fetch_add(&T->Stats.Hot, 1, __ATOMIC_RELAXED);
  startThread(T);
  sem_post(&T->Wake);
}

/* Called by tier-0 code whose count passed the threshold (CallCounters.h). */
static void tierHot(void *Arg) {
  Slot *S = Arg;
  __atomic_store_n(&S->Count, INT32_MIN, __ATOMIC_RELAXED);
  enqueue(S);
}

/*===----------------------------------------------------------------------===*/
/* Tier 0. */

/* Compilations nest on a thread (linking one module may compile another):
 * the start of each, for the time spent at tier 0. */
enum { MaxDepth = 16 };
static _Thread_local uint64_t CompileStart[MaxDepth];
static _Thread_local unsigned Depth;

/* Tier 1 of U is in the cache: its objects go into the JITDylib now, and
 * each body of M becomes a call of its tier-1 code (ForwardingBody.h), so
 * tier 0 compiles next to nothing. A body that cannot forward keeps its code;
 * if the objects cannot be added, U is compiled as without a cache. */
static void useCached(orc_rt_jit_Tiers *T, Unit *U, LLVMModuleRef M,
                      LLVMMemoryBufferRef *Cached, size_t NumCached) {
  orc_rt_ErrorRef Err = addObjects(T, Cached, NumCached);
  free(Cached);
  if (Err) {
    orc_rt_Error_consume(Err);
    return;
  }
  U->Linked = true;
  pthread_mutex_lock(&T->Lock);
  T->Stats.Cached += U->NumSlots;
  pthread_mutex_unlock(&T->Lock);
  for (size_t I = 0; I < U->NumSlots; ++I) {
    char *Name = tier1Name(U->Slots[I]);
    if (Name)
      orc_rt_jit_makeForwardingBody(LLVMGetNamedFunction(M, U->Slots[I]->Body),
                                    Name);
    free(Name);
  }
}

orc_rt_ErrorRef orc_rt_jit_Tiers_transform(orc_rt_jit_Tiers *T,
                                           LLVMModuleRef M) {
  if (Depth < MaxDepth)
    CompileStart[Depth] = nowNanos();
  ++Depth;
  Slot **Found = NULL;
  size_t NumFound = 0, FoundCap = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F)) {
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    if (LLVMIsDeclaration(F) || Len < 5 || memcmp(Name + Len - 5, "$body", 5))
      continue;
    LLVMOrcSymbolStringPoolEntryRef E =
        LLVMOrcLLJITMangleAndIntern(T->Opts.J, Name);
    pthread_mutex_lock(&T->Lock);
    Slot *S = orc_rt_jit_PtrSet_get(&T->ByBody, E);
    bool Fresh = S && !S->U;
    pthread_mutex_unlock(&T->Lock);
    LLVMOrcReleaseSymbolStringPoolEntry(E);
    if (!Fresh)
      continue;
    if (!orc_rt_jit_growArray(&Found, &FoundCap, NumFound + 1,
                              sizeof(*Found))) {
      free(Found);
      --Depth; /* (no object follows a failed transform) */
      return orc_rt_Error_create("out of memory");
    }
    Found[NumFound++] = S;
  }
  if (!NumFound)
    return NULL;
  Unit *U = calloc(1, sizeof(*U));
  if (U)
    U->Bitcode = LLVMWriteBitcodeToMemoryBuffer(M);
  orc_rt_ErrorRef Err = NULL;
  LLVMMemoryBufferRef *Cached = NULL; /* tier 1's objects, if cached */
  size_t NumCached = 0;
  if (U && U->Bitcode && T->Opts.CacheDir) {
    U->Key = orc_rt_jit_ObjectCache_key(LLVMGetBufferStart(U->Bitcode),
                                        LLVMGetBufferSize(U->Bitcode),
                                        T->Opts.Settings, NULL, 0);
    bool Hit = false;
    orc_rt_jit_InitList None = {0}; /* (tier-1 entries list nothing) */
    orc_rt_jit_CacheLists Into = {.Ctors = &None, .Dtors = &None};
    Err = orc_rt_jit_ObjectCache_load(T->Opts.CacheDir, U->Key, &Hit, &Into,
                                      &Cached, &NumCached);
    orc_rt_jit_InitList_dispose(&None);
    if (Hit && !NumCached) { /* (an entry with no object: a miss) */
      free(Cached);
      Cached = NULL;
    }
  }
  pthread_mutex_lock(&T->Lock);
  bool Kept = !Err && U && U->Bitcode &&
              orc_rt_jit_growArray(&T->Units, &T->UnitCap, T->NumUnits + 1,
                                   sizeof(*T->Units));
  if (Kept) {
    T->Units[T->NumUnits++] = U;
    U->Slots = Found;
    U->NumSlots = NumFound;
    for (size_t I = 0; I < NumFound; ++I)
      Found[I]->U = U;
    T->Stats.Tier0Functions += NumFound;
  }
  pthread_mutex_unlock(&T->Lock);
  if (!Kept) {
    if (U && U->Bitcode)
      LLVMDisposeMemoryBuffer(U->Bitcode);
    for (size_t I = 0; I < NumCached; ++I)
      LLVMDisposeMemoryBuffer(Cached[I]);
    free(Cached);
    free(U);
    free(Found);
    --Depth;
    return Err ? Err : orc_rt_Error_create("out of memory");
  }
  if (Cached)
    useCached(T, U, M, Cached, NumCached);
  for (size_t I = 0; I < NumFound; ++I)
    if (U->Linked)
      enqueue(Found[I]); /* (only its front's target is left to set) */
    else
      orc_rt_jit_addCallCounter(LLVMGetNamedFunction(M, Found[I]->Body),
                                (uintptr_t)&Found[I]->Count, T->Opts.Threshold,
                                (uintptr_t)tierHot, (uintptr_t)Found[I]);
  return NULL;
}

void orc_rt_jit_Tiers_objectReady(orc_rt_jit_Tiers *T) {
  if (!Depth)
    return; /* an object added as one (tier 1, -extra-object) */
  --Depth;
  if (Depth >= MaxDepth)
    return;
  uint64_t Took = nowNanos() - CompileStart[Depth];
  pthread_mutex_lock(&T->Lock);
  T->Tier0Nanos += Took;
  pthread_mutex_unlock(&T->Lock);
}

/*===----------------------------------------------------------------------===*/

orc_rt_ErrorRef orc_rt_jit_Tiers_create(orc_rt_jit_Tiers **Result,
                                        const orc_rt_jit_TierOptions *Opts) {
  orc_rt_jit_Tiers *T = calloc(1, sizeof(*T));
  if (!T)
    return orc_rt_Error_create("out of memory");
  if (sem_init(&T->Wake, 0, 0)) {
    free(T);
    return orc_rt_Error_createf("cannot make a semaphore: %s", strerror(errno));
  }
  T->Opts = *Opts;
  T->ES = LLVMOrcLLJITGetExecutionSession(Opts->J);
  pthread_mutex_init(&T->Lock, NULL);
  pthread_mutex_init(&T->Gate, NULL);
  *Result = T;
  return NULL;
}

/* Slots for the N functions, each body in the map (so that its compile,
 * from now on, counts); kept in T (dispose frees them) unless NULL. */
static Slot *newSlots(orc_rt_jit_Tiers *T, const orc_rt_jit_LazyStub *Stubs,
                      size_t N) {
  Slot *Batch = calloc(N, sizeof(*Batch));
  if (!Batch || !orc_rt_jit_growArray(&T->Batches, &T->BatchCap,
                                      T->NumBatches + 1, sizeof(*T->Batches))) {
    free(Batch);
    return NULL;
  }
  T->Batches[T->NumBatches++] = (struct Batch){Batch, N};
  bool OK = true;
  pthread_mutex_lock(&T->Lock);
  for (size_t I = 0; I < N && OK; ++I) {
    Slot *S = &Batch[I];
    S->T = T;
    S->Name = strdup(Stubs[I].Name);
    S->Body = strdup(Stubs[I].Body);
    LLVMOrcSymbolStringPoolEntryRef E =
        LLVMOrcLLJITMangleAndIntern(T->Opts.J, Stubs[I].Body);
    int Put = S->Name && S->Body ? orc_rt_jit_PtrSet_put(&T->ByBody, E, S) : -1;
    if (Put <= 0) /* (a weak body seen before keeps its first slot) */
      LLVMOrcReleaseSymbolStringPoolEntry(E);
    OK = Put >= 0;
  }
  pthread_mutex_unlock(&T->Lock);
  return OK ? Batch : NULL;
}

char *orc_rt_jit_tier0Name(const char *Name) {
  return suffixed(Name, "$tier0");
}

/* Where each of the N functions' fronts start: their lazy stubs. */
static orc_rt_ErrorRef lookupTier0(orc_rt_jit_Tiers *T,
                                   const orc_rt_jit_LazyStub *Stubs, size_t N,
                                   uint64_t *Addrs) {
  char **Names = calloc(N, sizeof(*Names));
  orc_rt_ErrorRef Err = Names ? NULL : orc_rt_Error_create("out of memory");
  for (size_t I = 0; !Err && I < N; ++I)
    if (!(Names[I] = orc_rt_jit_tier0Name(Stubs[I].Name)))
      Err = orc_rt_Error_create("out of memory");
  if (!Err)
    Err = lookup(T, (const char *const *)Names, N, Addrs);
  for (size_t I = 0; Names && I < N; ++I)
    free(Names[I]);
  free(Names);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Tiers_addFunctions(orc_rt_jit_Tiers *T,
                                              const orc_rt_jit_LazyStub *Stubs,
                                              size_t N) {
  if (!N)
    return NULL;
  Slot *Batch = newSlots(T, Stubs, N);
  uint64_t *Addrs = calloc(N, sizeof(*Addrs));
  LLVMOrcCSymbolMapPairs Pairs = calloc(N, sizeof(*Pairs));
  orc_rt_ErrorRef Err = Batch && Addrs && Pairs
                            ? lookupTier0(T, Stubs, N, Addrs)
                            : orc_rt_Error_create("out of memory");
  uint64_t Base = 0;
  if (!Err && !(Base = orc_rt_jit_TierFronts_create(&T->Fronts, Addrs, N)))
    Err = orc_rt_Error_create("out of memory");
  for (size_t I = 0; !Err && I < N; ++I) {
    Batch[I].Front = Base + 8 * I;
    Pairs[I].Name = LLVMOrcLLJITMangleAndIntern(T->Opts.J, Stubs[I].Name);
    Pairs[I].Sym.Address = Batch[I].Front;
    Pairs[I].Sym.Flags.GenericFlags =
        LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable |
        (Stubs[I].Weak ? LLVMJITSymbolGenericFlagsWeak : 0);
  }
  if (!Err)
    Err = orc_rt_jit_fromLLVMError(
        LLVMOrcJITDylibDefine(T->Opts.JD, LLVMOrcAbsoluteSymbols(Pairs, N)),
        NULL);
  free(Pairs);
  free(Addrs);
  /* Those whose address escapes wait for orc_rt_jit_Tiers_compileEager. */
  for (size_t I = 0; !Err && I < N; ++I)
    if (Stubs[I].Escapes) {
      if (!orc_rt_jit_growArray(&T->Eager, &T->EagerCap, T->NumEager + 1,
                                sizeof(*T->Eager)))
        Err = orc_rt_Error_create("out of memory");
      else
        T->Eager[T->NumEager++] = &Batch[I];
    }
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Tiers_compileEager(orc_rt_jit_Tiers *T) {
  size_t N = T->NumEager;
  if (!N)
    return NULL;
  const char **Bodies = calloc(N, sizeof(*Bodies));
  uint64_t *Code = calloc(N, sizeof(*Code));
  orc_rt_ErrorRef Err =
      Bodies && Code ? NULL : orc_rt_Error_create("out of memory");
  for (size_t I = 0; !Err && I < N; ++I)
    Bodies[I] = T->Eager[I]->Body;
  if (!Err)
    Err = lookup(T, Bodies, N, Code);
  for (size_t I = 0; !Err && I < N; ++I)
    orc_rt_jit_TierFronts_retarget(T->Eager[I]->Front, Code[I]);
  free(Bodies);
  free(Code);
  T->NumEager = 0;
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Tiers_startAtTier1(orc_rt_jit_Tiers *T,
                                              const char *Name) {
  char *Body = suffixed(Name, "$body");
  if (!Body)
    return orc_rt_Error_create("out of memory");
  LLVMOrcSymbolStringPoolEntryRef E =
      LLVMOrcLLJITMangleAndIntern(T->Opts.J, Body);
  pthread_mutex_lock(&T->Lock);
  Slot *S = orc_rt_jit_PtrSet_get(&T->ByBody, E);
  pthread_mutex_unlock(&T->Lock);
  LLVMOrcReleaseSymbolStringPoolEntry(E);
  int Expected = Tier0;
  orc_rt_ErrorRef Err = NULL;
  /* Tier 0 first: its module, saved as bitcode, is what tier 1 is built
   * from. */
  uint64_t Addr;
  if (S &&
      __atomic_compare_exchange_n(&S->State, &Expected, Queued, false,
                                  __ATOMIC_RELAXED, __ATOMIC_RELAXED) &&
      !(Err = lookup(T, (const char *const *)&Body, 1, &Addr)))
    tierUp(T, S);
  free(Body);
  return Err;
}

void orc_rt_jit_Tiers_beforeFork(orc_rt_jit_Tiers *T) {
  pthread_mutex_lock(&T->Gate);
}

void orc_rt_jit_Tiers_afterForkInParent(orc_rt_jit_Tiers *T) {
  pthread_mutex_unlock(&T->Gate);
}

void orc_rt_jit_Tiers_afterForkInChild(orc_rt_jit_Tiers *T) {
  /* The child has no compile thread: what gets hot there is queued and
   * stays at tier 0 (2: not started, never to start). */
  __atomic_store_n(&T->Started, 2, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&T->Gate);
}

bool orc_rt_jit_Tiers_onCompileThread(orc_rt_jit_Tiers *T) {
  /* Acquire: pairs with startThread's store of Started (the thread id was
   * written before it, by pthread_create). */
  return T && __atomic_load_n(&T->Started, __ATOMIC_ACQUIRE) == 1 &&
         pthread_equal(pthread_self(), T->Thread);
}

void orc_rt_jit_Tiers_stats(orc_rt_jit_Tiers *T, orc_rt_jit_TierStats *Out) {
  pthread_mutex_lock(&T->Lock);
  *Out = T->Stats;
  Out->Hot = __atomic_load_n(&T->Stats.Hot, __ATOMIC_RELAXED);
  Out->Tier0Seconds = (double)T->Tier0Nanos / 1e9;
  Out->Tier1Seconds = (double)T->Tier1Nanos / 1e9;
  pthread_mutex_unlock(&T->Lock);
}

void orc_rt_jit_Tiers_dispose(orc_rt_jit_Tiers *T) {
  if (!T)
    return;
  if (__atomic_load_n(&T->Started, __ATOMIC_ACQUIRE) == 1) {
    /* Release: pairs with the compile thread's acquire load of Stop. */
    __atomic_store_n(&T->Stop, true, __ATOMIC_RELEASE);
    sem_post(&T->Wake);
    pthread_join(T->Thread, NULL);
  }
  for (size_t I = 0; I <= T->ByBody.Mask && T->ByBody.Keys; ++I)
    if (T->ByBody.Keys[I])
      LLVMOrcReleaseSymbolStringPoolEntry(
          (LLVMOrcSymbolStringPoolEntryRef)T->ByBody.Keys[I]);
  orc_rt_jit_PtrSet_free(&T->ByBody);
  for (size_t I = 0; I < T->NumBatches; ++I) {
    for (size_t K = 0; K < T->Batches[I].Size; ++K) {
      free(T->Batches[I].Items[K].Name);
      free(T->Batches[I].Items[K].Body);
    }
    free(T->Batches[I].Items);
  }
  free(T->Batches);
  free(T->Eager);
  for (size_t I = 0; I < T->NumUnits; ++I) {
    LLVMDisposeMemoryBuffer(T->Units[I]->Bitcode);
    free(T->Units[I]->Slots);
    free(T->Units[I]);
  }
  free(T->Units);
  orc_rt_jit_TierFronts_dispose(&T->Fronts);
  pthread_mutex_destroy(&T->Lock);
  pthread_mutex_destroy(&T->Gate);
  sem_destroy(&T->Wake);
  free(T);
}
