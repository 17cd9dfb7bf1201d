/*===- orc-rt-c/Jit.h - A JIT for C hosts -----------------------*- C -*-===*\
|* Part of orc-rt-c (liborc-rt-c-jit). Loads LLVM IR modules into the host    *|
|* process, calls into them and unloads them while threads run them.         *|
\*===----------------------------------------------------------------------===*/
/*
 * A host makes a Session (orc-rt-c/Session.h), a Jit owned by it, and loads
 * modules (IR text or bitcode, told apart by content). A module is compiled,
 * linked and its constructors run before the load returns. Its functions are
 * reached through entries (orc_rt_JitModule_lookup): every call through an
 * entry holds the module's token for exactly the span it runs there, so:
 *
 *   reload    replaces the module's code with a new version (from a file
 *             or memory) while threads call it: when it returns, every new
 *             call through any of its entries goes to the new code; calls
 *             already running finish in the old code, which is freed once
 *             the last of them returns. Variables (writable, not thread-
 *             local) of the same name, type and alignment keep their
 *             storage, and so their values, whether exported or static;
 *             the others, constants, thread-locals and variables an alias
 *             names start from the new version's initializers. The old
 *             version's destructors and atexit handlers run, then the new
 *             version's constructors, on the reloading thread, before the
 *             switch. A reload that fails changes nothing.
 *   unload    returns at once: the module's destructors and the atexit
 *             handlers it registered run (on the unloading thread, as at
 *             dlclose), new calls through its entries are refused, and its
 *             code is freed once the last call already inside it returns
 *             and every thread with one of its thread_local destructors
 *             pending has ended (and run it).
 *   stale     a call through an entry of an unloaded module goes to the stale
 *             -call handler (default: one line on stderr naming the function
 *             and the module, then abort), never into freed memory.
 *   shutdown  the Session's shutdown finalizes the modules still loaded (as
 *             at exit: destructors, handlers; in glibc's exit order, the
 *             order they were loaded but a module before those it bound
 *             symbols from),
 *             refuses new calls, and frees the Jit after the drain: after
 *             every call inside a module has returned.
 *
 * Modules see the host's symbols given with orc_rt_Jit_addSymbol first, then
 * the exported symbols of the modules loaded before them (functions through
 * their entries), then the process's symbols (libc, libstdc++ if loaded, the
 * host's exported symbols). A module whose symbols another loaded module
 * bound stays loaded until that one is unloaded, as glibc's dlclose keeps a
 * library another one bound symbols from (docs/Embedding.md).
 *
 * What is and is not guaranteed for pointers: an entry is valid for the life
 * of the process, calls the module's current version and never reaches freed
 * code. A data address (orc_rt_JitModule_lookup of a variable) points into
 * the module: it is valid until the module is unloaded if a reload keeps the
 * variable, else until the version it came from is replaced. Functions whose
 * address escapes the module (stored, passed as a callback) are reached
 * through stubs too: after a reload such a pointer calls the current
 * version's function of the same name (a stale call if there is none), and
 * after unload it is a stale call, not a jump into freed memory. Other
 * pointers into the code (a jump table, a return address saved by a thread
 * the module started) are the host's to keep away from a replaced version.
 *
 * Threads: every function may be called on any thread, except that a module
 * must not be used after the call that unloads it has begun. Loading,
 * reloading and unloading are serialised per Jit; calls through entries
 * never wait for them.
 * Several Jits, on one Session or several, know nothing of each other.
 * Nothing here prints or exits, except the default stale-call handler. (A
 * module that declares a thread_local that neither another module nor the
 * process defines is refused at its load, as dlopen refuses it.)
 * x86-64 Linux only.
 */

#ifndef ORC_RT_C_JIT_H
#define ORC_RT_C_JIT_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Error.h"
#include "orc-rt-c/Session.h"
#include "orc-rt-c/TaskGroup.h"

#include <stdbool.h>
#include <stddef.h>

ORC_RT_C_EXTERN_C_BEGIN

/** A JIT owned by a Session. */
typedef struct orc_rt_OpaqueJit *orc_rt_JitRef;
/** A module loaded into a Jit. */
typedef struct orc_rt_OpaqueJitModule *orc_rt_JitModuleRef;

/** What a Jit compiles with. */
typedef struct {
  /** Code generation and IR optimization level, 0-3 (default 2). */
  unsigned OptLevel;
  /** Compile each function on its first call, on the calling thread,
   * instead of at load (default false). The module is verified at load and
   * what holds its variables is compiled then; each function is optimized
   * (at OptLevel) when it is compiled, on its own: no function is inlined
   * into another. The symbols the module uses are resolved at load, so a
   * missing one fails the load (or reload), not a call. A function whose code generation fails
   * (inline assembly that does not assemble) cannot be called: its first
   * call goes to the stale-call handler and the cause to the Session's
   * error reporter. Every other rule here holds as without it. With
   * ObjectCacheDir, each function's code (and what holds the variables) is
   * kept there as it is compiled, by the content of its module and the
   * settings, and read back instead of compiled when a later load needs it
   * again. */
  bool Lazy;
  /** Tiered compilation (default false; OptLevel must be 1-3): as Lazy, but
   * each function is first compiled quickly (no IR optimization, -O0 code
   * generation) and counts its calls and loop iterations; once the count
   * passes TierUpThreshold it is compiled again at OptLevel on a background
   * thread of the module's own, and its entry switched: calls made after the
   * switch run the new code, calls already in the old code finish there,
   * and the old code is freed once its last frame returns. A function in a
   * long loop stays in its first code until its next call. With
   * ObjectCacheDir, the optimized code is kept there (by the content of the
   * function's first module and the settings): a function whose optimized
   * code is kept is switched to it right after its first call. */
  bool Tiered;
  /** Calls plus loop iterations before a tier-up; 0 (the default): 2000. */
  unsigned TierUpThreshold;
  /** A directory where compiled modules are kept by content, so a module
   * loaded again (in this process or a later one) is not compiled again;
   * NULL (the default) for none. Created if missing; a relative path is
   * taken against the current directory of orc_rt_Jit_create's call. A
   * module that cannot be written there loads anyway; the error goes to the
   * Session's error reporter. */
  const char *ObjectCacheDir;
} orc_rt_JitOptions;

/** Fills O with the defaults. */
ORC_RT_C_API void orc_rt_JitOptions_init(orc_rt_JitOptions *O);

/** What a Tiered Jit has done so far, over the versions of its modules that
 * are still loaded and those already freed (a replaced version counts once
 * it is freed). */
typedef struct {
  size_t Tier0Functions; /**< functions compiled quickly, on a first call */
  size_t Tier1Functions; /**< switched to their optimized code */
  size_t Tier0Freed;     /**< whose first code was freed after the switch */
  size_t FailedTierUps;  /**< left in their first code (they still work) */
} orc_rt_JitTierStats;

/**
 * Creates an in-process JIT owned by S (freed at S's shutdown, after the
 * drain; the host never frees it). Opts may be NULL (the defaults). Fails if S
 * is shutting down, the options are invalid, or LLVM cannot target the host.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Jit_create(orc_rt_JitRef *Result,
                                               orc_rt_SessionRef S,
                                               const orc_rt_JitOptions *Opts);

/** Fills Out with J's tiered-compilation counts (all 0 unless Tiered). The
 * compile threads run on: a count is a moment's. */
ORC_RT_C_API void orc_rt_Jit_getTierStats(orc_rt_JitRef J,
                                          orc_rt_JitTierStats *Out);

/**
 * Defines Name (copied) for modules loaded from now on: a host function or
 * variable at Addr. It takes precedence over the process's symbols of that
 * name. Fails if Name is already defined by the host, or if Addr is NULL.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Jit_addSymbol(orc_rt_JitRef J,
                                                  const char *Name, void *Addr);

/** Called for a call through an entry of a module that has been unloaded
 * (or after the Session's shutdown began), and, with Lazy, for the first call
 * of a function that could not be compiled, with the function's and the
 * module's names. It must not return (abort, exit, longjmp out); if it does,
 * the process aborts. Module frames a longjmp leaves give their modules'
 * tokens back once the thread has reused the stack they were on (a call
 * made from where the longjmp landed does) and then unloads a module, calls
 * through an entry or shuts the Session down. */
typedef void (*orc_rt_JitStaleCallFn)(const char *Function, const char *Module,
                                      void *Ctx);

/** Sets J's stale-call handler for modules loaded from now on (NULL: the
 * default, one line on stderr and abort). */
ORC_RT_C_API void orc_rt_Jit_setStaleCallHandler(orc_rt_JitRef J,
                                                 orc_rt_JitStaleCallFn Fn,
                                                 void *Ctx);

/**
 * Loads the module in the file at Path: reads it (IR text or bitcode),
 * verifies, optimizes, compiles and links it, and runs its constructors
 * (by priority, as a shared object's). On failure nothing is loaded and the
 * error names the file and the cause (LLVM's diagnostic included:
 * "file:line:col: ..." for IR text). Path must name a regular file that is
 * not empty: as glibc's dlopen, an empty file, a directory or a device is
 * refused.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Jit_loadFile(orc_rt_JitRef J,
                                                 const char *Path,
                                                 orc_rt_JitModuleRef *Result);

/** As orc_rt_Jit_loadFile, from Size bytes at Data (copied); Name names the
 * module in errors and in the stale-call handler. */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Jit_loadMemory(orc_rt_JitRef J,
                                                   const char *Name,
                                                   const void *Data,
                                                   size_t Size,
                                                   orc_rt_JitModuleRef *Result);

/**
 * The entry of the function Name that M exports (valid for the life of the
 * process; see above), or the address of its variable Name (of a
 * thread_local: the calling thread's copy, as glibc's dlsym gives). Fails,
 * naming the symbol and the module, if M exports no such symbol.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_JitModule_lookup(orc_rt_JitModuleRef M,
                                                     const char *Name,
                                                     void **Result);

/**
 * Replaces M's code with the module in the file at Path (IR text or bitcode),
 * as described above: compiled, linked, the old version's destructors and
 * handlers run, the new one's constructors, then every entry of M (looked up
 * before or after) calls the new code. Functions the new version no longer
 * has become stale calls; new ones can be looked up. On failure (the file
 * unreadable or malformed, fails to verify or link, a symbol missing, M
 * being unloaded, the Session shutting down, a reload of M that its own
 * constructors or destructors make while M is being reloaded; an empty
 * file, as one an editor is still writing) the error names the file read
 * (Path, not the file M was loaded from) and the cause, and the current
 * version keeps serving, untouched.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_JitModule_reloadFile(orc_rt_JitModuleRef M,
                                                         const char *Path);

/** As orc_rt_JitModule_reloadFile, from Size bytes at Data (copied). */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_JitModule_reloadMemory(
    orc_rt_JitModuleRef M, const void *Data, size_t Size);

/**
 * Unloads M and returns at once: its destructors and atexit handlers run on
 * this thread first (as at dlclose), then new calls through its entries are
 * refused. OnFreed (may be NULL) runs once M's code has been freed, on
 * whichever thread frees it (the one whose call into M returned last, or a
 * Session dispatcher thread). M must not be used after this call; a module
 * another loaded module bound symbols from is kept until that one is
 * unloaded, then unloaded with it. Made by M's own constructors or
 * destructors while a reload of M runs them, the unload happens when that
 * reload returns; a second unload of M (its destructor's) does nothing.
 */
ORC_RT_C_API void orc_rt_JitModule_unload(orc_rt_JitModuleRef M,
                                          orc_rt_CallbackFn OnFreed, void *Ctx);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_JIT_H */
