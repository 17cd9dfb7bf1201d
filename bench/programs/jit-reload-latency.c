/*===- bench/programs/jit-reload-latency.c - Reload against clang+dlopen ---===*/
/* A host of orc-rt-c/Jit.h timing, side by side in one run, what it takes to
 * switch a one-function module to a new version:
 *   reload:  orc_rt_JitModule_reloadMemory of the module's IR, each version a
 *            new body (so each is compiled: no cache hit; no object cache
 *            directory), then a call through the module's entry checking the
 *            answer (not timed); median (and best) of RELOADS reloads after 5
 *            untimed ones;
 *   native:  what a dlopen-based hot reloader pays for the same IR: spawn
 *            `CLANG -O2 -shared -fPIC -x ir V.ll -o V.so` (and
 *            -Wno-override-module: the IR names no target) and wait for it, then
 *            dlopen + dlsym + call + dlclose of V.so; the IR file is written
 *            before the clock starts; median (and best) of RUNS runs after one
 *            untimed one.
 * Prints "reload_us", "reload_best_us", "reloads", "clang_dlopen_ms",
 * "clang_dlopen_best_ms", "dlopen_us" (median of the dlopen+dlsym+call+dlclose
 * part alone), "runs".
 *   jit-reload-latency CLANG DIR [RELOADS [RUNS]]   (defaults 50 and 10) */

#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Jit.h"

#include "BenchClock.h"

#include <dlfcn.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

typedef long (*StepFn)(long);

static void die(const char *What, orc_rt_ErrorRef Err) {
  fprintf(stderr, "jit-reload-latency: error: %s: %s\n", What,
          Err ? orc_rt_Error_getMessage(Err) : "failed");
  exit(1);
}

/* Version V of the module: one function, step(x) = x * 3 + V. */
static size_t version(char *Buf, size_t Size, long V) {
  return (size_t)snprintf(Buf, Size,
                          "define i64 @step(i64 %%x) {\n"
                          "  %%m = mul i64 %%x, 3\n"
                          "  %%r = add i64 %%m, %ld\n"
                          "  ret i64 %%r\n"
                          "}\n",
                          V);
}

static void check(StepFn F, long V) {
  if (F(2) != 6 + V) {
    fprintf(stderr,
            "jit-reload-latency: error: version %ld gave a wrong "
            "answer\n",
            V);
    exit(1);
  }
}

/* One native reload of version V: clang to a .so, then dlopen + dlsym + call
 * + dlclose. Returns the whole time in seconds; *DlopenS gets the part after
 * clang. */
static double nativeReload(const char *Clang, const char *Dir, long V,
                           double *DlopenS) {
  char Ll[4096], So[4096], Buf[512];
  snprintf(Ll, sizeof(Ll), "%s/v%ld.ll", Dir, V);
  snprintf(So, sizeof(So), "%s/v%ld.so", Dir, V);
  size_t Len = version(Buf, sizeof(Buf), V);
  FILE *F = fopen(Ll, "wb");
  if (!F || fwrite(Buf, 1, Len, F) != Len || fclose(F))
    die(Ll, NULL);
  char *Args[] = {
      (char *)Clang, "-O2", "-shared", "-fPIC", "-Wno-override-module",
      "-x",          "ir",  Ll,        "-o",    So,
      NULL};
  double T0 = benchNow();
  pid_t Pid;
  int Status;
  if (posix_spawn(&Pid, Clang, NULL, NULL, Args, environ) ||
      waitpid(Pid, &Status, 0) != Pid || !WIFEXITED(Status) ||
      WEXITSTATUS(Status))
    die("running clang", NULL);
  double T1 = benchNow();
  void *H = dlopen(So, RTLD_NOW | RTLD_LOCAL);
  if (!H)
    die(dlerror(), NULL);
  void *Sym = dlsym(H, "step");
  if (!Sym)
    die(dlerror(), NULL);
  check((StepFn)(uintptr_t)Sym, V);
  dlclose(H);
  double T2 = benchNow();
  unlink(Ll);
  unlink(So);
  *DlopenS = T2 - T1;
  return T2 - T0;
}

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    fprintf(stderr, "usage: jit-reload-latency CLANG DIR [RELOADS [RUNS]]\n");
    return 2;
  }
  const char *Clang = Argv[1], *Dir = Argv[2];
  int Reloads = Argc > 3 ? atoi(Argv[3]) : 50;
  int Runs = Argc > 4 ? atoi(Argv[4]) : 10;
  if (Reloads < 1 || Runs < 1) {
    fprintf(stderr, "jit-reload-latency: error: RELOADS and RUNS must be at "
                    "least 1\n");
    return 1;
  }

  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  orc_rt_JitRef J;
  orc_rt_JitOptions Opts;
  orc_rt_JitOptions_init(&Opts);
  Opts.ObjectCacheDir = NULL; /* cache off */
  orc_rt_ErrorRef Err =
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL);
  if (Err || (Err = orc_rt_Jit_create(&J, S, &Opts)))
    die("setting up", Err);
  char Buf[512];
  size_t Len = version(Buf, sizeof(Buf), 0);
  orc_rt_JitModuleRef M;
  void *Entry;
  if ((Err = orc_rt_Jit_loadMemory(J, "step.ll", Buf, Len, &M)) ||
      (Err = orc_rt_JitModule_lookup(M, "step", &Entry)))
    die("loading", Err);
  StepFn F = (StepFn)(uintptr_t)Entry;
  check(F, 0);

  double *T =
      malloc(sizeof(double) * (size_t)(Reloads > Runs ? Reloads : Runs));
  if (!T)
    die("out of memory", NULL);
  long V = 1;
  for (int I = 0; I < 5 + Reloads; ++I, ++V) {
    Len = version(Buf, sizeof(Buf), V);
    double T0 = benchNow();
    if ((Err = orc_rt_JitModule_reloadMemory(M, Buf, Len)))
      die("reloading", Err);
    double Dt = benchNow() - T0;
    check(F, V);
    if (I >= 5)
      T[I - 5] = Dt;
  }
  double ReloadUs = benchMedian(T, Reloads) * 1e6, ReloadBestUs = T[0] * 1e6;
  orc_rt_JitModule_unload(M, NULL, NULL);

  double Dl, *DlT = malloc(sizeof(double) * (size_t)Runs);
  if (!DlT)
    die("out of memory", NULL);
  nativeReload(Clang, Dir, V++, &Dl); /* warm: clang's pages in the cache */
  for (int I = 0; I < Runs; ++I, ++V)
    T[I] = nativeReload(Clang, Dir, V, &DlT[I]);
  double NativeMs = benchMedian(T, Runs) * 1e3, NativeBestMs = T[0] * 1e3;
  printf("reload_us %.1f\nreload_best_us %.1f\nreloads %d\n"
         "clang_dlopen_ms %.2f\nclang_dlopen_best_ms %.2f\ndlopen_us %.1f\n"
         "runs %d\n",
         ReloadUs, ReloadBestUs, Reloads, NativeMs, NativeBestMs,
         benchMedian(DlT, Runs) * 1e6, Runs);
  free(T);
  free(DlT);
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
  return 0;
}
