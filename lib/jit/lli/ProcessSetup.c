/*===- lib/jit/lli/ProcessSetup.c - What lli's options do to the process --===*/

#include "jit/lli/ProcessSetup.h"

#include "jit/lli/LLVMOptions.h"

#include <llvm-c/Core.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static void loadPlugins(const orc_rt_jit_Options *Opts) {
  for (size_t I = 0; I < Opts->Plugins.Size; ++I) {
    const char *Path = Opts->Plugins.Items[I];
    if (!dlopen(Path, RTLD_NOW | RTLD_GLOBAL)) {
      fprintf(stderr, "Error opening '%s': %s\n  -load request ignored.\n",
              Path, dlerror());
    }
  }
}

/* lli's words for an option no parser knows, with the nearest option of
 * lli's, mini-lli's and LLVM's as the suggestion; exits 1. LLVM's parser
 * cannot be left to say it: some library registers a cl::Sink, so it would
 * silently take any unknown option. */
static void checkLLVMArgs(const orc_rt_jit_Options *Opts) {
  if (!orc_rt_jit_llvmOptionsKnown())
    return; /* cannot tell: LLVM's parser decides */
  for (size_t A = 0; A < Opts->LLVMArgs.Size; ++A) {
    const char *Arg = Opts->LLVMArgs.Items[A];
    const char *Name = Arg + (Arg[1] == '-' ? 2 : 1);
    const char *Eq = strchr(Name, '=');
    size_t Len = Eq ? (size_t)(Eq - Name) : strlen(Name);
    orc_rt_jit_LLVMOptionKind Kind = orc_rt_jit_llvmOptionKind(Name, Len);
    if (Kind == orc_rt_jit_LLVMOption_Value && !Eq)
      ++A; /* `-name value`: the parser kept the value as the next item */
    if (Kind != orc_rt_jit_LLVMOption_Unknown)
      continue;
    size_t BestDist, LLVMDist;
    const char *Best = orc_rt_jit_nearestOption(Name, Len, &BestDist);
    const char *LLVMBest = orc_rt_jit_llvmNearestOption(Name, Len, &LLVMDist);
    if (LLVMBest && LLVMDist < BestDist)
      Best = LLVMBest;
    fflush(stdout);
    fprintf(stderr,
            "mini-lli: Unknown command line argument '%s'.  Try: 'mini-lli "
            "--help'\n",
            Arg);
    if (Best)
      fprintf(stderr, "mini-lli: Did you mean '%s%s%s%s'?\n",
              strlen(Best) == 1 ? "-" : "--", Best, Eq ? "=" : "",
              Eq ? Eq + 1 : "");
    exit(1);
  }
}

/* LLVM-C's parser prints cl::'s message for a bad value (`-debug-pass=x`,
 * `-debug-pass` with nothing after it) but does not stop, where lli exits 1.
 * So the arguments are parsed first in a child whose stderr is kept: any
 * message there is printed and mini-lli exits 1, as lli. A valid command line
 * prints nothing while it is parsed. */
static bool llvmValuesAreValid(int Argc, const char **Argv) {
  size_t N;
  char *Messages = orc_rt_jit_llvmParseInChild(Argc, Argv, STDERR_FILENO, &N);
  if (N) {
    fflush(stdout);
    fputs(Messages, stderr);
  }
  free(Messages);
  return !N; /* no message: valid, or cannot tell (the parse below prints) */
}

static void passToLLVM(const orc_rt_jit_Options *Opts) {
  if (!Opts->LLVMArgs.Size)
    return;
  checkLLVMArgs(Opts);
  const char **Argv = calloc(Opts->LLVMArgs.Size + 2, sizeof(char *));
  if (!Argv)
    return;
  Argv[0] = "mini-lli";
  memcpy(Argv + 1, Opts->LLVMArgs.Items, Opts->LLVMArgs.Size * sizeof(char *));
  if (!llvmValuesAreValid((int)Opts->LLVMArgs.Size + 1, Argv)) {
    free(Argv);
    exit(1);
  }
  LLVMParseCommandLineOptions((int)Opts->LLVMArgs.Size + 1, Argv,
                              "llvm interpreter & dynamic compiler\n");
  free(Argv);
}

static bool anyAttrIsHelp(const orc_rt_jit_Options *Opts) {
  for (size_t I = 0; I < Opts->MAttrs.Size; ++I)
    if (!strcmp(Opts->MAttrs.Items[I], "help"))
      return true;
  return false;
}

/* LLVM prints its CPU (and feature) table when a subtarget is made for the
 * CPU or feature string "help". */
static void printTargetHelp(const orc_rt_jit_Options *Opts) {
  bool CPUHelp = Opts->MCPU && !strcmp(Opts->MCPU, "help");
  if (!CPUHelp && !anyAttrIsHelp(Opts))
    return;
  LLVMInitializeNativeTarget();
  char *Triple = LLVMGetDefaultTargetTriple();
  LLVMTargetRef T;
  char *Msg = NULL;
  if (!LLVMGetTargetFromTriple(Triple, &T, &Msg)) {
    LLVMTargetMachineRef TM = LLVMCreateTargetMachine(
        T, Triple, CPUHelp ? "help" : "", CPUHelp ? "" : "help",
        LLVMCodeGenLevelDefault, LLVMRelocDefault, LLVMCodeModelJITDefault);
    if (TM)
      LLVMDisposeTargetMachine(TM);
  }
  LLVMDisposeMessage(Msg);
  LLVMDisposeMessage(Triple);
}

/* LLVM reports some failures as fatal errors (MCJIT: an unresolved external;
 * the interpreter: an unknown external function or an unsupported
 * instruction): say them as mini-lli's other errors are said, status 1,
 * instead of LLVM's crash report. */
static void fatalError(const char *Reason) {
  fflush(stdout);
  fprintf(stderr, "mini-lli: error: %s\n", Reason);
  fflush(stderr);
  _exit(1);
}

void orc_rt_jit_setUpProcess(const orc_rt_jit_Options *Opts) {
  LLVMInstallFatalErrorHandler(fatalError);
  if (Opts->DisableCoreFiles) {
    struct rlimit None = {0, 0};
    setrlimit(RLIMIT_CORE, &None);
  }
  loadPlugins(Opts);
  passToLLVM(Opts);
  printTargetHelp(Opts);
}

void orc_rt_jit_finishProcess(const orc_rt_jit_Options *Opts) {
  if (Opts->LLVMArgs.Size)
    LLVMShutdown(); /* prints -time-passes / -stats reports, as lli's exit */
}
