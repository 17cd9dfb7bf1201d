/*===- tools/mini-lli/main.c - An lli-compatible driver on orc-rt-c -------===*/
/* Parse the options, build the program (Session + JIT + inputs), run it, print
 * the one error. Everything else lives in lib/jit. */

#include "jit/controller/RemoteProgram.h"
#include "jit/lli/Options.h"
#include "jit/lli/ProcessSetup.h"
#include "jit/program/Driver.h"

#include <stdio.h>

static int fail(orc_rt_ErrorRef Err) {
  fflush(stdout);
  fprintf(stderr, "mini-lli: error: %s\n", orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  return 1;
}

/* Option errors are worded as LLVM's cl:: parser words them, after the tool's
 * name ("mini-lli: for the --jit-kind option: ..."). */
static int failOptions(orc_rt_ErrorRef Err) {
  fprintf(stderr, "mini-lli: %s\n", orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  return 1;
}

int main(int Argc, char **Argv, char **Envp) {
  orc_rt_jit_Options Opts;
  orc_rt_ErrorRef Err = orc_rt_jit_Options_parse(&Opts, Argc, Argv);
  bool Help =
      Opts.Help || Opts.HelpHidden || Opts.HelpList || Opts.HelpListHidden;
  if (Err || Help || Opts.Version) {
    if (Help)
      orc_rt_jit_printHelp(stdout, Opts.HelpHidden || Opts.HelpListHidden,
                           Opts.HelpList || Opts.HelpListHidden);
    else if (Opts.Version)
      orc_rt_jit_printVersion(stdout);
    orc_rt_jit_Options_dispose(&Opts);
    return Err ? failOptions(Err) : 0;
  }
  orc_rt_jit_setUpProcess(&Opts);

  int Status = 1;
  if (Opts.RemoteProcess) { /* -jit-kind=mcjit -remote-mcjit */
    Err = orc_rt_jit_runRemote(&Opts, &Status);
    orc_rt_jit_Options_dispose(&Opts);
    return Err ? fail(Err) : Status;
  }
  orc_rt_jit_Program *P;
  Err = orc_rt_jit_Program_create(&P, &Opts);
  if (Err) {
    orc_rt_jit_Options_dispose(&Opts);
    return fail(Err);
  }
  Err = orc_rt_jit_Program_run(P, Envp, &Status);
  if (!orc_rt_jit_Program_destroy(P))
    orc_rt_jit_quickExit(Err ? fail(Err) : Status); /* code still running */
  orc_rt_jit_finishProcess(&Opts);
  orc_rt_jit_Options_dispose(&Opts);
  return Err ? fail(Err) : Status;
}
