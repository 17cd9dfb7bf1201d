/*===- lib/jit/program/Jit.h - The program's LLJIT ------------------------===*/
/* An LLJIT (LLVM-C) with one JITDylib for the program whose link order mini-lli
 * controls: the driver's overrides first (see ProgramRuntime.h), then -dlopen
 * libraries, -extra-archive members and, unless -no-process-syms, the process's
 * symbols except the host's own `main` (with -jd, more JITDylibs linked with it,
 * see JITDylibs.h). In lazy mode every function is reached
 * through a lazy-reexport stub and compiled on its first call.
 *
 * -jit-kind=mcjit runs on the same LLJIT the way lli's MCJIT runs: each
 * module compiled whole into one object by a target machine that takes
 * every option (MCJITFlags.h for the codegen flags LLVM-C's cannot take),
 * linked by RuntimeDyld with a SectionMemoryManager (MCJIT's linker and
 * memory), and everything linked before the first lookup returns
 * (EagerLink.h); -no-process-syms, -jd and -orc-lazy-debug are ignored, as
 * lli's MCJIT ignores them. With -force-interpreter the same calls drive
 * LLVM's interpreter (InterpreterEngine.h) instead. */

#ifndef ORC_RT_C_LIB_JIT_PROGRAM_JIT_H
#define ORC_RT_C_LIB_JIT_PROGRAM_JIT_H

#include "jit/lli/Options.h"
#include "jit/program/ProgramRuntime.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>
#include <llvm-c/Orc.h>
#include <llvm-c/TargetMachine.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct orc_rt_jit_Jit orc_rt_jit_Jit;

orc_rt_ErrorRef orc_rt_jit_Jit_create(orc_rt_jit_Jit **Result,
                                      const orc_rt_jit_Options *Opts);

/* A target machine like the JIT's, for running passes. Caller disposes. */
LLVMTargetMachineRef orc_rt_jit_Jit_createTargetMachine(orc_rt_jit_Jit *J);

/* Told the object files a module compiled to, before they are added. */
typedef void (*orc_rt_jit_ObjectsCallback)(const LLVMMemoryBufferRef *Objects,
                                           size_t NumObjects, void *Ctx);

/* Adds a module (takes ownership of M and its context Ctx). Without -lazy the
 * module is compiled now, on -compile-threads threads (see CodeGen.h), and
 * OnObjects (if not NULL) sees the objects; lazy modules are compiled as their
 * functions are first called; under -jit-kind=mcjit every module is compiled
 * on the first lookup (CallbackCtx must live until then). Holder, if not
 * NULL, is M read lazily again (orc_rt_jit_parseModuleLazily), taken too. */
orc_rt_ErrorRef orc_rt_jit_Jit_addModule(orc_rt_jit_Jit *J, LLVMContextRef Ctx,
                                         LLVMModuleRef M, LLVMModuleRef Holder,
                                         orc_rt_jit_ObjectsCallback OnObjects,
                                         void *CallbackCtx);
/* Told, for a module added for lazy compilation (orc-lazy), the functions
 * that got a stub of their own (LazySplit.h; the others are compiled when the
 * code using them is linked), and whether each function body is compiled in
 * a module of its own (else the module's code is one object). Set with
 * orc_rt_jit_Jit_setStubsCallback; not called if out of memory. */
typedef void (*orc_rt_jit_StubsCallback)(const char *const *Names, size_t N,
                                         bool BodiesApart, void *Ctx);
void orc_rt_jit_Jit_setStubsCallback(orc_rt_jit_Jit *J,
                                     orc_rt_jit_StubsCallback OnStubs,
                                     void *Ctx);
/* Adds compiled objects (takes ownership of the buffers, not the array). */
orc_rt_ErrorRef orc_rt_jit_Jit_addObjects(orc_rt_jit_Jit *J,
                                          const LLVMMemoryBufferRef *Objects,
                                          size_t NumObjects);
/* Every code-generation setting that is not in the IR: triple, CPU,
 * features, level, as one string (part of the object cache key). */
const char *orc_rt_jit_Jit_codegenSettings(orc_rt_jit_Jit *J);
orc_rt_ErrorRef orc_rt_jit_Jit_addObjectFile(orc_rt_jit_Jit *J,
                                             const char *Path);
orc_rt_ErrorRef orc_rt_jit_Jit_addArchive(orc_rt_jit_Jit *J, const char *Path);
orc_rt_ErrorRef orc_rt_jit_Jit_addDynamicLibrary(orc_rt_jit_Jit *J,
                                                 const char *Path);
/* Adds the process symbols generator (unless -no-process-syms): call after
 * the -dlopen libraries and archives, which come first in the search. */
orc_rt_ErrorRef orc_rt_jit_Jit_addProcessSymbols(orc_rt_jit_Jit *J);

/* Looks Name up in JD (the program's if NULL; compiling what it needs, unless
 * lazy). If it fails, what the JIT reported meanwhile (e.g. "Symbols not
 * found: [ foo ]", the cause of "Failed to materialize symbols: ...") is left
 * for orc_rt_jit_Jit_takeSessionErrors. */
orc_rt_ErrorRef orc_rt_jit_Jit_lookup(orc_rt_jit_Jit *J, LLVMOrcJITDylibRef JD,
                                      const char *Name, uint64_t *Addr);

/* The program starts: lookups from here may wait for other threads. */
void orc_rt_jit_Jit_markRunning(orc_rt_jit_Jit *J);

/* The errors the JIT's ExecutionSession reported that no one has taken yet,
 * oldest first, each after Banner (none if NULL), joined; NULL if none. The
 * driver gives lli's banner when it prints them as the program's error;
 * dlerror() takes them bare. */
#define ORC_RT_JIT_SESSION_ERROR_BANNER "JIT session error: "
orc_rt_ErrorRef orc_rt_jit_Jit_takeSessionErrors(orc_rt_jit_Jit *J,
                                                 const char *Banner);

/* Calls what lookup gave (a function address, or for the interpreter a
 * handle it runs) as void(void), or as main(argc, argv, envp). */
void orc_rt_jit_Jit_callVoid(orc_rt_jit_Jit *J, uint64_t Addr);
int orc_rt_jit_Jit_callMain(orc_rt_jit_Jit *J, uint64_t Addr, int Argc,
                            char **Argv, char **Envp);

/* With -force-interpreter: the destructors Dtors (by priority, Dtors[N-1]
 * first; the first NumPrioritized have a priority below the default) go to
 * the interpreter's atexit, to run after the program's handlers
 * (orc_rt_jit_Interpreter_deferDtors); *Handle is the function to call, before
 * the constructors, that registers them. False for the JITs (the driver runs
 * the destructors). */
bool orc_rt_jit_Jit_deferDtors(orc_rt_jit_Jit *J, const uint64_t *Dtors,
                               size_t N, size_t NumPrioritized,
                               uint64_t *Handle);

/* After the program's handlers: with -force-interpreter, ends the process
 * through the interpreter's exit(Status) (its atexit handlers, then the
 * destructors, newest first). Does nothing for the JITs. */
void orc_rt_jit_Jit_endProgram(orc_rt_jit_Jit *J, int Status);

/* For dlopen'ed modules (IRDlopen.c), each in a JITDylib of its own. */
#include "jit/compile/CodeGen.h"
#include <llvm-c/LLJIT.h>
LLVMOrcLLJITRef orc_rt_jit_Jit_llJIT(orc_rt_jit_Jit *J);
LLVMOrcJITDylibRef orc_rt_jit_Jit_programDylib(orc_rt_jit_Jit *J);
/* Looks up N names in JD (the program's if NULL), all at once; as
 * orc_rt_jit_Jit_lookup, session errors are left for the caller. */
orc_rt_ErrorRef orc_rt_jit_Jit_lookupIn(orc_rt_jit_Jit *J,
                                        LLVMOrcJITDylibRef JD,
                                        const char *const *Names, size_t N,
                                        uint64_t *Addrs);
/* Compiles M (still the caller's) to objects, whatever the -jit-kind, with the
 * JIT's settings. Not thread-safe: one caller at a time, not during start-up.
 */
orc_rt_ErrorRef orc_rt_jit_Jit_compileObjects(orc_rt_jit_Jit *J,
                                              LLVMModuleRef M,
                                              orc_rt_jit_ObjectList *Out);
/* Adds objects to JD (the program's if NULL; takes ownership of the buffers, not the array). */
orc_rt_ErrorRef orc_rt_jit_Jit_addObjectsTo(orc_rt_jit_Jit *J,
                                            LLVMOrcJITDylibRef JD,
                                            const LLVMMemoryBufferRef *Objects,
                                            size_t NumObjects);

/* lli's -jd (see JITDylibs.h): the JITDylib called Name ("main" or NULL: the
 * program's), created bare on first use. */
orc_rt_ErrorRef orc_rt_jit_Jit_dylib(orc_rt_jit_Jit *J, const char *Name,
                                     LLVMOrcJITDylibRef *Out);
/* Modules, objects and archives added from now on go to JD (NULL: the
 * program's). */
void orc_rt_jit_Jit_placeIn(orc_rt_jit_Jit *J, LLVMOrcJITDylibRef JD);
/* Defines the function Name in JD as a lazy reexport of From's: a stub, whose
 * first call looks Name up in From. */
orc_rt_ErrorRef orc_rt_jit_Jit_defineReexport(orc_rt_jit_Jit *J,
                                              LLVMOrcJITDylibRef JD,
                                              LLVMOrcJITDylibRef From,
                                              const char *Name);

/* -jit-kind=orc-tiered: compiles the function Name (the program's entry, a
 * -thread-entry) at tier 1 before it runs: it is entered once, so a loop in
 * it would otherwise run at tier 0 for the whole run (Tiers.h). Nothing in
 * the other modes. */
orc_rt_ErrorRef orc_rt_jit_Jit_startAtTier1(orc_rt_jit_Jit *J,
                                            const char *Name);

/* -tiered-stats: prints to stderr how many functions reached each tier and
 * the compile time spent in each (at the end of the program's lifecycle). */
void orc_rt_jit_Jit_printTierStats(orc_rt_jit_Jit *J);

/* Frees the JIT, its code and data memory. Everything J handed out dangles.
 * The error includes the session errors no one took, with lli's banner. */
orc_rt_ErrorRef orc_rt_jit_Jit_dispose(orc_rt_jit_Jit *J);

#endif
