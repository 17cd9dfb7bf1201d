/*===- lib/jit/modules/ModuleStubs.h - Token-taking entry stubs for loaded modules ===*/
/* Every function a dlopen'ed module exports is reached from outside the
 * module through a stub: a 16-byte slot of driver-owned executable memory
 * that never moves and is never freed. A call through a stub
 *
 *   1. takes a token of the module's task group (a nested group, see
 *      orc-rt-c/NestedGroup.h) -- if that is denied the call never reaches
 *      the module: the program ends with one line naming the function and the
 *      module (it was unloaded), or, during shutdown, the call goes on under
 *      the caller's Session token;
 *   2. records the call on a per-thread shadow stack (the live-frame report,
 *      frames left by longjmp) and calls the function (a function whose
 *      arguments and result travel in registers) or jumps to it with the
 *      caller's return address swapped for the stub's return path (any other
 *      signature: stack arguments, variadic calls, large structs), the
 *      caller's registers and stack untouched;
 *   3. when the function returns (to the stub's code, not the caller), gives
 *      the token back and returns to the caller.
 *
 * Steps 1-3 are inline machine code on the calling thread's own token slot
 * and shadow stack (the runtime's token fast path, orc-rt-c/EntryFastPath.h:
 * no locked instruction, no call out); the thread's first call, fallback token
 * mode, a denied token and frames left by longjmp take the C path.
 *
 * Stubs outlive their module so that a stale pointer ends the program with a
 * clear message instead of jumping into freed memory.
 *
 * A module that can be replaced by a newer version of itself (a host's hot
 * reload) is reached through fronts: a front is a permanent entry with no
 * token of its own that jumps to the stub of the function's current version
 * (one 8-byte store retargets it). A version's stubs are as above, with its
 * own group; a version superseded by a reload is marked so before its group
 * is closed, and a call denied at one of its stubs (the caller read the
 * front's old target, or kept a function pointer the old version handed out)
 * goes on through the front to the current version instead. x86-64 only (the JIT is
 * the host's). Exceptions must not propagate out of a module function through
 * a general stub (its return path has no unwind info): they end the program,
 * as std::terminate; through a register-only stub they unwind. A frame left
 * with longjmp or unwinding gives its token back at the next stub entry or
 * return on that thread, or when the thread ends; only on the thread's own
 * stack is a frame below the current call taken for gone: one on another
 * stack (swapcontext, sigaltstack) may be suspended, and keeps its token
 * until it returns or the thread ends. */

#ifndef ORC_RT_C_LIB_JIT_MODULES_MODULESTUBS_H
#define ORC_RT_C_LIB_JIT_MODULES_MODULESTUBS_H

#include "orc-rt-c/TaskGroup.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What a stub knows of its module; never freed (stubs are permanent),
 * unless retired (below). */
typedef struct orc_rt_jit_StubModule {
  /* Keeps Group alive, and so its token slot index (the stubs take tokens
   * by index): never reused by another group, its Closed mark stays set. */
  orc_rt_TokenSourceRef Tokens;
  orc_rt_TaskGroupRef Group; /* the module's (nested) task group */
  char *Path;                /* as given to dlopen */
  /* Set before the group is closed by Session shutdown (not by dlclose):
   * a denied entry then runs under the caller's Session token instead. */
  bool ClosedByShutdown;
  /* Set before the group is closed by a reload that replaced this version
   * (or a tier-up that replaced this tier-0 code): a denied entry goes on to
   * its front's current target (see above), or to its Onward. */
  bool Superseded;
  /* Not a loaded module (a function's tier-0 code, tier/Tiers.h): left out
   * of the live-frame report. */
  bool Unlisted;
  /* A denied entry that cannot go on (a stale call): told the function's
   * and the module's names; must not return (the process aborts if it
   * does). NULL: mini-lli's line ("mini-lli: error: call to ...") and
   * _exit(1). */
  void (*OnStale)(const char *Function, const char *Module, void *Ctx);
  void *StaleCtx;
} orc_rt_jit_StubModule;

/* Creates a stub for the function Name (copied) at Target in module M.
 * RegsOnly: the function takes no argument on the stack and returns in
 * registers (see DlopenIR.h); its stub then calls it instead of swapping the
 * return address, which keeps the CPU's return prediction (and leaves unwind
 * info in place). FloatArgs: it may take float/double arguments (else the
 * stub does not save the vector registers). Returns its address, or 0 if memory is exhausted. */
uint64_t orc_rt_jit_ModuleStubs_create(orc_rt_jit_StubModule *M,
                                       const char *Name, uint64_t Target,
                                       bool RegsOnly, bool FloatArgs);

/* Sets the function a stub created with Target 0 calls (before anything can
 * call the stub). */
void orc_rt_jit_ModuleStubs_setTarget(uint64_t Stub, uint64_t Target);

/* Creates a front for the function Name (copied) of the module whose
 * current version is M, jumping to Target (a stub of M's). Returns its
 * address, or 0 if memory is exhausted. */
uint64_t orc_rt_jit_ModuleStubs_createFront(orc_rt_jit_StubModule *M,
                                            const char *Name, uint64_t Target);

/* Points a front at another stub (a newer version's): calls that read the
 * front after this store go there. Any thread; the caller serialises
 * retargets of one front. */
void orc_rt_jit_ModuleStubs_retarget(uint64_t Front, uint64_t Target);

/* The stub a front jumps to now. */
uint64_t orc_rt_jit_ModuleStubs_frontTarget(uint64_t Front);

/* Names the front through which a call denied at Stub goes on once Stub's
 * module is Superseded (before that is set). */
void orc_rt_jit_ModuleStubs_setFront(uint64_t Stub, uint64_t Front);

/* Names where a call denied at Stub goes on once Stub's module is
 * Superseded, for a stub reached through an entry that is not a front of
 * these (a tier's front, tier/TierFronts.h, which Addr is): the call enters
 * Addr as it entered the stub. Before the Superseded mark is stored. */
void orc_rt_jit_ModuleStubs_setOnward(uint64_t Stub, uint64_t Addr);

/* Retires M, a module superseded by a newer version whose group has
 * completed (no frame is in its code): M's stubs (Stubs, N of them: every
 * stub made with M; other addresses are skipped) act from now on as Into's,
 * a permanent module marked Superseded -- they take no token, and a call
 * through one goes on through its front (or is a stale call reported as
 * Into's) -- and M, its token source and with it its group and the group's
 * token slot index are freed once no thread can still be using what the
 * stubs pointed at: a thread's hazard (the stub record every entry stores in
 * the thread's state before reading the record) names none of M's stubs
 * after a barrier in every thread (membarrier; where there is none every
 * entry takes the C path, whose hazard store and group load are seq_cst, as
 * are retire's group store and reclaim's hazard loads).
 * Here, or by a later reclaim if a thread's hazard still names one (a thread
 * preempted between reading a front and taking its token, or one that has
 * made no call through a stub since). The records and stubs stay, as every
 * stub does. A signal handler that calls through a stub between another
 * entry's hazard store and its token replaces that entry's hazard (what of
 * the stubs is not async-signal-safe: ModuleStubs.c). */
void orc_rt_jit_ModuleStubs_retire(orc_rt_jit_StubModule *M,
                                   const uint64_t *Stubs, size_t N,
                                   orc_rt_jit_StubModule *Into);

/* Frees the retired modules whose stubs no thread's hazard names any more. */
void orc_rt_jit_ModuleStubs_reclaim(void);

/* How many retired modules wait for their grace period (for tests). */
size_t orc_rt_jit_ModuleStubs_numRetiring(void);

/* The code a call through Addr enters, if Addr is a stub (through a front,
 * its stub's): its target, without a token (the caller keeps the code);
 * else Addr. */
uint64_t orc_rt_jit_ModuleStubs_codeOf(uint64_t Addr);

/* If Addr is a stub's address, its function name and module; else false. */
bool orc_rt_jit_ModuleStubs_lookup(uint64_t Addr, const char **Name,
                                   const orc_rt_jit_StubModule **M);

/* Gives back the tokens of this thread's module frames that are gone (left
 * with longjmp or an exception): every frame whose caller resumes at or below
 * Sp, and every frame above it whose stub's return address has been
 * overwritten (its stack reused: a frame left by a longjmp to a caller that
 * then called deeper than it). Pass the stack pointer the calling code
 * resumes with (a call made from there now would reuse those frames'
 * stack), or anything deeper. A cold path: the entries' own paths drop only
 * what lies at or below the stack pointer. */
void orc_rt_jit_ModuleStubs_dropDeadFrames(uintptr_t Sp);

/* Prints one line per frame live in a module on any thread, innermost last
 * per thread; returns how many. Best effort: threads run on meanwhile. */
size_t orc_rt_jit_ModuleStubs_reportLiveFrames(FILE *Out);

#endif
