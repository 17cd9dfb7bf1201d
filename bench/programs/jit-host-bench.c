/*===- bench/programs/jit-host-bench.c - The host JIT against its peers ---===*/
/* A host of orc-rt-c/Jit.h, timing side by side in one run:
 *   call:   a call through a looked-up entry against an indirect call to the
 *           same function compiled into this host, 10^7 each, best of 9
 *           rounds, the two alternating round by round;
 *   cycle:  one warm load + lookup + call + unload of MODULE.ll (its bytes;
 *           compiled once, then linked from the Jit's module cache), against
 *           dlopen + dlsym + call + dlclose of MODULE.so (the same IR built with
 *           clang -O2 -shared -fPIC), and against LLVM-C's LLJIT: parse, add
 *           with a resource tracker, look up, call, remove the tracker (it has
 *           no cache); median of 7 batches (200, 200 and 20 cycles).
 * Prints "entry_ns", "raw_ns", "jit_cycle_us", "dlopen_cycle_us",
 * "lljit_cycle_us".
 *   jit-host-bench MODULE.ll MODULE.so */

#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Jit.h"

#include "BenchClock.h"

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*StepFn)(int);

static void die(const char *What, orc_rt_ErrorRef Err) {
  fprintf(stderr, "jit-host-bench: error: %s: %s\n", What,
          Err ? orc_rt_Error_getMessage(Err) : "failed");
  exit(1);
}

static int HostCount;
__attribute__((noinline)) int host_step(int X) { return X + ++HostCount; }

static double perCall(StepFn F) {
  volatile int Sink = 0;
  double T0 = benchNow();
  for (int I = 0; I < 10000000; ++I)
    Sink += F(I);
  return (benchNow() - T0) * 1e9 / 1e7;
}

static char *Bytes;
static size_t Size;
static orc_rt_JitRef J;
static const char *SoPath;
static LLVMOrcLLJITRef L;

static int jitCycle(void) {
  orc_rt_JitModuleRef M;
  void *Entry;
  orc_rt_ErrorRef Err = orc_rt_Jit_loadMemory(J, "plugin.ll", Bytes, Size, &M);
  if (Err || (Err = orc_rt_JitModule_lookup(M, "plugin_step", &Entry)))
    die("load", Err);
  int R = ((StepFn)(uintptr_t)Entry)(1);
  orc_rt_JitModule_unload(M, NULL, NULL);
  return R;
}

static int dlopenCycle(void) {
  void *H = dlopen(SoPath, RTLD_NOW | RTLD_LOCAL);
  if (!H)
    die(dlerror(), NULL);
  void *Sym = dlsym(H, "plugin_step");
  int R = ((StepFn)(uintptr_t)Sym)(1);
  dlclose(H);
  return R;
}

static int lljitCycle(void) {
  LLVMContextRef Ctx = LLVMContextCreate();
  LLVMMemoryBufferRef Buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(Bytes, Size, "plugin.ll");
  LLVMModuleRef Mod;
  char *Msg = NULL;
  if (LLVMParseIRInContext(Ctx, Buf, &Mod, &Msg))
    die(Msg, NULL);
  LLVMOrcThreadSafeContextRef TSC =
      LLVMOrcCreateNewThreadSafeContextFromLLVMContext(Ctx);
  LLVMOrcThreadSafeModuleRef TSM = LLVMOrcCreateNewThreadSafeModule(Mod, TSC);
  LLVMOrcDisposeThreadSafeContext(TSC);
  LLVMOrcJITDylibRef JD = LLVMOrcLLJITGetMainJITDylib(L);
  LLVMOrcResourceTrackerRef RT = LLVMOrcJITDylibCreateResourceTracker(JD);
  LLVMOrcExecutorAddress Addr;
  if (LLVMOrcLLJITAddLLVMIRModuleWithRT(L, RT, TSM) ||
      LLVMOrcLLJITLookup(L, &Addr, "plugin_step"))
    die("LLJIT", NULL);
  int R = ((StepFn)(uintptr_t)Addr)(1);
  if (LLVMOrcResourceTrackerRemove(RT))
    die("LLJIT remove", NULL);
  LLVMOrcReleaseResourceTracker(RT);
  return R;
}

/* Median over 7 batches of N cycles, in microseconds per cycle. */
static double cycleUs(int (*Cycle)(void), int N) {
  double T[7];
  Cycle(); /* warm: compiled once, pages touched */
  for (int B = 0; B < 7; ++B) {
    double T0 = benchNow();
    for (int I = 0; I < N; ++I)
      Cycle();
    T[B] = (benchNow() - T0) * 1e6 / N;
  }
  return benchMedian(T, 7);
}

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    fprintf(stderr, "usage: jit-host-bench MODULE.ll MODULE.so\n");
    return 2;
  }
  SoPath = Argv[2];
  FILE *F = fopen(Argv[1], "rb");
  if (!F || fseek(F, 0, SEEK_END) || (Size = (size_t)ftell(F), 0) ||
      fseek(F, 0, SEEK_SET) || !(Bytes = malloc(Size)) ||
      fread(Bytes, 1, Size, F) != Size)
    die(Argv[1], NULL);
  fclose(F);
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  orc_rt_ErrorRef Err =
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL);
  if (Err || (Err = orc_rt_Jit_create(&J, S, NULL)))
    die("create", Err);

  orc_rt_JitModuleRef M;
  void *Entry;
  if ((Err = orc_rt_Jit_loadMemory(J, "plugin.ll", Bytes, Size, &M)) ||
      (Err = orc_rt_JitModule_lookup(M, "plugin_step", &Entry)))
    die("load", Err);
  double EntryNs = 1e9, RawNs = 1e9;
  for (int R = 0; R < 9; ++R) {
    double E = perCall((StepFn)(uintptr_t)Entry), H = perCall(host_step);
    EntryNs = E < EntryNs ? E : EntryNs;
    RawNs = H < RawNs ? H : RawNs;
  }
  orc_rt_JitModule_unload(M, NULL, NULL);
  printf("entry_ns %.3f\nraw_ns %.3f\n", EntryNs, RawNs);

  printf("jit_cycle_us %.2f\n", cycleUs(jitCycle, 200));
  printf("dlopen_cycle_us %.2f\n", cycleUs(dlopenCycle, 200));
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  if (LLVMOrcCreateLLJIT(&L, LLVMOrcCreateLLJITBuilder()))
    die("LLJIT", NULL);
  printf("lljit_cycle_us %.2f\n", cycleUs(lljitCycle, 20));
  LLVMOrcDisposeLLJIT(L);
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
  free(Bytes);
  return 0;
}
