/*===- lib/jit/program/Driver.h - Running a program the way lli does ------===*/
/* A Program is the JIT'd program and the Session it runs under. Running it
 * follows lli's order -- llvm.global_ctors by priority, -thread-entry
 * threads, the entry, joining those threads, atexit/__cxa_atexit handlers in
 * reverse, llvm.global_dtors -- each step under callManagedCode. Then shutdown
 * is requested: new entries are denied, and the JIT and its code memory are
 * freed only in the Session's onShutdown, after the drain. By default the
 * program ends as the native one does: if threads are still inside JIT'd
 * code, nothing is freed and the process ends without waiting for them. With
 * -shutdown-timeout the driver waits for the drain first (for that long). */

#ifndef ORC_RT_C_LIB_JIT_PROGRAM_DRIVER_H
#define ORC_RT_C_LIB_JIT_PROGRAM_DRIVER_H

#include "jit/lli/Options.h"

#include "orc-rt-c/Error.h"

#include <stdbool.h>

typedef struct orc_rt_jit_Program orc_rt_jit_Program;

/* Builds the Session and the JIT and loads every input Opts names. Opts must
 * outlive the program. On error nothing is left behind. */
orc_rt_ErrorRef orc_rt_jit_Program_create(orc_rt_jit_Program **Result,
                                          const orc_rt_jit_Options *Opts);

/* Runs the program to its end (with -shutdown-timeout: to the end of the
 * drain, or the timeout) and sets *Status to the process exit status. */
orc_rt_ErrorRef orc_rt_jit_Program_run(orc_rt_jit_Program *P, char **Envp,
                                       int *Status);

/* Frees the program. Returns false, freeing nothing, if threads may still be
 * inside JIT'd code (the drain was not waited for, or timed out): then the
 * caller must end the process with orc_rt_jit_quickExit. */
bool orc_rt_jit_Program_destroy(orc_rt_jit_Program *P);

/* Flushes stdio and ends the process at once, running no exit handlers (the
 * host's included) while JIT'd code may still be running. */
_Noreturn void orc_rt_jit_quickExit(int Status);

#endif
