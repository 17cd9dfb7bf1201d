/*===- lib/jit/ProcessSetup.c - What lli's options do to the process ------===*/

#include "jit/ProcessSetup.h"

#include <llvm-c/Core.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
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

/* The names of every option LLVM's parser knows, one per line (NULs
 * between), read from its --help-list-hidden in a child process: LLVM has
 * no C API to ask, and some library registers a cl::Sink, so LLVM's parser
 * itself would silently take any unknown option. Empty if the child fails. */
static char *llvmOptionNames(size_t *Size) {
  int Pipe[2];
  *Size = 0;
  if (pipe(Pipe))
    return NULL;
  fflush(NULL);
  pid_t Pid = fork();
  if (Pid == 0) {
    dup2(Pipe[1], STDOUT_FILENO);
    close(Pipe[0]);
    close(Pipe[1]);
    const char *Argv[] = {"mini-lli", "--help-list-hidden", NULL};
    LLVMParseCommandLineOptions(2, Argv, "");
    _exit(0);
  }
  close(Pipe[1]);
  size_t Cap = 1 << 18, N = 0;
  char *Buf = Pid > 0 ? malloc(Cap) : NULL;
  while (Buf) {
    if (N == Cap) {
      char *Bigger = realloc(Buf, Cap *= 2);
      if (!Bigger) {
        free(Buf);
        Buf = NULL;
        break;
      }
      Buf = Bigger;
    }
    ssize_t R = read(Pipe[0], Buf + N, Cap - N);
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      break;
    N += (size_t)R;
  }
  close(Pipe[0]);
  if (Pid > 0)
    waitpid(Pid, NULL, 0);
  /* Keep "name" of each "  --name=<...>  - help" / "  -name  - help". */
  size_t Out = 0;
  for (size_t I = 0; Buf && I < N;) {
    size_t End = I;
    while (End < N && Buf[End] != '\n')
      ++End;
    if (End - I > 3 && Buf[I] == ' ' && Buf[I + 1] == ' ' &&
        Buf[I + 2] == '-') {
      size_t J = I + 2;
      while (J < End && Buf[J] == '-')
        ++J;
      size_t K = J;
      while (K < End && Buf[K] != '=' && Buf[K] != ' ' && Buf[K] != '<')
        ++K;
      memmove(Buf + Out, Buf + J, K - J);
      Out += K - J;
      Buf[Out++] = '\0';
    }
    I = End + 1;
  }
  *Size = Out;
  return Buf;
}

/* lli's words for an option no parser knows, with the nearest option of
 * lli's, mini-lli's and LLVM's as the suggestion; exits 1. */
static void checkLLVMArgs(const orc_rt_jit_Options *Opts) {
  size_t Size;
  char *Names = llvmOptionNames(&Size);
  if (!Names)
    return; /* cannot tell: LLVM's parser decides */
  for (size_t A = 0; A < Opts->LLVMArgs.Size; ++A) {
    const char *Arg = Opts->LLVMArgs.Items[A];
    const char *Name = Arg + (Arg[1] == '-' ? 2 : 1);
    const char *Eq = strchr(Name, '=');
    size_t Len = Eq ? (size_t)(Eq - Name) : strlen(Name);
    bool Known = false;
    size_t BestDist;
    const char *Best = orc_rt_jit_nearestOption(Name, Len, &BestDist);
    for (size_t I = 0; I < Size && !Known; I += strlen(Names + I) + 1) {
      size_t L = strlen(Names + I);
      Known = L == Len && !memcmp(Names + I, Name, Len);
      size_t D = orc_rt_jit_editDistance(Name, Len, Names + I, L);
      if (D < BestDist) {
        BestDist = D;
        Best = Names + I;
      }
    }
    if (Known)
      continue;
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
  free(Names);
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
  /* Exits with status 1 after cl::'s message if an option is unknown. */
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
