/*===- bench/programs/jit-reload-churn.c - Many reloads of one module -----===*/
/* A host of orc-rt-c/Jit.h that reloads one small module N times (default
 * 100,000), each version a new body (so each is compiled: no cache hit), a
 * call through the module's entry after each reload checking the answer, and
 * a variable kept across all of them. Prints the resident memory after the
 * first tenth and at the end, and the time of the first and the last tenth:
 *   "rss_first_kb", "rss_end_kb", "first_s", "last_s", "versions",
 * "calls_kept", "tenths_s" (the time of each tenth, in order), and the same
 * in process CPU time (less moved by other processes on a shared machine):
 * "first_cpu_s", "last_cpu_s", "tenths_cpu_s".
 *   jit-reload-churn [N [lazy|tiered]] (an eager Jit by default) */

#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Jit.h"

#include "BenchClock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double cpuNow(void) {
  struct timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

static long rssKb(void) {
  long Pages = 0, Resident = 0;
  FILE *F = fopen("/proc/self/statm", "r");
  if (F) {
    if (fscanf(F, "%ld %ld", &Pages, &Resident) != 2)
      Resident = 0;
    fclose(F);
  }
  return Resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void die(const char *What, orc_rt_ErrorRef Err) {
  fprintf(stderr, "jit-reload-churn: error: %s: %s\n", What,
          Err ? orc_rt_Error_getMessage(Err) : "failed");
  exit(1);
}

/* Version V: f() counts its calls in a kept variable and returns V. */
static size_t version(char *Buf, size_t Size, long V) {
  return (size_t)snprintf(Buf, Size,
                          "@calls = global i64 0\n"
                          "define i64 @f() {\n"
                          "  %%c = load i64, ptr @calls\n"
                          "  %%n = add i64 %%c, 1\n"
                          "  store i64 %%n, ptr @calls\n"
                          "  ret i64 %ld\n"
                          "}\n",
                          V);
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? atol(Argv[1]) : 100000;
  if (N < 10) {
    fprintf(stderr, "jit-reload-churn: error: N must be at least 10\n");
    return 1;
  }
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  orc_rt_JitRef J;
  orc_rt_ErrorRef Err =
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL);
  orc_rt_JitOptions O;
  orc_rt_JitOptions_init(&O);
  O.Lazy = Argc > 2 && !strcmp(Argv[2], "lazy");
  O.Tiered = Argc > 2 && !strcmp(Argv[2], "tiered");
  if (Argc > 2 && !O.Lazy && !O.Tiered) {
    fprintf(stderr,
            "jit-reload-churn: error: unknown mode '%s' (lazy or "
            "tiered)\n",
            Argv[2]);
    return 1;
  }
  if (Err || (Err = orc_rt_Jit_create(&J, S, &O)))
    die("setting up", Err);
  char Buf[512];
  size_t Len = version(Buf, sizeof(Buf), 0);
  orc_rt_JitModuleRef M;
  if ((Err = orc_rt_Jit_loadMemory(J, "churn.ll", Buf, Len, &M)))
    die("loading", Err);
  void *Fn, *Calls;
  if ((Err = orc_rt_JitModule_lookup(M, "f", &Fn)) ||
      (Err = orc_rt_JitModule_lookup(M, "calls", &Calls)))
    die("looking up", Err);
  long Tenth = N / 10, RssFirst = 0;
  double T0 = benchNow(), First = 0, LastStart = 0, Tenths[10], TenthStart = T0;
  double CpuTenths[10], CpuTenthStart = cpuNow();
  int Done = 0;
  for (long V = 1; V <= N; ++V) {
    Len = version(Buf, sizeof(Buf), V);
    if ((Err = orc_rt_JitModule_reloadMemory(M, Buf, Len)))
      die("reloading", Err);
    if (((long (*)(void))(uintptr_t)Fn)() != V) {
      fprintf(stderr,
              "jit-reload-churn: error: version %ld gave a wrong "
              "answer\n",
              V);
      return 1;
    }
    if (V == Tenth) {
      First = benchNow() - T0;
      RssFirst = rssKb();
    }
    if (V == N - Tenth)
      LastStart = benchNow();
    if (V % Tenth == 0 && Done < 10) {
      double T = benchNow();
      double C = cpuNow();
      CpuTenths[Done] = C - CpuTenthStart;
      Tenths[Done++] = T - TenthStart;
      TenthStart = T;
      CpuTenthStart = C;
    }
  }
  double Last = benchNow() - LastStart;
  long Kept = *(long *)Calls;
  orc_rt_JitModule_unload(M, NULL, NULL);
  printf("versions %ld\nrss_first_kb %ld\nrss_end_kb %ld\nfirst_s %.3f\n"
         "last_s %.3f\ncalls_kept %ld\n",
         N, RssFirst, rssKb(), First, Last, Kept);
  printf("tenths_s");
  for (int I = 0; I < Done; ++I)
    printf(" %.3f", Tenths[I]);
  printf("\nfirst_cpu_s %.3f\nlast_cpu_s %.3f\ntenths_cpu_s", CpuTenths[0],
         CpuTenths[Done - 1]);
  for (int I = 0; I < Done; ++I)
    printf(" %.3f", CpuTenths[I]);
  printf("\n");
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
  return 0;
}
