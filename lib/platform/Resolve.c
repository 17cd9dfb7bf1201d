/*===- lib/platform/Resolve.c - Lazy-compilation resolver -----------------===*/
/*
 * __orc_rt_resolve(Trampoline): asks the controller (JIT dispatch on
 * __orc_rt_resolve_tag: SPSExecutorAddr -> SPSExpected<SPSExecutorSymbolDef>,
 * a symbol def being SPSTuple<SPSExecutorAddr, SPSTuple<uint8_t, uint8_t>>)
 * for the body a lazy reentry trampoline stands for, materializing it if
 * needed. Called only by __orc_rt_sysv_reenter (Reenter.S). A failure cannot
 * be returned to the JIT'd caller, which believes it called the body: the
 * runtime reports it and aborts, as a dynamic linker does for an unresolvable
 * lazy symbol.
 */

#include "Platform.h"

#include "orc-rt-c/SPS.h"

#include <stdio.h>
#include <stdlib.h>

ORC_RT_PLATFORM_API char __orc_rt_resolve_tag;

extern char __orc_rt_jit_dispatch_ctx;
extern orc_rt_CWrapperFunctionBuffer __orc_rt_jit_dispatch(void *Ctx,
                                                           const void *Tag,
                                                           const char *Data,
                                                           size_t Size);

static void fail(void *Trampoline, const char *Msg) {
  fprintf(stderr, "error resolving implementation for stub %p: %s\n",
          Trampoline, Msg);
  abort();
}

void *__orc_rt_resolve(void *Trampoline) {
  char Arg[8];
  uint64_t A = (uint64_t)(uintptr_t)Trampoline;
  for (int I = 0; I < 8; ++I)
    Arg[I] = (char)(A >> (8 * I));
  orc_rt_CWrapperFunctionBuffer R = __orc_rt_jit_dispatch(
      &__orc_rt_jit_dispatch_ctx, &__orc_rt_resolve_tag, Arg, sizeof(Arg));
  const char *OOB = orc_rt_CWrapperFunctionBuffer_getOutOfBandError(&R);
  if (OOB)
    fail(Trampoline, OOB);
  orc_rt_SPSReader Rd;
  orc_rt_SPSReader_init(&Rd, orc_rt_CWrapperFunctionBuffer_data(&R), R.Size);
  orc_rt_ErrorRef Err = NULL;
  uint64_t Body = 0;
  uint8_t Flags[2];
  if (!orc_rt_SPSReader_readExpectedHead(&Rd, &Err))
    fail(Trampoline, "could not decode the controller's answer");
  if (Err)
    fail(Trampoline, orc_rt_Error_getMessage(Err));
  orc_rt_SPSReader_readAddr(&Rd, &Body);
  orc_rt_SPSReader_readU8(&Rd, &Flags[0]);
  orc_rt_SPSReader_readU8(&Rd, &Flags[1]);
  if (!orc_rt_SPSReader_atEnd(&Rd) || !Body)
    fail(Trampoline, "could not decode the controller's answer");
  orc_rt_CWrapperFunctionBuffer_dispose(&R);
  return (void *)(uintptr_t)Body;
}
