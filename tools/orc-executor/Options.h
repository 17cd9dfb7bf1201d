/*===- tools/orc-executor/Options.h - Command-line parsing ----------------===*/
/* The three reference command lines (lli-child-target's "<in> <out>",
 * llvm-jitlink-executor's "filedescs=<in>,<out>" and "listen=<host>:<port>")
 * plus orc-executor's own options. */

#ifndef ORC_EXECUTOR_OPTIONS_H
#define ORC_EXECUTOR_OPTIONS_H

#include "orc-rt-c/Error.h"

#include <stdbool.h>

typedef struct {
  int InFD, OutFD;        /* pipe mode */
  bool Listen;            /* listen mode: Host/Port set instead */
  char *Host, *Port;      /* owned */
  unsigned IdleCloseMs;   /* --idle-close-ms / --idle-close: 0 = never */
  bool Drain;             /* --shutdown-timeout given: wait for JIT'd code */
  long ShutdownTimeoutMs; /* with Drain: how long; negative = forever */
  bool
      TestJITLoaderGDB; /* test-jitloadergdb: print the GDB list's last entry */
  bool Help;
} ExecutorOptions;

/* Parses argv; on error returns it (the caller prints it with
 * the usage text). */
orc_rt_ErrorRef parseExecutorOptions(int Argc, char **Argv, ExecutorOptions *O);

void freeExecutorOptions(ExecutorOptions *O);

extern const char ExecutorUsage[];

#endif
