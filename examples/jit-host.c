/*===- examples/jit-host.c - The smallest host of orc-rt-c/Jit.h ----------===*/
/* Loads an LLVM IR module, gives it a host function, calls the module's `run`
 * through its entry, and unloads it; docs/Embedding.md walks through it.
 *   jit-host MODULE.ll [N]    (examples/jit-host-plugin.ll is one) */

#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Jit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* What the module may call: it declares `void host_print(ptr)`. */
static void hostPrint(const char *Msg) { printf("module says: %s\n", Msg); }

static void onFreed(void *Ctx) { printf("%s: code freed\n", (char *)Ctx); }

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    fprintf(stderr, "usage: jit-host MODULE.ll [N]\n");
    return 2;
  }
  orc_rt_SessionRef S;
  orc_rt_JitRef J;
  orc_rt_JitModuleRef M = NULL;
  void *Run = NULL;
  /* Tasks the Session hands out (none in this program) run on one thread. */
  orc_rt_ThreadPoolRef Pool;
  orc_rt_ErrorRef Err = orc_rt_ThreadPool_create(&Pool, 1);
  if (!Err)
    Err =
        orc_rt_Session_create(&S, orc_rt_ThreadPool_dispatch, Pool, NULL, NULL);
  if (Err) {
    fprintf(stderr, "jit-host: error: %s\n", orc_rt_Error_getMessage(Err));
    return 1;
  }
  /* The Jit belongs to S: freed by its shutdown, after every call is back. */
  if (!(Err = orc_rt_Jit_create(&J, S, NULL)) &&
      !(Err = orc_rt_Jit_addSymbol(J, "host_print",
                                   (void *)(uintptr_t)hostPrint)) &&
      !(Err = orc_rt_Jit_loadFile(J, Argv[1], &M)))
    Err = orc_rt_JitModule_lookup(M, "run", &Run);
  int Status = 0;
  if (Err) {
    fprintf(stderr, "jit-host: error: %s\n", orc_rt_Error_getMessage(Err));
    orc_rt_Error_consume(Err);
    Status = 1;
  } else {
    int N = Argc > 2 ? atoi(Argv[2]) : 14;
    printf("run(%d) = %d\n", N, ((int (*)(int))(uintptr_t)Run)(N));
    orc_rt_JitModule_unload(M, onFreed, Argv[1]); /* destructors run here */
  }
  orc_rt_Session_destroy(S); /* shutdown: what is still loaded goes too */
  orc_rt_ThreadPool_destroy(Pool);
  return Status;
}
