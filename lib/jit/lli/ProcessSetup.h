/*===- lib/jit/lli/ProcessSetup.h - What lli's options do to the process --===*/
/* The options that act on the mini-lli process itself before any program is
 * loaded, as lli's do: -disable-core-files, -load=<plugin> (dlopen'd with
 * RTLD_GLOBAL; a failure is reported as lli's PluginLoader does and
 * ignored), LLVM's own cl:: options (handed to LLVM's parser; an unknown
 * option or a bad value is printed in cl::'s words and mini-lli exits 1, as
 * lli does), and -mcpu=help / -mattr=help
 * (LLVM's lists, printed to stderr; the program then runs for the host CPU,
 * as with lli). */

#ifndef ORC_RT_C_LIB_JIT_LLI_PROCESSSETUP_H
#define ORC_RT_C_LIB_JIT_LLI_PROCESSSETUP_H

#include "jit/lli/Options.h"

void orc_rt_jit_setUpProcess(const orc_rt_jit_Options *Opts);

/* Flushes LLVM's reports (-time-passes, -stats) as lli does at its exit. */
void orc_rt_jit_finishProcess(const orc_rt_jit_Options *Opts);

#endif
