/*===- bench/AsLinkedBench.c - callManagedCode as a user links it ---------===*/
/*
 * A program of the kind a user writes, built out of tree against the
 * installed package with pkg-config (bench/sections/15-as-linked.sh), once
 * against the shared and once against the static library. It uses only the
 * public headers. Measures, side by side in one process, interleaved rounds
 * (every case once per round, best round):
 *   direct           an indirect call to an empty function (the unit)
 *   callManagedCode  orc_rt_Session_callManagedCode around the same call
 * on 1 thread (thread CPU time per entry) and on 2 threads at once (wall time
 * per entry per thread; a run counts only if both threads were on a CPU for
 * >= 90% of it and the runs overlapped >= 90%, else the cell is marked '*').
 *
 *   as-linked-bench LABEL          prints "ROW<TAB>..." lines for bench/table.py
 *   as-linked-bench --callgrind CASE N
 *                                  runs CASE N times (plus 1000 warm-up) inside
 *                                  measuredLoop, for valgrind
 *                                  --toggle-collect=measuredLoop
 */

#include <orc-rt-c/orc-rt.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

/* The "JIT'd code": an empty out-of-line function behind a pointer the
 * compiler cannot see through. */
static NOINLINE void target(void *Ctx) {
  (void)Ctx;
  __asm__ volatile("" ::: "memory");
}
static void (*volatile TargetPtr)(void *) = target;

static orc_rt_SessionRef Sess;

enum { C_Direct, C_CallManaged, NumCases };
static const char *CaseKey[NumCases] = {"direct", "callManagedCode"};

static NOINLINE void measuredLoop(int C, long N) {
  if (C == C_Direct) {
    for (long I = 0; I != N; ++I)
      TargetPtr(NULL);
  } else {
    for (long I = 0; I != N; ++I)
      if (!orc_rt_Session_callManagedCode(Sess, TargetPtr, NULL))
        abort();
  }
}

static double clockNs(clockid_t Id) {
  struct timespec T;
  clock_gettime(Id, &T);
  return (double)T.tv_sec * 1e9 + (double)T.tv_nsec;
}

typedef struct {
  int C;
  long N;
  pthread_barrier_t *Start;
  double T0, T1, Cpu;
} Job;

static void *jobMain(void *Arg) {
  Job *J = Arg;
  measuredLoop(J->C, J->N / 100 + 1000); /* warm up; the thread's first entry */
  pthread_barrier_wait(J->Start);
  J->T0 = clockNs(CLOCK_MONOTONIC);
  double C0 = clockNs(CLOCK_THREAD_CPUTIME_ID);
  measuredLoop(J->C, J->N);
  J->Cpu = clockNs(CLOCK_THREAD_CPUTIME_ID) - C0;
  J->T1 = clockNs(CLOCK_MONOTONIC);
  return NULL;
}

/* ns per entry per thread (the slowest thread); negative if a 2-thread run
 * did not really run both threads at once. */
static double timeCase(int C, int Threads, long N) {
  pthread_barrier_t Start;
  pthread_barrier_init(&Start, NULL, (unsigned)Threads);
  Job J[2];
  pthread_t T[2];
  for (int I = 0; I != Threads; ++I) {
    J[I] = (Job){C, N, &Start, 0, 0, 0};
    pthread_create(&T[I], NULL, jobMain, &J[I]);
  }
  double Worst = 0, LastStart = 0, FirstEnd = 1e300, First = 1e300, Last = 0;
  int Ran = 1;
  for (int I = 0; I != Threads; ++I) {
    pthread_join(T[I], NULL);
    double Wall = J[I].T1 - J[I].T0;
    double D = Threads == 1 ? J[I].Cpu : Wall;
    Ran = Ran && J[I].Cpu >= 0.9 * Wall;
    Worst = D > Worst ? D : Worst;
    First = J[I].T0 < First ? J[I].T0 : First;
    LastStart = J[I].T0 > LastStart ? J[I].T0 : LastStart;
    FirstEnd = J[I].T1 < FirstEnd ? J[I].T1 : FirstEnd;
    Last = J[I].T1 > Last ? J[I].T1 : Last;
  }
  pthread_barrier_destroy(&Start);
  if (Threads > 1 && (!Ran || FirstEnd - LastStart < 0.9 * (Last - First)))
    return -Worst / (double)N;
  return Worst / (double)N;
}

static void runTask(orc_rt_TaskRef T, void *Ctx) {
  (void)Ctx;
  orc_rt_Task_run(T);
}

int main(int Argc, char **Argv) {
  orc_rt_ErrorRef E = orc_rt_Session_create(&Sess, runTask, NULL, NULL, NULL);
  if (E) {
    fprintf(stderr, "as-linked-bench: error: %s\n", orc_rt_Error_getMessage(E));
    orc_rt_Error_consume(E);
    return 1;
  }
  if (Argc == 4 && !strcmp(Argv[1], "--callgrind")) {
    int C = !strcmp(Argv[2], CaseKey[C_Direct]) ? C_Direct : C_CallManaged;
    long N = atol(Argv[3]);
    measuredLoop(C, 1000);
    measuredLoop(C, N);
    orc_rt_Session_destroy(Sess);
    return 0;
  }
  const char *Label = Argc > 1 ? Argv[1] : "as linked";

  /* N: about 20 ms of indirect calls. */
  long N = 100000;
  for (;;) {
    double T0 = clockNs(CLOCK_MONOTONIC);
    measuredLoop(C_Direct, N);
    if (clockNs(CLOCK_MONOTONIC) - T0 > 2e6 || N > (1L << 30))
      break;
    N *= 2;
  }
  N *= 10;

  /* Best[C][T-1]; a 2-thread cell keeps its best overlapped run, else the
   * best of all marked '*'. Rounds: at least 7, up to 15 while a 2-thread
   * cell has no overlapped run. */
  double Best[NumCases][2], BestAny[NumCases][2];
  for (int C = 0; C != NumCases; ++C)
    for (int T = 0; T != 2; ++T)
      Best[C][T] = BestAny[C][T] = 1e300;
  for (int Round = 0; Round != 15; ++Round) {
    int Missing = 0;
    for (int C = 0; C != NumCases; ++C)
      Missing |= Best[C][1] == 1e300;
    if (Round >= 7 && !Missing)
      break;
    for (int T = 1; T <= 2; ++T)
      for (int C = 0; C != NumCases; ++C) {
        double R = timeCase(C, T, N);
        double A = R < 0 ? -R : R;
        if (R > 0 && R < Best[C][T - 1])
          Best[C][T - 1] = R;
        if (A < BestAny[C][T - 1])
          BestAny[C][T - 1] = A;
      }
  }

  for (int T = 1; T <= 2; ++T) {
    double D = Best[C_Direct][T - 1], M = Best[C_CallManaged][T - 1];
    int Marked = D == 1e300 || M == 1e300;
    if (Marked) {
      D = BestAny[C_Direct][T - 1];
      M = BestAny[C_CallManaged][T - 1];
    }
    printf("ROW\t%s\t%d\t%.2f\t%.2f\t%.2fx%s\n", Label, T, D, M, M / D,
           Marked ? " *" : "");
  }
  orc_rt_Session_destroy(Sess);
  return 0;
}
