/*===- examples/jit-hot-reload.c - Hot reload while threads call ----------===*/
/* Loads a module from a file, starts 4 threads that call its `step` nonstop,
 * then rewrites the file with version after version and reloads it each
 * time, one version being malformed; docs/Embedding.md ("Hot reload, step by
 * step") walks through it.
 *   jit-hot-reload FILE.ll    (this program writes FILE.ll itself) */

#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Jit.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Workers = 4, Versions = 4 };

/* Version K: step() returns K and counts its calls in @calls. Every version
 * declares @calls alike (name, type, alignment), so a reload keeps its
 * storage: the count goes on. The constructor and destructor tell the host. */
static const char *const Text =
    "declare void @host_event(i32)\n"
    "@calls = global i64 0, align 8\n"
    "define i32 @step() {\n"
    "  %%old = atomicrmw add ptr @calls, i64 1 monotonic\n"
    "  ret i32 %d\n}\n"
    "define internal void @ctor() {\n"
    "  call void @host_event(i32 %d)\n  ret void\n}\n"
    "define internal void @dtor() {\n"
    "  call void @host_event(i32 -%d)\n  ret void\n}\n"
    "@llvm.global_ctors = appending global [1 x {i32, ptr, ptr}]"
    " [{i32, ptr, ptr} {i32 65535, ptr @ctor, ptr null}]\n"
    "@llvm.global_dtors = appending global [1 x {i32, ptr, ptr}]"
    " [{i32, ptr, ptr} {i32 65535, ptr @dtor, ptr null}]\n";
static const char *const Broken = "define i32 @step() {\n  ret i32 oops\n}\n";

static void hostEvent(int V) {
  printf("version %d: %s ran\n", abs(V), V > 0 ? "constructor" : "destructor");
}

static void die(const char *What, orc_rt_ErrorRef Err) {
  fprintf(stderr, "jit-hot-reload: error: %s\n",
          Err ? orc_rt_Error_getMessage(Err) : What);
  exit(1);
}

/* Writes version K (0: the broken one) over the file at Path. */
static void writeVersion(const char *Path, int K) {
  FILE *F = fopen(Path, "w");
  if (!F) {
    fprintf(stderr, "jit-hot-reload: error: cannot write %s: %s\n", Path,
            strerror(errno));
    exit(1);
  }
  K ? fprintf(F, Text, K, K, K) : fputs(Broken, F);
  fclose(F);
}

typedef struct {
  pthread_t Thread;
  atomic_int Last;   /* the newest version this worker got */
  atomic_bool Wrong; /* it got an unknown version, or an older after a newer */
  long Calls;
} Worker;

static int (*Step)(void); /* the entry: the same pointer for every version */
static atomic_bool Stop;

static void *work(void *P) {
  Worker *W = P;
  while (!atomic_load(&Stop) && !atomic_load(&W->Wrong)) {
    int V = Step();
    ++W->Calls;
    if (V < atomic_load(&W->Last) || V > Versions)
      atomic_store(&W->Wrong, true);
    else
      atomic_store(&W->Last, V);
  }
  return NULL;
}

/* Returns once every worker has had an answer from version K. */
static void waitForAll(Worker *Ws, int K) {
  for (int I = 0; I < Workers; ++I)
    while (atomic_load(&Ws[I].Last) < K && !atomic_load(&Ws[I].Wrong))
      sched_yield();
}

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    fprintf(stderr, "usage: jit-hot-reload FILE.ll\n");
    return 2;
  }
  const char *Path = Argv[1];
  writeVersion(Path, 1);
  orc_rt_ThreadPoolRef Pool;
  orc_rt_SessionRef S;
  orc_rt_JitRef J;
  orc_rt_JitModuleRef M;
  void *Entry, *Calls;
  orc_rt_ErrorRef Err;
  if ((Err = orc_rt_ThreadPool_create(&Pool, 1)) ||
      (Err = orc_rt_Session_create(&S, orc_rt_ThreadPool_dispatch, Pool, NULL,
                                   NULL)) ||
      (Err = orc_rt_Jit_create(&J, S, NULL)) ||
      (Err = orc_rt_Jit_addSymbol(J, "host_event",
                                  (void *)(uintptr_t)hostEvent)) ||
      (Err = orc_rt_Jit_loadFile(J, Path, &M)) ||
      (Err = orc_rt_JitModule_lookup(M, "step", &Entry)) ||
      (Err = orc_rt_JitModule_lookup(M, "calls", &Calls)))
    die(NULL, Err);
  /* @calls is kept by every reload: its address stays valid until unload. */
  Step = (int (*)(void))(uintptr_t)Entry;

  Worker Ws[Workers] = {0};
  for (int I = 0; I < Workers; ++I)
    if (pthread_create(&Ws[I].Thread, NULL, work, &Ws[I]))
      die("cannot start a worker thread", NULL);
  waitForAll(Ws, 1);
  printf("%d workers calling step(), all at version 1\n", Workers);
  long MainCalls = 0;
  for (int K = 2; K <= Versions; ++K) {
    if (K == 3) { /* a broken file: the reload fails, nothing changes */
      writeVersion(Path, 0);
      if (!(Err = orc_rt_JitModule_reloadFile(M, Path)))
        die("the broken version was accepted", NULL);
      printf("reload failed: %s\n", orc_rt_Error_getMessage(Err));
      orc_rt_Error_consume(Err);
      ++MainCalls;
      printf("version %d keeps serving: step() = %d\n", K - 1, Step());
    }
    writeVersion(Path, K);
    if ((Err = orc_rt_JitModule_reloadFile(M, Path)))
      die(NULL, Err);
    ++MainCalls; /* once reloadFile returns, every new call runs version K */
    printf("reloaded version %d: step() = %d\n", K, Step());
    waitForAll(Ws, K);
  }
  atomic_store(&Stop, true);
  long Total = MainCalls;
  int InOrder = 0;
  for (int I = 0; I < Workers; ++I) {
    pthread_join(Ws[I].Thread, NULL);
    Total += Ws[I].Calls;
    InOrder +=
        !atomic_load(&Ws[I].Wrong) && atomic_load(&Ws[I].Last) == Versions;
  }
  long Counted = (long)*(int64_t *)Calls;
  printf("workers that got versions 1 to %d in order: %d of %d\n", Versions,
         InOrder, Workers);
  printf("calls made: %ld, counted by the module: %ld, lost: %ld\n", Total,
         Counted, Total - Counted);
  orc_rt_JitModule_unload(M, NULL, NULL); /* version 4's destructor runs */
  orc_rt_Session_destroy(S);
  orc_rt_ThreadPool_destroy(Pool);
  return InOrder == Workers && Counted == Total ? 0 : 1;
}
