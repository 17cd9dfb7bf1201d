/*===- bench/programs/jit-compile-modes.c - A host's program per compile mode ===*/
/* A host of orc-rt-c/Jit.h that loads a program's module (one with a main)
 * and runs its main, once per way of compiling it, side by side in one run:
 *
 *   eager -O0, eager -O2:  orc_rt_JitOptions.OptLevel 0 and 2, everything
 *                          compiled at load;
 *   Lazy -O2:              each function compiled on its first call;
 *   Tiered -O2:            tier 0 first, hot functions at -O2 in the
 *                          background (orc_rt_JitOptions.Tiered).
 *
 * Each mode runs in a child process of its own (fresh Session, Jit and
 * module; its stdout to /dev/null), RUNS times, interleaved with the other
 * modes; for each the child times the load (read, compile what is compiled at
 * load, link, constructors) and the call of main (including the compiles on
 * first calls), and the parent takes the child's peak RSS. Prints, per mode,
 * "MODE load_s=median run_s=median total_s=median peak_kb=max status=S",
 * where S is main's result (the same for every mode, or the program is not
 * doing the same work). No object cache.
 *   jit-compile-modes MODULE RUNS [ARG...]   (main gets "prog" ARG...) */

#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Jit.h"

#include "BenchClock.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  const char *Name;
  unsigned OptLevel;
  bool Lazy, Tiered;
} Mode;

static const Mode Modes[] = {{"eager-O0", 0, false, false},
                             {"eager-O2", 2, false, false},
                             {"Lazy-O2", 2, true, false},
                             {"Tiered-O2", 2, false, true}};
enum { NumModes = sizeof(Modes) / sizeof(Modes[0]) };

/* In the child: loads and runs; writes "load run status" to Out. */
static int runMode(const Mode *M, const char *Path, int Argc, char **Argv,
                   int Out) {
  int Null = open("/dev/null", O_WRONLY);
  if (Null >= 0)
    dup2(Null, STDOUT_FILENO);
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  orc_rt_ErrorRef Err =
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL);
  orc_rt_JitOptions O;
  orc_rt_JitOptions_init(&O);
  O.OptLevel = M->OptLevel;
  O.Lazy = M->Lazy;
  O.Tiered = M->Tiered;
  orc_rt_JitRef J = NULL;
  if (!Err)
    Err = orc_rt_Jit_create(&J, S, &O);
  double T0 = benchNow();
  orc_rt_JitModuleRef Mod = NULL;
  if (!Err)
    Err = orc_rt_Jit_loadFile(J, Path, &Mod);
  double T1 = benchNow();
  void *Main = NULL;
  if (!Err)
    Err = orc_rt_JitModule_lookup(Mod, "main", &Main);
  if (Err) {
    fprintf(stderr, "jit-compile-modes: %s: %s\n", M->Name,
            orc_rt_Error_getMessage(Err));
    return 1;
  }
  int Status = ((int (*)(int, char **))(uintptr_t)Main)(Argc, Argv);
  double T2 = benchNow();
  fflush(stdout);
  dprintf(Out, "%f %f %d\n", T1 - T0, T2 - T1, Status);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: jit-compile-modes MODULE RUNS [ARG...]\n");
    return 2;
  }
  int Runs = atoi(argv[2]);
  if (Runs < 1)
    Runs = 1;
  /* main's argv: "prog" and the ARGs (argv[2] is overwritten). */
  char **ProgArgv = argv + 2;
  ProgArgv[0] = "prog";
  int ProgArgc = argc - 2;
  double *Load = calloc((size_t)(NumModes * Runs), sizeof(double));
  double *Run = calloc((size_t)(NumModes * Runs), sizeof(double));
  double *Total = calloc((size_t)(NumModes * Runs), sizeof(double));
  long Peak[NumModes] = {0};
  int Status[NumModes];
  for (int R = 0; R < Runs; ++R)
    for (int I = 0; I < NumModes; ++I) {
      int P[2];
      if (pipe(P))
        return 1;
      fflush(stdout);
      pid_t Pid = fork();
      if (Pid == 0) {
        close(P[0]);
        _exit(runMode(&Modes[I], argv[1], ProgArgc, ProgArgv, P[1]));
      }
      close(P[1]);
      char Buf[128] = {0};
      ssize_t N = read(P[0], Buf, sizeof(Buf) - 1);
      close(P[0]);
      int WS;
      struct rusage Use;
      if (wait4(Pid, &WS, 0, &Use) != Pid || !WIFEXITED(WS) ||
          WEXITSTATUS(WS) || N <= 0) {
        fprintf(stderr, "jit-compile-modes: %s failed\n", Modes[I].Name);
        return 1;
      }
      int K = I * Runs + R;
      sscanf(Buf, "%lf %lf %d", &Load[K], &Run[K], &Status[I]);
      Total[K] = Load[K] + Run[K];
      if (Use.ru_maxrss > Peak[I])
        Peak[I] = Use.ru_maxrss;
    }
  for (int I = 0; I < NumModes; ++I)
    printf("%s load_s=%.3f run_s=%.3f total_s=%.3f peak_kb=%ld status=%d\n",
           Modes[I].Name, benchMedian(Load + I * Runs, Runs),
           benchMedian(Run + I * Runs, Runs),
           benchMedian(Total + I * Runs, Runs), Peak[I], Status[I]);
  return 0;
}
