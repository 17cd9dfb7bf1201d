/*===- fuzz/JitLoadFuzzer.c - libFuzzer target: orc_rt_Jit_loadMemory ----===*/
/*
 * The input is a module's bytes, given to orc_rt_Jit_loadMemory of one Jit
 * (made once, on a Session of its own; -O0 so that an iteration is quick),
 * and to orc_rt_JitModule_reloadMemory. Checked besides "no crash, no
 * sanitizer report" (leaks: run-fuzz.sh says why not):
 *  - a failed load is an error with a message that names the module, and a
 *    reload of a serving module with the same bytes fails too, leaving the
 *    old version serving (its answer unchanged);
 *  - a load that succeeds reloads from the same bytes (its variables kept)
 *    and gives a module that unloads (OnFreed runs at once: nothing is
 *    inside it).
 * Inputs that load run their constructors: the seeds have none, and a
 * mutation that makes one which never returns shows up as a timeout.
 */

#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Jit.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(C)                                                               \
  do {                                                                         \
    if (!(C))                                                                  \
      __builtin_trap();                                                        \
  } while (0)

static orc_rt_SessionRef S;
static orc_rt_TaskQueueRef Q;
static orc_rt_JitRef J;
static orc_rt_JitModuleRef Base; /* serves answer() = 42 between reloads */
static int (*Answer)(void);

static const char BaseIR[] = "@n = global i32 0\n"
                             "define i32 @answer() {\n"
                             "  ret i32 42\n"
                             "}\n";

static void shutdown(void) {
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
}

int LLVMFuzzerInitialize(int *Argc, char ***Argv) {
  (void)Argc, (void)Argv;
  Q = orc_rt_TaskQueue_create();
  orc_rt_JitOptions O;
  orc_rt_JitOptions_init(&O);
  O.OptLevel = 0;
  CHECK(
      Q &&
      !orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL) &&
      !orc_rt_Jit_create(&J, S, &O) &&
      !orc_rt_Jit_loadMemory(J, "base.ll", BaseIR, sizeof(BaseIR) - 1, &Base));
  void *Fn = NULL;
  CHECK(!orc_rt_JitModule_lookup(Base, "answer", &Fn));
  Answer = (int (*)(void))(uintptr_t)Fn;
  atexit(shutdown);
  return 0;
}

static void freed(void *Ctx) { *(bool *)Ctx = true; }

int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  orc_rt_JitModuleRef M = NULL;
  orc_rt_ErrorRef Err = orc_rt_Jit_loadMemory(J, "fuzz.ll", Data, Size, &M);
  if (Err) {
    const char *Msg = orc_rt_Error_getMessage(Err);
    CHECK(Msg && strstr(Msg, "fuzz.ll"));
    orc_rt_Error_consume(Err);
    Err = orc_rt_JitModule_reloadMemory(Base, Data, Size);
    CHECK(Err && strstr(orc_rt_Error_getMessage(Err), "base.ll"));
    orc_rt_Error_consume(Err);
    CHECK(Answer() == 42);
    return 0;
  }
  Err = orc_rt_JitModule_reloadMemory(M, Data, Size);
  CHECK(!Err);
  void *Addr;
  orc_rt_ErrorRef LookupErr = orc_rt_JitModule_lookup(M, "main", &Addr);
  orc_rt_Error_consume(LookupErr); /* may or may not be there */
  bool Freed = false;
  orc_rt_JitModule_unload(M, freed, &Freed);
  CHECK(Freed);
  orc_rt_TaskQueue_runAll(Q);
  return 0;
}
