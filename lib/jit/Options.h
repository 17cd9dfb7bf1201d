/*===- lib/jit/Options.h - mini-lli's command line ------------------------===*/
/* The options mini-lli understands, parsed the way LLVM's cl:: parser does for
 * lli: `-opt=value`, `-opt value`, one or two dashes; options end at the input
 * file; everything after it belongs to the program. */

#ifndef ORC_RT_C_LIB_JIT_OPTIONS_H
#define ORC_RT_C_LIB_JIT_OPTIONS_H

#include "orc-rt-c/Error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
  const char **Items;
  size_t Size, Capacity;
} orc_rt_jit_StringList;

typedef struct {
  const char *Input;          /* "-" means stdin (also the default) */
  const char *EntryFunction;  /* "main" unless -entry-function */
  const char *FakeArgv0;      /* NULL unless -fake-argv0 */
  const char *Passes;         /* NULL unless -passes */
  const char *ObjectCacheDir; /* NULL unless -object-cache-dir */
  orc_rt_jit_StringList ExtraModules, ExtraObjects, ExtraArchives, DLOpens,
      ThreadEntries;
  int OptLevel;            /* 0..3, default 2 */
  unsigned CompileThreads; /* -compile-threads; default: one per CPU */
  bool Lazy;               /* -jit-kind=orc-lazy */
  bool PerModuleLazy;      /* -per-module-lazy */
  bool NoProcessSyms;      /* -no-process-syms */
  bool TraceShutdown;      /* -trace-shutdown */
  bool Drain;              /* -shutdown-timeout given: drain at the end */
  double ShutdownTimeout;  /* seconds; negative means forever ("forever") */
  bool Help, Version;
  int ProgramArgc;    /* argv[0] .. are the input and the program's arguments */
  char **ProgramArgv; /* points into the argv given to parse */
} orc_rt_jit_Options;

/* Parses argv (argv[0] is mini-lli itself). On error *Opts must still be freed.
 */
orc_rt_ErrorRef orc_rt_jit_Options_parse(orc_rt_jit_Options *Opts, int Argc,
                                         char **Argv);

/* Frees the lists inside Opts (the strings belong to argv). */
void orc_rt_jit_Options_dispose(orc_rt_jit_Options *Opts);

void orc_rt_jit_printHelp(FILE *Out);
void orc_rt_jit_printVersion(FILE *Out);

#endif
