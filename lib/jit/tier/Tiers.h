/*===- lib/jit/tier/Tiers.h - Tiered compilation of a lazy module ----------===*/
/* Tier 0 is the lazy split (compile/LazySplit.h) compiled with the fastest
 * code generation the JIT is given (-O0, FastISel), every function with a
 * body split out with a stub: each function NAME is reached through a front
 * (TierFronts.h) that jumps to a lazy stub of NAME$body, so the body is
 * compiled on its first call. On its way to
 * the compiler (the IR transform layer, orc_rt_jit_Tiers_transform), a body's
 * module is saved as bitcode and the body learns to count its calls and loop
 * iterations (ir/CallCounters.h).
 *
 * Tier 1: a body whose count passes the threshold is queued, and a compile
 * thread of the Tiers' own (started on the first tier-up, so a program that
 * never gets hot sees no thread it did not start) takes the queued bodies up
 * hottest first (the most calls and loop iterations since queued per byte of
 * their module: a small hot function does not wait behind a large one), and
 * for each rebuilds its module from
 * the bitcode in a context of its own, renames NAME$body to NAME$tier1, makes
 * every other definition a declaration of what tier 0 defines, runs LLVM's
 * default<O2> pipeline if the body was not optimized (it still has stack
 * slots for its values), compiles it with the tier-1 target machine, adds the
 * object to the JITDylib and links it on that thread. Then each front is
 * pointed at NAME$tier1: calls made after that store run tier 1, calls
 * already in tier 0 finish there. A tier-up that fails leaves the function
 * at tier 0 and is counted (orc_rt_jit_TierStats).
 *
 * Freeing tier 0 (orc_rt_jit_Tiers_emit): a body's module is compiled under a
 * resource tracker of its own as NAME$tier0code, and NAME$body is a
 * token-taking stub (modules/ModuleStubs.h) of a task group of the module's
 * own that calls it; every frame in tier-0 code holds a token. Once every
 * front of the module leads to tier 1, the group is closed: a call that read
 * a front's old target is denied at the stub and goes on through the front,
 * and when the last frame in tier 0 returns the group completes and the
 * compile thread removes the tracker, freeing the code. Stubs (16 bytes and a
 * record) and the group's token slot stay for the run. A body a stub cannot
 * enter (arguments on the stack, a result in memory, variadic, another
 * calling convention: the stub's frame would not unwind or would clobber
 * registers), or whose address escapes (a signal handler may be one: a
 * stub is not async-signal-safe), keeps its tier-0 code for the run, reached
 * directly.
 *
 * With an object cache, tier 1's objects are stored under a key made of the
 * tier-0 module's bitcode and the code generation settings; in a later run a
 * body whose tier-1 object is there does not count its calls: its tier-up is
 * queued when it is first compiled, and links the cached object instead of
 * compiling (a second run starts hot after each function's first call).
 *
 * A function stuck in a long loop at tier 0 stays there until its next call
 * (no on-stack replacement); the program's entry points, entered once, can
 * be compiled at tier 1 before they run (orc_rt_jit_Tiers_startAtTier1). */

#ifndef ORC_RT_C_LIB_JIT_TIER_TIERS_H
#define ORC_RT_C_LIB_JIT_TIER_TIERS_H

#include "jit/compile/CodeGen.h"
#include "jit/compile/LazySplit.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct orc_rt_jit_Tiers orc_rt_jit_Tiers;

/* Calls plus loop iterations before a tier-up, unless told otherwise. */
#define ORC_RT_JIT_DEFAULT_TIER_UP_THRESHOLD 2000

typedef struct {
  LLVMOrcLLJITRef J; /* lent; outlives the Tiers */
  int32_t Threshold; /* calls + loop iterations before a tier-up */
  /* Tier 1's target machines (one per compile, on the compile thread). */
  orc_rt_jit_TargetMachineFactory NewTM;
  void *TMCtx;
  /* The code is in the small code model: every declaration of tier 1's
   * module is made preemptible (compile/CodeGen.h's Preemptible). */
  bool PreemptibleDeclarations;
  /* The object cache (cache/ObjectCache.h) for tier-1 code, or NULL; with
   * it, Settings names everything that decides tier 1's code generation. */
  const char *CacheDir;
  const char *Settings;
  /* May be NULL: told (on the compile thread) why tier-1 objects could not
   * be written to CacheDir; consumes the error. */
  void (*Warn)(orc_rt_ErrorRef Err, void *Ctx);
  void *WarnCtx;
  /* Functions whose address escapes: compiled on their first call, on a
   * thread of their own (see orc_rt_jit_Tiers_addFunctions), if true; else
   * (and those of a signal handler's type) by
   * orc_rt_jit_Tiers_compileEager, before the program runs. */
  bool EscapesOnFirstCall;
  /* With EscapesOnFirstCall: every other function (but one of a signal
   * handler's type) is compiled on its first call that way too, not by its
   * lazy stub on the calling thread. Unoptimized code can run LLVM's compile
   * between a std::call_once's store of its callable and the callable's
   * read: the callable's helpers are separate functions there, first called
   * inside call_once, and the std::promise with which LLVM's lazy
   * call-through completes a first call wipes libstdc++'s thread-locals after
   * CallOnceGuard put them back (a call to address 0). */
  bool EveryFirstCall;
  /* With EscapesOnFirstCall: where a first call goes if its function cannot
   * be compiled (entered with the caller's arguments, as the lazy
   * call-through's error handler is: it reports the session's errors and
   * ends the program); 0: abort(). */
  uint64_t FirstCallFailed;
  /* If set: told the name of each function whose tier-0 code failed to link
   * (the link's cause goes to the session's error reporter only), before
   * the call that needed it fails. */
  void (*Tier0Failed)(const char *Function, void *Ctx);
  void *Tier0FailedCtx;
} orc_rt_jit_TierOptions;

typedef struct {
  size_t Tier0Functions; /* bodies compiled at tier 0 */
  size_t Hot;            /* passed the threshold (queued for tier 1) */
  size_t Tier1Functions; /* switched to tier 1 */
  size_t Failed;         /* tier-ups that failed (left at tier 0) */
  size_t Tier0Freed;     /* functions whose tier-0 code was freed */
  size_t Optimized;      /* tier-1 functions run through default<O2> first */
  size_t Cached;         /* functions whose tier 1 came from the object cache
                            (counted when first compiled at tier 0) */
  double Tier0Seconds;   /* tier-0 IR transforms through code generation */
  double Tier1Seconds;   /* on the compile thread */
} orc_rt_jit_TierStats;

orc_rt_ErrorRef orc_rt_jit_Tiers_create(orc_rt_jit_Tiers **Result,
                                        const orc_rt_jit_TierOptions *Opts);

/* The name of the lazy stub (compile/LazySplit.h) a front starts at:
 * NAME$tier0, for a function NAME. NULL if out of memory; the caller frees
 * it. */
char *orc_rt_jit_tier0Name(const char *Name);

/* Defines, for each of the N functions of a lazy split, its name in JD (the
 * JITDylib of their module, where their tier-1 code goes too) as a front to
 * its (already defined) lazy stub
 * (orc_rt_jit_tier0Name), weak if the function is; its body counts from its
 * first compile on.
 *
 * (With EveryFirstCall, what follows holds for every function but those of
 * a signal handler's type.) A function whose address escapes may be first
 * called from inside a library, whose thread-local state a compile on that thread must not touch:
 * libstdc++'s std::call_once hands its callable over in two thread-locals,
 * and LLVM's own call_once (in the compile, and in the std::promise a lookup
 * completes) wipes them between the compile and the call. A signal handler
 * or a coroutine on a small stack is another such caller. So its front does
 * not lead to a lazy stub (which compiles on the caller's thread):
 *   - with EscapesOnFirstCall, to a first-call entry (TierFirstCalls.h)
 *     whose resolver compiles and links the body on a thread made for that
 *     compile while the caller waits, points the front at the body and
 *     enters it with the caller's arguments; the caller's thread runs no
 *     LLVM code, and its stack holds only the wait;
 *   - else, and for a function of a signal handler's type (a signal may
 *     come while its thread compiles, holding the JIT's locks: a compile
 *     then, on any thread, would wait for ever), to its lazy stub, until
 *     orc_rt_jit_Tiers_compileEager (before the program runs) compiles the
 *     body and points the front at it. */
orc_rt_ErrorRef orc_rt_jit_Tiers_addFunctions(orc_rt_jit_Tiers *T,
                                              LLVMOrcJITDylibRef JD,
                                              const orc_rt_jit_LazyStub *Stubs,
                                              size_t N);

/* Compiles the bodies added so far whose address escapes and that have no
 * first-call entry (above), before the program runs (once everything they
 * may refer to is in the JITDylib's link order). */
orc_rt_ErrorRef orc_rt_jit_Tiers_compileEager(orc_rt_jit_Tiers *T);

/* Compiles the function Name of JD at tier 1 now, on this thread (tier 0 first, as
 * tier 1 is built from its module), and switches its front: for the
 * program's entry points, entered once, where a loop would otherwise run at
 * tier 0 for the whole run. A function without a loop is only compiled at
 * tier 0 (tier 1 would only delay its one call). Nothing if Name has no
 * front or left tier 0 already; a failed tier-up leaves tier 0 (counted),
 * the error returned is tier 0's. */
orc_rt_ErrorRef orc_rt_jit_Tiers_startAtTier1(orc_rt_jit_Tiers *T,
                                              LLVMOrcJITDylibRef JD,
                                              const char *Name);

/* The IR transform for tier 0 (any thread): saves M, on its way to JD, and
 * adds the counters to the bodies of functions added above. */
orc_rt_ErrorRef orc_rt_jit_Tiers_transform(orc_rt_jit_Tiers *T,
                                           LLVMOrcJITDylibRef JD,
                                           LLVMModuleRef M);

/* Emits the module of lazy bodies MR is responsible for (TSM), for
 * compile/LazyMaterialize.h: as tier-0 code that is freed after its tier-up
 * (above) if a stub can enter every body, else through the IR transform
 * layer. */
void orc_rt_jit_Tiers_emit(orc_rt_jit_Tiers *T,
                           LLVMOrcMaterializationResponsibilityRef MR,
                           LLVMOrcThreadSafeModuleRef TSM);

/* Tier-0 code generation time: the object of the last transform on this
 * thread is ready (the object transform layer). */
void orc_rt_jit_Tiers_objectReady(orc_rt_jit_Tiers *T);

void orc_rt_jit_Tiers_stats(orc_rt_jit_Tiers *T, orc_rt_jit_TierStats *Out);

/* Frees, on this thread, the tier-0 code whose last frame is back and that
 * the compile thread has not freed yet (it frees as it goes): at the end of a
 * run, so that the stats count everything freed by then. */
void orc_rt_jit_Tiers_freeDrainedNow(orc_rt_jit_Tiers *T);

/* fork(): the compile thread holds LLVM's locks while it builds tier 1, and
 * a child forked then would find them taken forever (its first lazy compile
 * would hang). beforeFork waits for the tier-up under way to end and keeps
 * the next from starting; afterForkInParent lets them go on; in the child,
 * which has no compile thread, functions that get hot stay at tier 0. For
 * pthread_atfork's three handlers. */
void orc_rt_jit_Tiers_beforeFork(orc_rt_jit_Tiers *T);
void orc_rt_jit_Tiers_afterForkInParent(orc_rt_jit_Tiers *T);
void orc_rt_jit_Tiers_afterForkInChild(orc_rt_jit_Tiers *T);

/* True on T's compile thread: the errors the JIT reports there are a failed
 * tier-up's (counted in the stats), never the program's. NULL: false. */
bool orc_rt_jit_Tiers_onCompileThread(orc_rt_jit_Tiers *T);

/* Waits until no callback of a tier-0 link is still running: the last of
 * them notifies the bodies emitted (which lets their callers return) before
 * it lets go of T. A host calls it before disposing of a version's Tiers once
 * the version's group completed; mini-lli's Tiers live until the process
 * ends. */
void orc_rt_jit_Tiers_waitForLinks(orc_rt_jit_Tiers *T);

/* Stops the compile thread for good (a tier-up under way finishes first),
 * then retires the stubs of every tier-0 code still in the JITDylib (closing
 * its group), as a tier-up's freed code's are: a host calls it after
 * waitForLinks and before dispose, once the version's group completed (no
 * frame is in any of T's code). mini-lli's Tiers keep theirs. */
void orc_rt_jit_Tiers_retireTier0(orc_rt_jit_Tiers *T);

/* Stops the compile thread (a tier-up under way finishes first) and frees
 * everything, the fronts too: after the last call through them, before the
 * JIT. NULL is ignored. */
void orc_rt_jit_Tiers_dispose(orc_rt_jit_Tiers *T);

#endif
