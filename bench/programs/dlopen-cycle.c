/*===- bench/programs/dlopen-cycle.c - dlopen cycle and per-call cost ------===*/
/* Built twice: with -DPLUGIN as the module (LLVM IR for mini-lli, a shared
 * library for the native run) and without as the host, which times
 *   cycle: dlopen + dlsym + one call + dlclose, after one warm-up cycle
 *          (median of 7 batches of 200);
 *   call:  a call through the dlsym'd pointer (in mini-lli: the module's
 *          token-taking stub) and, as the baseline, through a pointer to the
 *          same function defined in the host (no stub), 10^7 each, best of 9
 *          rounds; the two alternate round by round, so a busy machine slows
 *          both alike.
 * Prints "cycle_us <x>", "stub_ns <x>", "raw_ns <x>". */

#ifdef PLUGIN
int Count;
__attribute__((noinline)) int plugin_step(int X) { return X + ++Count; }
#else
#include "BenchClock.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int cycle(const char *Path) {
  void *H = dlopen(Path, RTLD_NOW | RTLD_LOCAL);
  if (!H) {
    fprintf(stderr, "dlopen-cycle: %s\n", dlerror());
    exit(1);
  }
  int (*Step)(int) = (int (*)(int))dlsym(H, "plugin_step");
  int R = Step(1);
  dlclose(H);
  return R;
}

typedef int (*StepFn)(int);

static int HostCount;
__attribute__((noinline)) int host_step(int X) { return X + ++HostCount; }

/* One round: ns per call through F. */
static double perCall(StepFn F) {
  volatile int Sink = 0;
  double T0 = benchNow();
  for (int I = 0; I < 10000000; ++I)
    Sink += F(I);
  return (benchNow() - T0) * 1e9 / 1e7;
}

int main(int Argc, char **Argv) {
  if (Argc < 2)
    return 2;
  cycle(Argv[1]); /* warm: compiled once, then from the cache */
  double Batches[7];
  for (int B = 0; B < 7; ++B) {
    double T0 = benchNow();
    for (int I = 0; I < 200; ++I)
      cycle(Argv[1]);
    Batches[B] = (benchNow() - T0) / 200 * 1e6;
  }
  printf("cycle_us %.1f\n", benchMedian(Batches, 7));

  void *H = dlopen(Argv[1], RTLD_NOW);
  StepFn Stub = (StepFn)dlsym(H, "plugin_step");
  StepFn Raw = host_step;
  __asm__ volatile("" : "+r"(Raw)); /* an indirect call, as through Stub */
  double BestStub = 1e9, BestRaw = 1e9;
  for (int Round = 0; Round < 9; ++Round) {
    double S = perCall(Stub), R = perCall(Raw);
    BestStub = S < BestStub ? S : BestStub;
    BestRaw = R < BestRaw ? R : BestRaw;
  }
  printf("stub_ns %.2f\n", BestStub);
  printf("raw_ns %.2f\n", BestRaw);
  dlclose(H);
  return 0;
}
#endif
