/* A host of orc-rt-c/Jit.h with a Tiered Jit whose functions tier up after
 * one call: the library starts its compile thread, then joins it when the
 * module's tier-0 code is retired at the unload. Built by
 * test/install/a-host-built-with-address-sanitizer-runs-a-tiered-jit.test. */
#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Jit.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *IR = "define i32 @twice(i32 %x) {\n"
                        "  %r = mul i32 %x, 2\n"
                        "  ret i32 %r\n"
                        "}\n";

static int fail(orc_rt_ErrorRef Err) {
  fprintf(stderr, "tiered-host: error: %s\n", orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  return 1;
}

int main(void) {
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  orc_rt_SessionRef S;
  orc_rt_ErrorRef Err =
      orc_rt_Session_create(&S, orc_rt_TaskQueue_dispatch, Q, NULL, NULL);
  if (Err)
    return fail(Err);
  orc_rt_JitOptions O;
  orc_rt_JitOptions_init(&O);
  O.Tiered = true;
  O.TierUpThreshold = 1;
  orc_rt_JitRef J;
  orc_rt_JitModuleRef M;
  void *Fn;
  if ((Err = orc_rt_Jit_create(&J, S, &O)) ||
      (Err = orc_rt_Jit_loadMemory(J, "twice.ll", IR, strlen(IR), &M)) ||
      (Err = orc_rt_JitModule_lookup(M, "twice", &Fn)))
    return fail(Err);
  long Sum = 0;
  for (int I = 0; I < 100000; ++I)
    Sum += ((int (*)(int))(uintptr_t)Fn)(I % 100);
  orc_rt_JitModule_unload(M, NULL, NULL);
  orc_rt_Session_destroy(S);
  orc_rt_TaskQueue_destroy(Q);
  printf("sum %ld\n", Sum);
  return 0;
}
