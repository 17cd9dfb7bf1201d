/*===- unittests/JitFixture.h - A Session, a task queue and a Jit ---------===*/
/* What the host JIT's tests (JitTest.c, JitReloadTest.c) share: a fresh
 * Session with a Jit per case, loading from IR text, and a log the modules'
 * code writes to through a host symbol. Each file is built three times:
 * also with JIT_TEST_LAZY (JitLazyTest, JitLazyReloadTest), where the
 * fixture's Jit compiles each function on its first call, and with
 * JIT_TEST_TIERED (JitTieredTest, JitTieredReloadTest), where it tiers up
 * after one call. The same rules must hold: the options change when and how
 * code is compiled, nothing else. */

#ifndef ORC_RT_C_UNITTESTS_JITFIXTURE_H
#define ORC_RT_C_UNITTESTS_JITFIXTURE_H

#include "TestUtil.h"

#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Jit.h"
#include "orc-rt-c/Session.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  orc_rt_SessionRef S;
  orc_rt_TaskQueueRef Q;
  orc_rt_JitRef J;
} Fixture;

#ifndef JIT_TEST_LAZY
#define JIT_TEST_LAZY 0
#endif

#ifndef JIT_TEST_TIERED
#define JIT_TEST_TIERED 0
#endif

/* The options of the fixture's Jit: the defaults; Lazy in the lazy build;
 * Tiered in the tiered build, where a function moves to tier 1 after its
 * first call (so that the cases run across tier-ups). */
static inline void testOptions(orc_rt_JitOptions *O) {
  orc_rt_JitOptions_init(O);
  O->Lazy = JIT_TEST_LAZY;
  O->Tiered = JIT_TEST_TIERED;
  O->TierUpThreshold = JIT_TEST_TIERED ? 1 : 0;
}

static inline int setUp(void **State) {
  Fixture *F = calloc(1, sizeof(*F));
  F->Q = orc_rt_TaskQueue_create();
  assert_null(orc_rt_Session_create(&F->S, orc_rt_TaskQueue_dispatch, F->Q,
                                    NULL, NULL));
  orc_rt_JitOptions O;
  testOptions(&O);
  assert_null(orc_rt_Jit_create(&F->J, F->S, &O));
  *State = F;
  return 0;
}

static inline int tearDown(void **State) {
  Fixture *F = *State;
  if (F->S) /* (a case may have destroyed it) */
    orc_rt_Session_destroy(F->S);
  orc_rt_TaskQueue_destroy(F->Q);
  free(F);
  return 0;
}

static inline orc_rt_JitModuleRef load(Fixture *F, const char *Name,
                                       const char *IR) {
  orc_rt_JitModuleRef M = NULL;
  orc_rt_ErrorRef Err = orc_rt_Jit_loadMemory(F->J, Name, IR, strlen(IR), &M);
  if (Err)
    fail_msg("%s", orc_rt_Error_getMessage(Err));
  return M;
}

/* The entry of M's function Name; the test fails if there is none. */
static inline void *entry(orc_rt_JitModuleRef M, const char *Name) {
  void *Fn = NULL;
  orc_rt_ErrorRef Err = orc_rt_JitModule_lookup(M, Name, &Fn);
  if (Err)
    fail_msg("%s", orc_rt_Error_getMessage(Err));
  return Fn;
}

/* A stale-call handler for one thread's test: notes "FUNCTION in MODULE" in
 * StaleWhat and jumps back to StaleJump (a handler must not return). */
static jmp_buf StaleJump;
static char StaleWhat[256];
static inline void onStale(const char *Function, const char *Module,
                           void *Ctx) {
  (void)Ctx;
  snprintf(StaleWhat, sizeof(StaleWhat), "%s in %s", Function, Module);
  longjmp(StaleJump, 1);
}

/* A Session error reporter that keeps the last message in Reported. */
static char Reported[512];
static inline void reportTo(orc_rt_ErrorRef Err, void *Ctx) {
  (void)Ctx;
  snprintf(Reported, sizeof(Reported), "%s", orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
}

/* Turns the (empty) directory Dir into a file: nothing can be written in it
 * (as root too, which file modes would not stop). */
static inline void blockDir(const char *Dir) {
  assert_int_equal(rmdir(Dir), 0);
  FILE *Blocker = fopen(Dir, "w");
  assert_non_null(Blocker);
  fclose(Blocker);
}

/* Removes a test's cache directory and what is in it. */
static inline void removeDir(const char *Dir) {
  char Cmd[600];
  snprintf(Cmd, sizeof(Cmd), "rm -rf '%s'", Dir);
  assert_int_equal(system(Cmd), 0);
}

/* What the modules' code told the host, in order. */
static char Log[1024];
static inline void record(const char *What) {
  strncat(Log, What, sizeof(Log) - strlen(Log) - 1);
  strncat(Log, " ", sizeof(Log) - strlen(Log) - 1);
}

#endif
