/*===- lib/jit/tier/Tiers.c - Tiered compilation of a lazy module ----------===*/
/* See Tiers.h. Who touches what:
 *
 *   - a slot's Count: tier-0 code on any thread (volatile loads and stores,
 *     CallCounters.h), and tierHot, which sets it negative;
 *   - a slot's State: tierHot moves it Tier0 -> Queued (compare-and-swap, so
 *     a slot is queued once); the compile thread moves it on;
 *   - the queue: a stack that tierHot pushes on (release) and the compile
 *     thread empties at once (acquire exchange) into its own Pending list,
 *     so no node is ever popped alone and there is no ABA; Drained (tier-0
 *     code to free) likewise, pushed by whichever thread completes a tier-0
 *     group;
 *   - everything else (the map of bodies, a slot's unit, the stats): Lock. */

#include "jit/tier/Tiers.h"
#include "jit/cache/ObjectCache.h"
#include "jit/compile/CallOnceGuard.h"
#include "jit/compile/PersonalityRef.h"
#include "jit/compile/SymbolImport.h"
#include "jit/ir/CallCounters.h"
#include "jit/ir/DlopenIR.h"
#include "jit/ir/ForwardingBody.h"
#include "jit/ir/Module.h"
#include "jit/ir/SelfCalls.h"
#include "jit/ir/SplitSupport.h"
#include "jit/modules/ModuleStubs.h"
#include "jit/support/Diag.h"
#include "jit/support/GrowArray.h"
#include "jit/support/LibcPthread.h"
#include "jit/support/PtrSet.h"
#include "jit/tier/TierFirstCalls.h"
#include "jit/tier/TierFronts.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Comdat.h>

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A slot's State. A tier-up that failed leaves it Queued: never queued
 * again, its tier-0 code serving on. */
enum { Tier0, Queued, Tier1 };

typedef struct Slot Slot;

/* The tier-0 code of one module (the bodies one lookup asked for), under a
 * resource tracker of its own and entered only through token-taking stubs
 * (modules/ModuleStubs.h) of a group of its own: once every front leads to
 * tier 1, the group is closed, and when its last frame returns the code is
 * freed (on the compile thread). A stub whose token is denied sends its call
 * on through the function's front. */
typedef struct Tier0Code {
  orc_rt_jit_Tiers *T;
  LLVMOrcMaterializationResponsibilityRef MR; /* NAME$body..., until linked */
  LLVMOrcCSymbolFlagsMapPairs Syms;           /* MR's, in Slots' order */
  Slot **Slots;
  LLVMOrcSymbolStringPoolEntryRef *CodeNames; /* interned Slots[i]->Code */
  uint64_t *Stubs;                            /* what NAME$body resolves to */
  size_t N;
  LLVMOrcResourceTrackerRef RT; /* NULL once the code is freed */
  orc_rt_TaskGroupRef Group;    /* the creator's reference */
  orc_rt_jit_StubModule *Id;    /* permanent: the stubs name it */
  bool Linked;                  /* the stubs lead to the code */
  bool QueueWhenLinked;         /* tier 1 is cached: queue the tier-ups */
  struct Tier0Code *NextDrained;
} Tier0Code;

/* One tier-0 module, as bitcode, and the bodies in it that have a front. */
typedef struct {
  LLVMMemoryBufferRef Bitcode;
  Slot **Slots;
  size_t NumSlots;
  bool Taken;            /* a tier-up of it has started */
  orc_rt_jit_Digest Key; /* with an object cache: tier 1's key */
  bool Linked;           /* tier 1 came from the cache and is in the JITDylib */
  Tier0Code *Tier0;      /* NULL: its tier-0 code is never freed */
} Unit;

struct Slot {
  int32_t Count; /* see CallCounters.h */
  int State;
  orc_rt_jit_Tiers *T;
  LLVMOrcJITDylibRef JD; /* its front's and its code's (tier 1's too) */
  Slot *NextQueued;
  uint64_t Front;
  char *Name, *Body; /* NAME, NAME$body */
  /* The name of its tier-0 code: Body, or NAME$tier0code behind a stub. */
  char *Code;
  Tier0Code *Tier0; /* set when Code is not Body */
  /* Its address escapes: it may be a signal handler, and is never entered
   * through a stub (whose first call on a thread allocates). */
  bool Escapes;
  bool HandlerType; /* a signal handler's type (compile/LazySplit.h) */
  /* EscapesOnFirstCall: its first-call entry (TierFirstCalls.h), where the
   * front leads until the body is compiled, and then the body's address. */
  uint64_t Entry;
  uint64_t FirstCode; /* 0 until compiled; atomic */
  bool HasLoop; /* its tier-0 body has a back-edge (set by the transform) */
  Unit *U;      /* the module it was compiled in at tier 0 */
};

struct orc_rt_jit_Tiers {
  orc_rt_jit_TierOptions Opts;
  LLVMOrcExecutionSessionRef ES;
  pthread_mutex_t Lock;
  /* JITDylib -> its map of interned NAME$body and NAME$tier0code -> Slot
   * (keys retained): -jd JITDylibs may each have a function of one name. */
  orc_rt_jit_PtrSet ByJD;
  struct Batch {
    Slot *Items;
    size_t Size;
  } * Batches; /* the slots of each addFunctions */
  size_t NumBatches, BatchCap;
  Unit **Units;
  size_t NumUnits, UnitCap;
  orc_rt_jit_TierFronts Fronts;
  orc_rt_jit_TierFirstCalls FirstCalls;
  Slot **Eager; /* bodies orc_rt_jit_Tiers_compileEager compiles */
  size_t NumEager, EagerCap;
  Tier0Code **Tier0s; /* every one made (dispose frees them) */
  size_t NumTier0s, Tier0Cap;
  /* Tier-0 code whose group completed, to be freed by the compile thread: a
   * stack, pushed by the completing thread (release), emptied at once. */
  Tier0Code *Drained;
  /* Personality functions with a permanent DW.ref cell (interned, retained;
   * keepPersonalityRefs). */
  orc_rt_jit_PtrSet Personalities;
  orc_rt_jit_TierStats Stats;
  uint64_t Tier0Nanos, Tier1Nanos;
  /* The compile thread and its queue. The thread holds Gate for each
   * tier-up (it holds LLVM's locks only then); fork takes it first (see
   * orc_rt_jit_Tiers_beforeFork). */
  pthread_mutex_t Gate;
  /* First calls compiling (firstCall) and a fork under way: a fork waits
   * for the first, and they for it, so that the child does not inherit
   * LLVM's locks held by a compile thread that does not exist there. Atomics,
   * not a lock: a lock taken in the prepare handler cannot be released in
   * the child (glibc's rwlock unlock goes by thread id; ThreadSanitizer takes
   * a lock made again for a locked one), and a first call may come from a
   * signal handler. seq_cst: firstCall's increment then load of Forking and
   * beforeFork's store of Forking then load of Compiling are the
   * store-buffering pattern, so one of the two sees the other. Taken before
   * Gate. */
  atomic_uint Compiling;
  atomic_bool Forking;
  /* In a forked child: first calls compile on the calling thread (a child
   * of a threaded process makes no thread; ThreadSanitizer ends one that
   * does). */
  bool ForkChild;
  Slot *Queue;
  /* The slots taken off the queue and not tiered up yet, linked through
   * NextQueued (the compile thread's own): nextTierUp picks from them. */
  Slot *Pending;
  sem_t Wake;
  int Started; /* 0 no, 1 running, 2 could not start */
  pthread_t Thread;
  bool Stop;
  /* Lookups of tier-0 code whose callback (codeLinked) has not returned,
   * under Lock; waitForLinks waits for none (LinksDone). The callback still
   * touches its Tier0Code and T after it notifies the bodies emitted, which
   * lets their callers run and return, so a host version can complete and
   * dispose T meanwhile. */
  unsigned Linking;
  pthread_cond_t LinksDone;
};

/* The map of JD's bodies and code names to their slots (Lock held); NULL if
 * it has none yet and Make is false, or if out of memory. */
static orc_rt_jit_PtrSet *bodiesOf(orc_rt_jit_Tiers *T, LLVMOrcJITDylibRef JD,
                                   bool Make) {
  orc_rt_jit_PtrSet *M = orc_rt_jit_PtrSet_get(&T->ByJD, JD);
  if (M || !Make)
    return M;
  M = calloc(1, sizeof(*M));
  if (M && orc_rt_jit_PtrSet_put(&T->ByJD, JD, M) < 0) {
    free(M);
    M = NULL;
  }
  return M;
}

/* The slot of the body or code name E in JD (Lock held), or NULL. */
static Slot *slotOf(orc_rt_jit_Tiers *T, LLVMOrcJITDylibRef JD,
                    LLVMOrcSymbolStringPoolEntryRef E) {
  orc_rt_jit_PtrSet *M = bodiesOf(T, JD, false);
  return M ? orc_rt_jit_PtrSet_get(M, E) : NULL;
}

static uint64_t nowNanos(void) {
  struct timespec TS;
  clock_gettime(CLOCK_MONOTONIC, &TS);
  return (uint64_t)TS.tv_sec * 1000000000u + (uint64_t)TS.tv_nsec;
}

/*===----------------------------------------------------------------------===*/
/* Tier-0 code that can be freed (Tier0Code). */

static char *suffixed(const char *Name, const char *Suffix);
static void enqueue(Slot *S);

static const char CodeSuffix[] = "$tier0code";

/* F makes a musttail call. Every function in a cycle of musttail calls
 * (threaded interpreters' handlers, mutual recursion) makes one, and a
 * stub keeps a frame per call it takes: behind stubs, such a cycle would
 * grow the stack at every call, where musttail promises it does not. */
static bool makesMustTailCall(LLVMValueRef F) {
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB;
       BB = LLVMGetNextBasicBlock(BB)) {
    LLVMValueRef I = LLVMGetLastInstruction(BB);
    /* (a musttail call is followed by the block's ret, or a bitcast then
     * the ret) */
    for (int K = 0; I && K < 3; ++K, I = LLVMGetPreviousInstruction(I))
      if (LLVMIsACallInst(I) &&
          LLVMGetTailCallKind(I) == LLVMTailCallKindMustTail)
        return true;
  }
  return false;
}

/* Its frames can be counted: a stub can take the call (its arguments and
 * result in registers, the C calling convention: the stub's return path
 * uses the scratch registers), and it makes no musttail call. */
static bool stubbable(LLVMValueRef F, bool *FloatArgs) {
  unsigned CC = LLVMGetFunctionCallConv(F);
  return !LLVMIsDeclaration(F) &&
         (CC == LLVMCCallConv || CC == LLVMFastCallConv) &&
         orc_rt_jit_registersOnly(F, FloatArgs) && !makesMustTailCall(F);
}

typedef struct {
  Tier0Code *C;
  bool *FloatArgs;
  bool Rename; /* first pass: check; second: rename */
  bool OK;
  /* First pass: the bodies' personality functions (a name may repeat). */
  char **Personalities;
  size_t NumPersonalities, PersonalityCap;
} Prepare;

/* Notes F's personality function, if any: false if it has one that is not
 * a named function, or if out of memory. */
static bool notePersonality(Prepare *P, LLVMValueRef F) {
  const char *Name;
  size_t Len;
  if (!orc_rt_jit_personalityOf(F, &Name, &Len))
    return true;
  char *Copy = Len ? strndup(Name, Len) : NULL;
  if (!Copy || !orc_rt_jit_growArray(&P->Personalities, &P->PersonalityCap,
                                     P->NumPersonalities + 1,
                                     sizeof(*P->Personalities))) {
    free(Copy);
    return false;
  }
  P->Personalities[P->NumPersonalities++] = Copy;
  return true;
}

/* Checks that every body of C can be entered through a stub, or (second
 * pass) gives each its code name. */
static LLVMErrorRef prepareBodies(void *Ctx, LLVMModuleRef M) {
  Prepare *P = Ctx;
  P->OK = true;
  for (size_t I = 0; I < P->C->N && P->OK; ++I) {
    Slot *S = P->C->Slots[I];
    LLVMValueRef F = LLVMGetNamedFunction(M, S->Body);
    if (!P->Rename) {
      P->OK = F && stubbable(F, &P->FloatArgs[I]) && notePersonality(P, F);
      continue;
    }
    LLVMSetValueName2(F, S->Code, strlen(S->Code));
    LLVMSetLinkage(F, LLVMExternalLinkage);
    LLVMSetVisibility(F, LLVMDefaultVisibility);
    LLVMSetComdat(F, NULL);
  }
  return NULL;
}

/* Defines each personality of P in JD for good (compile/PersonalityRef.h:
 * the JITDylib keeps the first DW.ref.PERS linked for all later objects, and
 * one in tier-0 code that is freed would leave the others' unwind info
 * pointing into freed memory), before the first module that uses it. */
static void keepPersonalityRefs(orc_rt_jit_Tiers *T, LLVMOrcJITDylibRef JD,
                                const Prepare *P) {
  for (size_t I = 0; I < P->NumPersonalities; ++I) {
    LLVMOrcSymbolStringPoolEntryRef E =
        LLVMOrcLLJITMangleAndIntern(T->Opts.J, P->Personalities[I]);
    pthread_mutex_lock(&T->Lock);
    int New = orc_rt_jit_PtrSet_insert(&T->Personalities, E);
    pthread_mutex_unlock(&T->Lock);
    if (New <= 0) { /* (known, or out of memory: the define below is weak) */
      LLVMOrcReleaseSymbolStringPoolEntry(E);
      if (New == 0)
        continue;
    }
    orc_rt_jit_definePersonalityRef(T->Opts.J, JD, P->Personalities[I]);
  }
}

static void disposeTier0Code(Tier0Code *C) {
  if (C->RT)
    LLVMOrcReleaseResourceTracker(C->RT);
  orc_rt_TaskGroup_destroy(C->Group);
  if (C->Syms)
    LLVMOrcDisposeCSymbolFlagsMap(C->Syms);
  free(C->Slots);
  free(C->CodeNames);
  free(C->Stubs);
  free(C);
}

/* Runs when C's group completes (closed by the tier-up, its last frame
 * back), on the thread that completed it: the compile thread frees it. */
static void drained(void *Ctx) {
  Tier0Code *C = Ctx;
  orc_rt_jit_Tiers *T = C->T;
  Tier0Code *Head = __atomic_load_n(&T->Drained, __ATOMIC_RELAXED);
  do
    C->NextDrained = Head;
  while (!__atomic_compare_exchange_n(&T->Drained, &Head, C, true,
                                      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  sem_post(&T->Wake);
}

/* What a retired tier-0 stub's record names (orc_rt_jit_ModuleStubs_retire):
 * permanent and never written. A call that still reaches such a stub (its
 * thread read the tier front before the tier-up) takes no token and goes on
 * to the stub's Onward, the function's front. */
static orc_rt_jit_StubModule RetiredTier0 = {
    .Path = (char *)"tier 0", .Superseded = true, .Unlisted = true};

/* C's group completed (no frame is in its code): its stubs take no token
 * from now on, and its Id, group and token slot index are freed once no
 * thread is still reading them (modules/ModuleStubs.h). */
static void retireStubs(Tier0Code *C) {
  if (!C->Id)
    return;
  orc_rt_jit_ModuleStubs_retire(C->Id, C->Stubs, C->N, &RetiredTier0);
  C->Id = NULL;
}

/* Frees the tier-0 code whose last frame is back (the caller holds Gate, or
 * the program has not started). */
static void freeDrained(orc_rt_jit_Tiers *T) {
  /* Acquire: pairs with drained's release push. */
  Tier0Code *L = __atomic_exchange_n(&T->Drained, NULL, __ATOMIC_ACQUIRE);
  for (; L; L = L->NextDrained) {
    orc_rt_ErrorRef Err =
        orc_rt_jit_fromLLVMError(LLVMOrcResourceTrackerRemove(L->RT), NULL);
    pthread_mutex_lock(&T->Lock);
    if (!Err)
      T->Stats.Tier0Freed += L->N;
    pthread_mutex_unlock(&T->Lock);
    orc_rt_Error_consume(Err);
    retireStubs(L);
  }
}

/* Every front of U leads to tier 1: U's tier-0 code takes no new call, and
 * is freed once its last frame is back. */
static void retireTier0(Unit *U) {
  Tier0Code *C = U->Tier0;
  if (!C)
    return;
  /* Release: pairs with the acquire load of the mark in a denied stub entry
   * (ModuleStubs.c), which then reads the front retargeted before this. */
  __atomic_store_n(&C->Id->Superseded, true, __ATOMIC_RELEASE);
  orc_rt_TaskGroup_close(C->Group);
}

/* The lookup of C's code (compiling and linking it) is done: the stubs lead
 * to it and MR's bodies are emitted. */
static void codeLinked(LLVMErrorRef E, LLVMOrcCSymbolMapPairs Result,
                       size_t NumPairs, void *Ctx) {
  Tier0Code *C = Ctx;
  orc_rt_jit_Tiers *T = C->T;
  for (size_t I = 0; !E && I < C->N; ++I) {
    uint64_t Addr = 0;
    for (size_t K = 0; K < NumPairs; ++K)
      if (Result[K].Name == C->CodeNames[I])
        Addr = Result[K].Sym.Address;
    orc_rt_jit_ModuleStubs_setTarget(C->Stubs[I], Addr);
  }
  if (!E)
    E = LLVMOrcMaterializationResponsibilityNotifyEmitted(C->MR, NULL, 0);
  if (E) {
    /* The code's own failure went to the session's error reporter; this
     * lookup's error only repeats it. Whoever waits for the bodies fails. */
    if (T->Opts.Tier0Failed)
      T->Opts.Tier0Failed(C->Slots[0]->Name, T->Opts.Tier0FailedCtx);
    LLVMOrcMaterializationResponsibilityFailMaterialization(C->MR);
    LLVMConsumeError(E);
  }
  LLVMOrcDisposeMaterializationResponsibility(C->MR);
  C->MR = NULL;
  pthread_mutex_lock(&T->Lock);
  C->Linked = !E;
  bool Queue = C->Linked && C->QueueWhenLinked;
  pthread_mutex_unlock(&T->Lock);
  for (size_t I = 0; Queue && I < C->N; ++I)
    enqueue(C->Slots[I]);
  /* The last touch of C and T: they may be freed once Linking drops. */
  pthread_mutex_lock(&T->Lock);
  if (--T->Linking == 0)
    pthread_cond_broadcast(&T->LinksDone);
  pthread_mutex_unlock(&T->Lock);
}

/* Gives up making C: its bodies keep their names and are never freed. Stubs
 * already made stay (they are permanent), never published, with C's Id. */
static void abandonTier0Code(Tier0Code *C, bool HaveStubs) {
  for (size_t I = 0; I < C->N; ++I) {
    Slot *S = C->Slots[I];
    if (!S || S->Tier0 != C)
      continue;
    free(S->Code);
    S->Code = S->Body;
    S->Tier0 = NULL; /* (its code name stays in the map, unused) */
  }
  if (C->Id && !HaveStubs) {
    orc_rt_TokenSource_dispose(C->Id->Tokens);
    free(C->Id->Path);
    free(C->Id);
  }
  C->RT = NULL;
  disposeTier0Code(C);
}

/* Makes MR's bodies (in TSM) tier-0 code that can be freed: NULL if one of
 * them cannot be (not a body with a front, or a stub cannot take its calls),
 * or if memory is exhausted; TSM is then as it was. */
static Tier0Code *newTier0Code(orc_rt_jit_Tiers *T,
                               LLVMOrcMaterializationResponsibilityRef MR,
                               LLVMOrcThreadSafeModuleRef TSM) {
  Tier0Code *C = calloc(1, sizeof(*C));
  if (!C)
    return NULL;
  LLVMOrcJITDylibRef JD =
      LLVMOrcMaterializationResponsibilityGetTargetDylib(MR);
  C->T = T;
  C->MR = MR;
  C->Syms = LLVMOrcMaterializationResponsibilityGetSymbols(MR, &C->N);
  C->Slots = calloc(C->N, sizeof(*C->Slots));
  C->CodeNames = calloc(C->N, sizeof(*C->CodeNames));
  C->Stubs = calloc(C->N, sizeof(*C->Stubs));
  bool *FloatArgs = calloc(C->N, sizeof(*FloatArgs));
  bool OK =
      C->Syms && C->N && C->Slots && C->CodeNames && C->Stubs && FloatArgs;
  pthread_mutex_lock(&T->Lock);
  for (size_t I = 0; OK && I < C->N; ++I) {
    Slot *S = slotOf(T, JD, C->Syms[I].Name);
    OK = S && !S->Tier0 && !S->U && !S->Escapes;
    C->Slots[I] = S;
  }
  pthread_mutex_unlock(&T->Lock);
  Prepare P = {.C = C, .FloatArgs = FloatArgs};
  if (OK)
    orc_rt_Error_consume(orc_rt_jit_fromLLVMError(
        LLVMOrcThreadSafeModuleWithModuleDo(TSM, prepareBodies, &P), NULL));
  OK = OK && P.OK;
  if (OK)
    keepPersonalityRefs(
        T, LLVMOrcMaterializationResponsibilityGetTargetDylib(MR), &P);
  for (size_t I = 0; I < P.NumPersonalities; ++I)
    free(P.Personalities[I]);
  free(P.Personalities);
  /* The group, whose completion hands the code to the compile thread. */
  if (OK && (C->Group = orc_rt_TaskGroup_create()) &&
      (C->Id = calloc(1, sizeof(*C->Id)))) {
    *C->Id = (orc_rt_jit_StubModule){
        .Tokens = orc_rt_TaskGroup_getTokenSource(C->Group),
        .Group = C->Group,
        .Path = strdup("tier 0"),
        .Unlisted = true};
  }
  OK = C->Id && C->Id->Tokens && C->Id->Path &&
       !orc_rt_TaskGroup_addOnComplete(C->Group, drained, C);
  /* The code names, each in the map (so that the transform finds it). */
  pthread_mutex_lock(&T->Lock);
  for (size_t I = 0; OK && I < C->N; ++I) {
    Slot *S = C->Slots[I];
    char *Code = suffixed(S->Name, CodeSuffix);
    LLVMOrcSymbolStringPoolEntryRef E =
        Code ? LLVMOrcLLJITMangleAndIntern(T->Opts.J, Code) : NULL;
    orc_rt_jit_PtrSet *Map = E ? bodiesOf(T, JD, true) : NULL;
    int Put = Map ? orc_rt_jit_PtrSet_put(Map, E, S) : -1;
    if (Put <= 0) {
      if (E)
        LLVMOrcReleaseSymbolStringPoolEntry(E);
      free(Code);
      OK = false;
      break;
    }
    S->Code = Code;
    S->Tier0 = C;
    C->CodeNames[I] = E;
  }
  pthread_mutex_unlock(&T->Lock);
  /* The stubs: each leads nowhere until the code is linked (nothing can
   * call it before MR's bodies are emitted), and once the group is closed,
   * on to the function's front. */
  bool HaveStubs = false;
  for (size_t I = 0; OK && I < C->N; ++I) {
    C->Stubs[I] = orc_rt_jit_ModuleStubs_create(C->Id, C->Slots[I]->Name, 0,
                                                true, FloatArgs[I]);
    HaveStubs |= (OK = C->Stubs[I] != 0);
    if (OK)
      orc_rt_jit_ModuleStubs_setOnward(C->Stubs[I], C->Slots[I]->Front);
  }
  free(FloatArgs);
  pthread_mutex_lock(&T->Lock);
  OK = OK && orc_rt_jit_growArray(&T->Tier0s, &T->Tier0Cap, T->NumTier0s + 1,
                                  sizeof(*T->Tier0s));
  if (OK)
    T->Tier0s[T->NumTier0s++] = C;
  pthread_mutex_unlock(&T->Lock);
  if (!OK) {
    abandonTier0Code(C, HaveStubs);
    return NULL;
  }
  P.Rename = true;
  orc_rt_Error_consume(orc_rt_jit_fromLLVMError(
      LLVMOrcThreadSafeModuleWithModuleDo(TSM, prepareBodies, &P), NULL));
  return C;
}

void orc_rt_jit_Tiers_emit(orc_rt_jit_Tiers *T,
                           LLVMOrcMaterializationResponsibilityRef MR,
                           LLVMOrcThreadSafeModuleRef TSM) {
  Tier0Code *C = newTier0Code(T, MR, TSM);
  if (!C) {
    LLVMOrcIRTransformLayerEmit(LLVMOrcLLJITGetIRTransformLayer(T->Opts.J), MR,
                                TSM);
    return;
  }
  LLVMOrcJITDylibRef JD =
      LLVMOrcMaterializationResponsibilityGetTargetDylib(MR);
  C->RT = LLVMOrcJITDylibCreateResourceTracker(JD);
  LLVMErrorRef E = LLVMOrcLLJITAddLLVMIRModuleWithRT(T->Opts.J, C->RT, TSM);
  /* NAME$body is its stub from now on; the code behind it is looked up
   * (compiled and linked) without waiting here, so that no thread ORC
   * materializes on is held. */
  LLVMOrcCSymbolMapPairs Resolved = E ? NULL : calloc(C->N, sizeof(*Resolved));
  LLVMOrcCLookupSetElement *Code = E ? NULL : calloc(C->N, sizeof(*Code));
  if (!E && (!Resolved || !Code))
    E = LLVMCreateStringError("out of memory");
  for (size_t I = 0; !E && I < C->N; ++I) {
    Resolved[I].Name = C->Syms[I].Name;
    Resolved[I].Sym.Address = C->Stubs[I];
    Resolved[I].Sym.Flags = C->Syms[I].Flags;
  }
  if (!E)
    E = LLVMOrcMaterializationResponsibilityNotifyResolved(MR, Resolved, C->N);
  free(Resolved);
  if (E) {
    /* (Nothing can call the stubs: they stay, leading nowhere.) */
    free(Code);
    LLVMConsumeError(E);
    LLVMOrcMaterializationResponsibilityFailMaterialization(MR);
    LLVMOrcDisposeMaterializationResponsibility(MR);
    C->MR = NULL;
    return;
  }
  for (size_t I = 0; I < C->N; ++I) {
    LLVMOrcRetainSymbolStringPoolEntry(C->CodeNames[I]); /* the lookup's */
    Code[I] = (LLVMOrcCLookupSetElement){
        C->CodeNames[I], LLVMOrcSymbolLookupFlagsRequiredSymbol};
  }
  LLVMOrcCJITDylibSearchOrderElement Order = {
      JD, LLVMOrcJITDylibLookupFlagsMatchAllSymbols};
  pthread_mutex_lock(&T->Lock);
  ++T->Linking; /* (codeLinked runs exactly once, maybe right away) */
  pthread_mutex_unlock(&T->Lock);
  LLVMOrcExecutionSessionLookup(T->ES, LLVMOrcLookupKindStatic, &Order, 1, Code,
                                C->N, codeLinked, C);
  free(Code);
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
  char *Diagnosed = NULL;
  /* Inline assembly the optimizer duplicated (a label defined twice) fails
   * the tier-up, not the program (LLVM's default handler would exit). */
  LLVMContextSetDiagnosticHandler(C, orc_rt_jit_keepFirstError, &Diagnosed);
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
    LLVMValueRef F = LLVMGetNamedFunction(M, S->Code);
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
    Err = orc_rt_jit_compileModule(
        M, 0, 1, false, T->Opts.PreemptibleDeclarations, TM, NULL, NULL, Objs);
  if (!Err && Diagnosed) {
    Err = orc_rt_Error_createf("tier 1: %s", Diagnosed);
    orc_rt_jit_ObjectList_dispose(Objs);
  }
  LLVMDisposeMessage(Diagnosed);
  if (TM)
    LLVMDisposeTargetMachine(TM);
  LLVMDisposeModule(M);
  LLVMContextDispose(C);
  for (size_t I = 0; Names && I < U->NumSlots; ++I)
    free(Names[I]);
  free(Names);
  return Err;
}

/* Looks the N names up in JD (compiling what they need). */
static orc_rt_ErrorRef lookup(orc_rt_jit_Tiers *T, LLVMOrcJITDylibRef JD,
                              const char *const *Names, size_t N,
                              uint64_t *Addrs) {
  LLVMOrcSymbolStringPoolEntryRef *Interned = calloc(N, sizeof(*Interned));
  if (!Interned)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < N; ++I)
    Interned[I] = LLVMOrcLLJITMangleAndIntern(T->Opts.J, Names[I]);
  orc_rt_ErrorRef Err = orc_rt_jit_fromLLVMError(
      orc_rt_jit_lookupAndWait(T->ES, JD, Interned, N, Addrs, NULL, NULL),
      NULL);
  for (size_t I = 0; I < N; ++I)
    LLVMOrcReleaseSymbolStringPoolEntry(Interned[I]);
  free(Interned);
  return Err;
}

/* Adds the N objects to JD; takes them all, also on failure. */
static orc_rt_ErrorRef addObjects(orc_rt_jit_Tiers *T, LLVMOrcJITDylibRef JD,
                                  LLVMMemoryBufferRef *Objs, size_t N) {
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; I < N; ++I) {
    if (!Err)
      Err = orc_rt_jit_fromLLVMError(
          LLVMOrcLLJITAddObjectFile(T->Opts.J, JD, Objs[I]), NULL);
    else
      LLVMDisposeMemoryBuffer(Objs[I]);
  }
  return Err;
}

/* Adds U's tier-1 objects (taken, also on failure) to its JITDylib and links
 * them; Addrs[i] gets the address of U->Slots[i]'s code. */
static orc_rt_ErrorRef linkUnit(orc_rt_jit_Tiers *T, Unit *U,
                                LLVMMemoryBufferRef *Objs, size_t NumObjs,
                                uint64_t *Addrs) {
  LLVMOrcJITDylibRef JD = U->Slots[0]->JD; /* (one module's: one JD) */
  orc_rt_ErrorRef Err = addObjects(T, JD, Objs, NumObjs);
  char **Names = Err ? NULL : calloc(U->NumSlots, sizeof(*Names));
  if (!Err && !Names)
    Err = orc_rt_Error_create("out of memory");
  for (size_t I = 0; !Err && I < U->NumSlots; ++I)
    if (!(Names[I] = tier1Name(U->Slots[I])))
      Err = orc_rt_Error_create("out of memory");
  if (!Err)
    Err = lookup(T, JD, (const char *const *)Names, U->NumSlots, Addrs);
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
    if (!Err && T->Opts.CacheDir)
      orc_rt_jit_ObjectCache_storeObjects(T->Opts.CacheDir, U->Key, Objs.Items,
                                          Objs.Size, T->Opts.Warn,
                                          T->Opts.WarnCtx);
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
  if (!Err) {
    LLVMDisposeMemoryBuffer(U->Bitcode); /* (read only by a tier-up) */
    U->Bitcode = NULL;
    retireTier0(U);
  }
  /* A tier-up that failed leaves tier 0 serving (see Tiers.h). */
  orc_rt_Error_consume(Err);
}

/* The next tier-up: of the slots queued and not tiered up yet, the one
 * whose calls and loop iterations since it was queued (tier-0 work that
 * tier 1 would have sped up) are the most per byte of its module's bitcode
 * (what the tier-up compiles). A small hot function does not wait behind a
 * large one queued first: an interpreter loop's tier-up (SQLite's
 * sqlite3VdbeExec, 125 KB of bitcode, compiles for as long as dozens of the
 * functions that get hot meanwhile together) would hold them all up. A
 * tier-up that compiles nothing (taken with another body of its module, or
 * cached) goes first. NULL: none. */
static Slot *nextTierUp(orc_rt_jit_Tiers *T) {
  /* Acquire: pairs with tierHot's release push, which wrote the nodes. */
  Slot *L = __atomic_exchange_n(&T->Queue, NULL, __ATOMIC_ACQUIRE);
  while (L) {
    Slot *Next = L->NextQueued;
    L->NextQueued = T->Pending;
    T->Pending = L;
    L = Next;
  }
  Slot **Best = NULL;
  double BestHeat = -1;
  pthread_mutex_lock(&T->Lock); /* (a unit's Taken and Linked) */
  for (Slot **At = &T->Pending; *At; At = &(*At)->NextQueued) {
    Unit *U = (*At)->U;
    if (!U || U->Taken || U->Linked) {
      Best = At;
      break;
    }
    /* Relaxed: tier-0 code bumps Count with plain stores (CallCounters.h);
     * tierHot set it to INT32_MIN when it queued the slot. The bitcode is
     * there until the unit is taken (tierUp, on this thread). */
    double Heat = ((double)__atomic_load_n(&(*At)->Count, __ATOMIC_RELAXED) -
                   INT32_MIN + 1) /
                  (double)(LLVMGetBufferSize(U->Bitcode) + 1);
    if (Heat > BestHeat)
      Best = At, BestHeat = Heat;
  }
  pthread_mutex_unlock(&T->Lock);
  Slot *S = Best ? *Best : NULL;
  if (S)
    *Best = S->NextQueued;
  return S;
}

static void *compileThread(void *Arg) {
  orc_rt_jit_Tiers *T = Arg;
  for (;;) {
    while (sem_wait(&T->Wake) && errno == EINTR)
      ;
    /* Acquire: pairs with the release store in dispose. */
    if (__atomic_load_n(&T->Stop, __ATOMIC_ACQUIRE))
      break;
    pthread_mutex_lock(&T->Gate);
    freeDrained(T);
    pthread_mutex_unlock(&T->Gate);
    Slot *S;
    while (!__atomic_load_n(&T->Stop, __ATOMIC_ACQUIRE) &&
           (S = nextTierUp(T))) {
      pthread_mutex_lock(&T->Gate);
      tierUp(T, S);
      freeDrained(T); /* (tier 0 is freed at once if no frame is in it) */
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

static bool hasSuffix(const char *Name, size_t Len, const char *Suffix) {
  size_t N = strlen(Suffix);
  return Len >= N && !memcmp(Name + Len - N, Suffix, N);
}

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
  orc_rt_ErrorRef Err = addObjects(T, U->Slots[0]->JD, Cached, NumCached);
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
      orc_rt_jit_makeForwardingBody(LLVMGetNamedFunction(M, U->Slots[I]->Code),
                                    Name);
    free(Name);
  }
}

orc_rt_ErrorRef orc_rt_jit_Tiers_transform(orc_rt_jit_Tiers *T,
                                           LLVMOrcJITDylibRef JD,
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
    if (LLVMIsDeclaration(F) ||
        !(hasSuffix(Name, Len, "$body") || hasSuffix(Name, Len, CodeSuffix)))
      continue;
    LLVMOrcSymbolStringPoolEntryRef E =
        LLVMOrcLLJITMangleAndIntern(T->Opts.J, Name);
    pthread_mutex_lock(&T->Lock);
    Slot *S = slotOf(T, JD, E);
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
    Err = orc_rt_jit_ObjectCache_loadObjects(T->Opts.CacheDir, U->Key, &Cached,
                                             &NumCached);
  }
  pthread_mutex_lock(&T->Lock);
  bool Kept = !Err && U && U->Bitcode &&
              orc_rt_jit_growArray(&T->Units, &T->UnitCap, T->NumUnits + 1,
                                   sizeof(*T->Units));
  if (Kept) {
    T->Units[T->NumUnits++] = U;
    U->Slots = Found;
    U->NumSlots = NumFound;
    U->Tier0 = Found[0]->Tier0; /* (the same for every body of the module) */
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
  /* With tier 1 cached, only the fronts' targets are left to set: queued now,
   * or, for tier-0 code that is freed after the switch, once it is linked
   * (it must not be freed while it is being linked). */
  bool QueueNow = true;
  if (U->Linked && U->Tier0) {
    pthread_mutex_lock(&T->Lock);
    QueueNow = U->Tier0->Linked;
    U->Tier0->QueueWhenLinked = !QueueNow;
    pthread_mutex_unlock(&T->Lock);
  }
  for (size_t I = 0; I < NumFound; ++I) {
    Slot *S = Found[I];
    LLVMValueRef F = LLVMGetNamedFunction(M, S->Code);
    if (U->Linked) {
      if (QueueNow)
        enqueue(S);
      continue;
    }
    orc_rt_jit_addCallCounter(F, (uintptr_t)&S->Count, T->Opts.Threshold,
                              (uintptr_t)tierHot, (uintptr_t)S, &S->HasLoop);
    /* Behind a stub, a call to itself skips the stub until the switch
     * (ir/SelfCalls.h: recursion at tier 0 costs no stub frame per level). */
    if (U->Tier0)
      orc_rt_jit_callSelfDirectly(F, LLVMGetNamedFunction(M, S->Name),
                                  (uintptr_t)&S->State, Tier1);
  }
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
  pthread_cond_init(&T->LinksDone, NULL);
  *Result = T;
  return NULL;
}

/* Slots for the N functions, each body in the map (so that its compile,
 * from now on, counts); kept in T (dispose frees them) unless NULL. */
static Slot *newSlots(orc_rt_jit_Tiers *T, LLVMOrcJITDylibRef JD,
                      const orc_rt_jit_LazyStub *Stubs, size_t N,
                      orc_rt_ErrorRef *Err) {
  Slot *Batch = calloc(N, sizeof(*Batch));
  if (!Batch || !orc_rt_jit_growArray(&T->Batches, &T->BatchCap,
                                      T->NumBatches + 1, sizeof(*T->Batches))) {
    free(Batch);
    *Err = orc_rt_Error_create("out of memory");
    return NULL;
  }
  T->Batches[T->NumBatches++] = (struct Batch){Batch, N};
  bool OK = true;
  pthread_mutex_lock(&T->Lock);
  for (size_t I = 0; I < N && OK; ++I) {
    Slot *S = &Batch[I];
    S->T = T;
    S->JD = JD;
    S->Name = strdup(Stubs[I].Name);
    S->Body = strdup(Stubs[I].Body);
    S->Code = S->Body;
    S->Escapes = Stubs[I].Escapes;
    S->HandlerType = Stubs[I].HandlerType;
    LLVMOrcSymbolStringPoolEntryRef E =
        LLVMOrcLLJITMangleAndIntern(T->Opts.J, Stubs[I].Body);
    orc_rt_jit_PtrSet *Map = bodiesOf(T, JD, true);
    int Put = S->Name && S->Body && Map ? orc_rt_jit_PtrSet_put(Map, E, S) : -1;
    if (Put <= 0) /* (a weak body seen before keeps its first slot) */
      LLVMOrcReleaseSymbolStringPoolEntry(E);
    if (!(OK = Put >= 0))
      *Err = orc_rt_Error_create("out of memory");
  }
  pthread_mutex_unlock(&T->Lock);
  return OK ? Batch : NULL;
}

char *orc_rt_jit_tier0Name(const char *Name) {
  return suffixed(Name, "$tier0");
}

/* Where each of the N functions' fronts start: their lazy stubs, in JD. */
static orc_rt_ErrorRef lookupTier0(orc_rt_jit_Tiers *T, LLVMOrcJITDylibRef JD,
                                   const orc_rt_jit_LazyStub *Stubs, size_t N,
                                   uint64_t *Addrs) {
  char **Names = calloc(N, sizeof(*Names));
  orc_rt_ErrorRef Err = Names ? NULL : orc_rt_Error_create("out of memory");
  for (size_t I = 0; !Err && I < N; ++I)
    if (!(Names[I] = orc_rt_jit_tier0Name(Stubs[I].Name)))
      Err = orc_rt_Error_create("out of memory");
  if (!Err)
    Err = lookup(T, JD, (const char *const *)Names, N, Addrs);
  for (size_t I = 0; Names && I < N; ++I)
    free(Names[I]);
  free(Names);
  return Err;
}

/*===----------------------------------------------------------------------===*/
/* A wait for a first call's compile or a fork to end (milliseconds). */
static void nap(void) {
  struct timespec Ts = {0, 50 * 1000};
  nanosleep(&Ts, NULL);
}

/* First calls on a thread made for the compile (EscapesOnFirstCall,
 * EveryFirstCall). */

typedef struct {
  orc_rt_jit_Tiers *T;
  Slot *S;
  uint64_t Addr;
  orc_rt_ErrorRef Err;
} FirstCompile;

/* Compiles and links S's body: the lookup runs the LLJIT's compile, its
 * link and the lookup's completion on this thread. */
static void *compileFirst(void *Arg) {
  FirstCompile *C = Arg;
  C->Err =
      lookup(C->T, C->S->JD, (const char *const *)&C->S->Body, 1, &C->Addr);
  return NULL;
}

/* The first-call entry's resolver (TierFirstCalls.h), on the caller's
 * thread, with its arguments saved: S's body compiled on a thread of its own
 * (every signal blocked, as the compile thread's) while this one waits in
 * pthread_join, so that nothing of LLVM runs here (Tiers.h). A thread per
 * first call, not one kept: a program that only calls back sees no thread
 * it did not start once its calls are back. If no thread can be made, the
 * body is compiled here, with call_once's state saved before and put back
 * after everything (compile, link, the lookup's completion). Several
 * threads' first calls at once each make a compile thread; ORC compiles the
 * body once and the others' lookups wait for it. */
static uint64_t firstCall(void *Ctx) {
  Slot *S = Ctx;
  orc_rt_jit_Tiers *T = S->T;
  /* Acquire: pairs with the release store below, by an earlier first call
   * (a caller that read the front before its retarget). */
  uint64_t Code = __atomic_load_n(&S->FirstCode, __ATOMIC_ACQUIRE);
  if (Code)
    return Code;
  FirstCompile C = {T, S, 0, NULL};
  pthread_t Thread;
  sigset_t All, Old;
  sigfillset(&All);
  /* Counted while compiling (see Compiling); not while the body runs,
   * which may fork. */
  for (;;) {
    atomic_fetch_add(&T->Compiling, 1);
    if (!atomic_load(&T->Forking))
      break;
    atomic_fetch_sub(&T->Compiling, 1);
    while (atomic_load(&T->Forking))
      nap();
  }
  /* The program sees an ordinary call, which nothing may end while the
   * compile reads C on this stack: no cancellation (deferred or
   * asynchronous: the join is a cancellation point, and so is much of what
   * a compile on this thread calls), and no signal, whose handler could
   * leave by siglongjmp (a timeout's way). A cancel pending meanwhile acts
   * at the program's next cancellation point, a signal is delivered when
   * the call has its code (a compile takes milliseconds). The compile
   * thread starts with every signal blocked too. */
  int CancelState;
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &CancelState);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  int Made = T->ForkChild ? EAGAIN
                          : orc_rt_jit_realPthreadCreate(&Thread, NULL,
                                                         compileFirst, &C);
  if (Made == 0) {
    orc_rt_jit_realPthreadJoin(Thread, NULL);
  } else {
    orc_rt_jit_CallOnce_save();
    compileFirst(&C);
    orc_rt_jit_CallOnce_restore();
  }
  atomic_fetch_sub(&T->Compiling, 1);
  if (!C.Err) {
    __atomic_store_n(&S->FirstCode, C.Addr, __ATOMIC_RELEASE);
    /* From the entry only: a tier-up may have switched the front already. */
    orc_rt_jit_TierFronts_retargetFrom(S->Front, S->Entry, C.Addr);
  }
  pthread_sigmask(SIG_SETMASK, &Old, NULL);
  pthread_setcancelstate(CancelState, NULL);
  if (C.Err) {
    /* The compile's own failure went to the session's error reporter,
     * which FirstCallFailed reports; the lookup's only repeats it. */
    orc_rt_Error_consume(C.Err);
    if (!T->Opts.FirstCallFailed)
      abort();
    return T->Opts.FirstCallFailed;
  }
  return C.Addr;
}

/* S's front starts at a first-call entry (EscapesOnFirstCall, and
 * EveryFirstCall for those whose address does not escape); never one of a
 * signal handler's type (Tiers.h). */
static bool onFirstCall(const orc_rt_jit_Tiers *T, const Slot *S) {
  return !S->HandlerType && (S->Escapes || T->Opts.EveryFirstCall);
}

/* Each of the N slots onFirstCall takes gets a first-call entry, which its
 * front starts at (Addrs[i]) instead of its lazy stub. */
static orc_rt_ErrorRef makeFirstCallEntries(orc_rt_jit_Tiers *T, Slot *Batch,
                                            size_t N, uint64_t *Addrs) {
  void **Ctxs = calloc(N, sizeof(*Ctxs));
  if (!Ctxs)
    return orc_rt_Error_create("out of memory");
  size_t Num = 0;
  for (size_t I = 0; I < N; ++I)
    if (onFirstCall(T, &Batch[I]))
      Ctxs[Num++] = &Batch[I];
  uint64_t Base = Num ? orc_rt_jit_TierFirstCalls_create(&T->FirstCalls,
                                                         firstCall, Ctxs, Num)
                      : 0;
  free(Ctxs);
  if (Num && !Base)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0, K = 0; I < N; ++I)
    if (onFirstCall(T, &Batch[I]))
      Addrs[I] = Batch[I].Entry = Base + 16 * K++;
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_Tiers_addFunctions(orc_rt_jit_Tiers *T,
                                              LLVMOrcJITDylibRef JD,
                                              const orc_rt_jit_LazyStub *Stubs,
                                              size_t N) {
  if (!N)
    return NULL;
  orc_rt_ErrorRef Err = NULL;
  Slot *Batch = newSlots(T, JD, Stubs, N, &Err);
  uint64_t *Addrs = calloc(N, sizeof(*Addrs));
  LLVMOrcCSymbolMapPairs Pairs = calloc(N, sizeof(*Pairs));
  if (!Err)
    Err = Addrs && Pairs ? lookupTier0(T, JD, Stubs, N, Addrs)
                         : orc_rt_Error_create("out of memory");
  if (!Err && T->Opts.EscapesOnFirstCall)
    Err = makeFirstCallEntries(T, Batch, N, Addrs);
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
        LLVMOrcJITDylibDefine(JD, LLVMOrcAbsoluteSymbols(Pairs, N)), NULL);
  free(Pairs);
  free(Addrs);
  /* Those whose address escapes and have no first-call entry wait for
   * orc_rt_jit_Tiers_compileEager. */
  for (size_t I = 0; !Err && I < N; ++I)
    if (Stubs[I].Escapes && !Batch[I].Entry) {
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
  orc_rt_ErrorRef Err = NULL;
  /* (one lookup each: they may be in several JITDylibs, and are few) */
  for (size_t I = 0; !Err && I < N; ++I) {
    Slot *S = T->Eager[I];
    uint64_t Code;
    if (!(Err = lookup(T, S->JD, (const char *const *)&S->Body, 1, &Code)))
      orc_rt_jit_TierFronts_retarget(S->Front, Code);
  }
  T->NumEager = 0;
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Tiers_startAtTier1(orc_rt_jit_Tiers *T,
                                              LLVMOrcJITDylibRef JD,
                                              const char *Name) {
  char *Body = suffixed(Name, "$body");
  if (!Body)
    return orc_rt_Error_create("out of memory");
  LLVMOrcSymbolStringPoolEntryRef E =
      LLVMOrcLLJITMangleAndIntern(T->Opts.J, Body);
  pthread_mutex_lock(&T->Lock);
  Slot *S = slotOf(T, JD, E);
  pthread_mutex_unlock(&T->Lock);
  LLVMOrcReleaseSymbolStringPoolEntry(E);
  int Expected = Tier0;
  orc_rt_ErrorRef Err = NULL;
  /* Tier 0 first: its module, saved as bitcode, is what tier 1 is built
   * from. An entry point without a loop stays there, counting as any
   * function (it is entered once: compiling it twice before it runs only
   * delays it). */
  uint64_t Addr;
  if (S &&
      __atomic_compare_exchange_n(&S->State, &Expected, Queued, false,
                                  __ATOMIC_RELAXED, __ATOMIC_RELAXED) &&
      !(Err = lookup(T, S->JD, (const char *const *)&Body, 1, &Addr))) {
    if (S->Entry) { /* (as its first call would) */
      __atomic_store_n(&S->FirstCode, Addr, __ATOMIC_RELEASE);
      orc_rt_jit_TierFronts_retargetFrom(S->Front, S->Entry, Addr);
    }
    pthread_mutex_lock(&T->Lock);
    bool Now = S->HasLoop || (S->U && S->U->Linked);
    pthread_mutex_unlock(&T->Lock);
    if (Now) {
      tierUp(T, S);
      freeDrained(T); /* (it has not run: no frame is in its tier 0) */
    } else {
      __atomic_store_n(&S->State, Tier0, __ATOMIC_RELAXED);
    }
  }
  free(Body);
  return Err;
}

void orc_rt_jit_Tiers_beforeFork(orc_rt_jit_Tiers *T) {
  atomic_store(&T->Forking, true);
  while (atomic_load(&T->Compiling))
    nap();
  pthread_mutex_lock(&T->Gate);
}

void orc_rt_jit_Tiers_afterForkInParent(orc_rt_jit_Tiers *T) {
  pthread_mutex_unlock(&T->Gate);
  atomic_store(&T->Forking, false);
}

void orc_rt_jit_Tiers_afterForkInChild(orc_rt_jit_Tiers *T) {
  /* The child has no compile thread: what gets hot there is queued and
   * stays at tier 0 (2: not started, never to start). */
  __atomic_store_n(&T->Started, 2, __ATOMIC_RELAXED);
  T->ForkChild = true; /* (its only thread writes it) */
  pthread_mutex_unlock(&T->Gate);
  atomic_store(&T->Forking, false);
}

bool orc_rt_jit_Tiers_onCompileThread(orc_rt_jit_Tiers *T) {
  /* Acquire: pairs with startThread's store of Started (the thread id was
   * written before it, by pthread_create). */
  return T && __atomic_load_n(&T->Started, __ATOMIC_ACQUIRE) == 1 &&
         pthread_equal(pthread_self(), T->Thread);
}

void orc_rt_jit_Tiers_freeDrainedNow(orc_rt_jit_Tiers *T) {
  pthread_mutex_lock(&T->Gate); /* (after a tier-up or free under way) */
  freeDrained(T);
  pthread_mutex_unlock(&T->Gate);
}

void orc_rt_jit_Tiers_stats(orc_rt_jit_Tiers *T, orc_rt_jit_TierStats *Out) {
  pthread_mutex_lock(&T->Lock);
  /* Field by field: Hot is bumped without the lock (enqueue), and may be
   * while a host reads the stats with the program running. */
  Out->Tier0Functions = T->Stats.Tier0Functions;
  Out->Hot = __atomic_load_n(&T->Stats.Hot, __ATOMIC_RELAXED);
  Out->Tier1Functions = T->Stats.Tier1Functions;
  Out->Failed = T->Stats.Failed;
  Out->Tier0Freed = T->Stats.Tier0Freed;
  Out->Optimized = T->Stats.Optimized;
  Out->Cached = T->Stats.Cached;
  Out->Tier0Seconds = (double)T->Tier0Nanos / 1e9;
  Out->Tier1Seconds = (double)T->Tier1Nanos / 1e9;
  pthread_mutex_unlock(&T->Lock);
}

void orc_rt_jit_Tiers_waitForLinks(orc_rt_jit_Tiers *T) {
  pthread_mutex_lock(&T->Lock);
  while (T->Linking)
    pthread_cond_wait(&T->LinksDone, &T->Lock);
  pthread_mutex_unlock(&T->Lock);
}

/* Stops the compile thread for good (a tier-up under way finishes first):
 * none starts after, as if it could not (Started 2). */
static void stopThread(orc_rt_jit_Tiers *T) {
  int Expected = 0;
  if (__atomic_compare_exchange_n(&T->Started, &Expected, 2, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
      Expected != 1)
    return;
  /* Release: pairs with the compile thread's acquire load of Stop. */
  __atomic_store_n(&T->Stop, true, __ATOMIC_RELEASE);
  sem_post(&T->Wake);
  orc_rt_jit_realPthreadJoin(T->Thread, NULL);
  __atomic_store_n(&T->Started, 2, __ATOMIC_RELEASE);
}

void orc_rt_jit_Tiers_retireTier0(orc_rt_jit_Tiers *T) {
  /* No tier-up may close a group or retire stubs meanwhile. */
  stopThread(T);
  freeDrained(T);
  for (size_t I = 0; I < T->NumTier0s; ++I) {
    Tier0Code *C = T->Tier0s[I];
    if (!C->Id)
      continue;
    /* No frame is in it: the close completes the group at once (drained
     * queues C for a compile thread that no longer runs: dispose frees it). */
    if (!orc_rt_TaskGroup_isClosed(C->Group))
      orc_rt_TaskGroup_close(C->Group);
    if (orc_rt_TaskGroup_isComplete(C->Group))
      retireStubs(C);
  }
}

void orc_rt_jit_Tiers_dispose(orc_rt_jit_Tiers *T) {
  if (!T)
    return;
  stopThread(T);
  for (size_t I = 0; T->ByJD.Keys && I <= T->ByJD.Mask; ++I)
    if (T->ByJD.Keys[I]) {
      orc_rt_jit_PtrSet_freeInterned(T->ByJD.Values[I]);
      free(T->ByJD.Values[I]);
    }
  orc_rt_jit_PtrSet_free(&T->ByJD);
  orc_rt_jit_PtrSet_freeInterned(&T->Personalities);
  for (size_t I = 0; I < T->NumBatches; ++I) {
    for (size_t K = 0; K < T->Batches[I].Size; ++K) {
      if (T->Batches[I].Items[K].Code != T->Batches[I].Items[K].Body)
        free(T->Batches[I].Items[K].Code);
      free(T->Batches[I].Items[K].Name);
      free(T->Batches[I].Items[K].Body);
    }
    free(T->Batches[I].Items);
  }
  free(T->Batches);
  free(T->Eager);
  for (size_t I = 0; I < T->NumUnits; ++I) {
    if (T->Units[I]->Bitcode)
      LLVMDisposeMemoryBuffer(T->Units[I]->Bitcode);
    free(T->Units[I]->Slots);
    free(T->Units[I]);
  }
  free(T->Units);
  /* Tier-0 code still in the JITDylib goes with the JIT. */
  for (size_t I = 0; I < T->NumTier0s; ++I)
    disposeTier0Code(T->Tier0s[I]);
  free(T->Tier0s);
  orc_rt_jit_TierFronts_dispose(&T->Fronts);
  orc_rt_jit_TierFirstCalls_dispose(&T->FirstCalls);
  pthread_mutex_destroy(&T->Lock);
  pthread_mutex_destroy(&T->Gate);
  pthread_cond_destroy(&T->LinksDone);
  sem_destroy(&T->Wake);
  free(T);
}
