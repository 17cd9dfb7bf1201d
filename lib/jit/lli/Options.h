/*===- lib/jit/lli/Options.h - mini-lli's command line --------------------===*/
/* The options mini-lli understands, parsed the way LLVM's cl:: parser does for
 * lli: `-opt=value`, `-opt value`, one or two dashes; options end at the input
 * file; everything after it belongs to the program. */

#ifndef ORC_RT_C_LIB_JIT_LLI_OPTIONS_H
#define ORC_RT_C_LIB_JIT_LLI_OPTIONS_H

#include "jit/lli/CodeGenFlags.h"

#include "orc-rt-c/Error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
  const char **Items;
  size_t Size, Capacity;
} orc_rt_jit_StringList;

/* Which engine runs the program (-jit-kind, -force-interpreter). */
typedef enum {
  orc_rt_jit_Engine_Orc,     /* LLJIT, modules compiled when added */
  orc_rt_jit_Engine_OrcLazy, /* LLJIT, functions compiled on first call */
  orc_rt_jit_Engine_MCJIT,   /* as LLVM's MCJIT: see lib/jit/program/Jit.h */
  orc_rt_jit_Engine_Interpreter, /* LLVM's interpreter (InterpreterEngine.c) */
  /* orc-lazy at -O0, hot functions recompiled at the -O level in the
   * background (lib/jit/tier/Tiers.h); mini-lli's own */
  orc_rt_jit_Engine_OrcTiered
} orc_rt_jit_Engine;

/* -orc-lazy-debug: what lli prints about each module it compiles. */
typedef enum {
  orc_rt_jit_Dump_None,
  orc_rt_jit_Dump_FuncsToStdout,
  orc_rt_jit_Dump_ModsToStdout,
  orc_rt_jit_Dump_ModsToDisk,
  orc_rt_jit_Dump_DebugDescriptor, /* see DebugDescriptor.h */
  orc_rt_jit_Dump_DebugObjects
} orc_rt_jit_DumpKind;

/* -jit-linker. */
typedef enum {
  orc_rt_jit_Linker_Default,
  orc_rt_jit_Linker_JITLink,
  orc_rt_jit_Linker_RTDyld
} orc_rt_jit_LinkerKind;

typedef struct {
  const char *Input;         /* "-" means stdin (also the default) */
  const char *EntryFunction; /* "main" unless -entry-function */
  const char *FakeArgv0;     /* NULL unless -fake-argv0 */
  const char *Passes;        /* NULL unless -passes */
  /* NULL unless -object-cache-dir; absolute (a relative one taken against
   * the directory mini-lli started in, which the program may leave): the
   * options' own copy (OwnCacheDir). */
  const char *ObjectCacheDir;
  char *OwnCacheDir;
  /* -jit-kind=mcjit -remote-mcjit: the executor to run the program in
   * (-mcjit-remote-process); NULL: in mini-lli's own process. */
  const char *RemoteProcess;
  orc_rt_jit_StringList ExtraModules, ExtraObjects, ExtraArchives, DLOpens,
      ThreadEntries;
  /* For each ExtraModules / ExtraArchives item, the -jd before it (NULL:
   * none). */
  orc_rt_jit_StringList ExtraModuleJDs, ExtraArchiveJDs;
  orc_rt_jit_Engine
      Engine; /* -jit-kind, or Interpreter if -force-interpreter */
  /* Target options, as lli's codegen flags; NULL or -1 means the default. */
  const char *MTriple, *MArch, *MCPU;
  orc_rt_jit_StringList MAttrs; /* each a comma-separated list */
  int RelocModel;               /* LLVMRelocMode, or -1 */
  int CodeModel;                /* LLVMCodeModel, or -1 */
  /* lli's codegen flags as given, by their place in orc_rt_jit_CodeGenFlags
   * (NULL: not given; booleans as "true" or "false"): see
   * orc_rt_jit_CodeGenFlag_value. */
  const char *CodeGenValues[ORC_RT_JIT_CODEGEN_FLAGS_MAX];
  orc_rt_jit_LinkerKind Linker;
  orc_rt_jit_DumpKind Dump;
  bool EnableCacheManager; /* lli's object cache (files named after inputs) */
  bool DisableLazyCompilation, EmulatedTLS, SoftFloat, DisableCoreFiles;
  /* Options for LLVM's own cl:: options (-time-passes, -stats, -debug-pass,
   * ...), handed to LLVMParseCommandLineOptions before anything runs. */
  orc_rt_jit_StringList LLVMArgs;
  orc_rt_jit_StringList Plugins;   /* -load: dlopen'd before anything runs */
  orc_rt_jit_StringList JITDylibs; /* -jd names (see JITDylibs.h) */
  int OptLevel;                    /* 0..3, default 2 */
  unsigned CompileThreads;         /* -compile-threads; default: one per CPU */
  bool Lazy;                       /* -jit-kind=orc-lazy or orc-tiered */
  bool Tiered;                     /* -jit-kind=orc-tiered */
  unsigned TierUpThreshold;        /* -tier-up-threshold; 0: the default */
  bool TieredStats;                /* -tiered-stats */
  bool PerModuleLazy;              /* -per-module-lazy */
  bool NoProcessSyms;              /* -no-process-syms */
  bool TraceShutdown;              /* -trace-shutdown */
  bool Drain;                      /* -shutdown-timeout given: drain at end */
  double ShutdownTimeout;          /* seconds; negative means wait forever */
  bool Help, HelpHidden, HelpList, HelpListHidden, Version;
  int ProgramArgc;    /* argv[0] .. are the input and the program's arguments */
  char **ProgramArgv; /* points into the argv given to parse */
} orc_rt_jit_Options;

/* Parses argv (argv[0] is mini-lli itself). On error *Opts must still be freed.
 * Errors read as LLVM's cl:: parser words them ("for the --x option: ...",
 * "Unknown command line argument ..."): print them after "mini-lli: ". */
orc_rt_ErrorRef orc_rt_jit_Options_parse(orc_rt_jit_Options *Opts, int Argc,
                                         char **Argv);

/* Frees the lists inside Opts (the strings belong to argv). */
void orc_rt_jit_Options_dispose(orc_rt_jit_Options *Opts);

/* Levenshtein distance with replacements (LLVM's edit_distance). */
size_t orc_rt_jit_editDistance(const char *A, size_t LA, const char *B,
                               size_t LB);

/* The option of the table nearest to Name[0..Len), and its distance. */
const char *orc_rt_jit_nearestOption(const char *Name, size_t Len,
                                     size_t *Dist);

/* --help (Hidden: --help-hidden; List: --help-list, one list, no groups). */
void orc_rt_jit_printHelp(FILE *Out, bool Hidden, bool List);
void orc_rt_jit_printVersion(FILE *Out);

#endif
