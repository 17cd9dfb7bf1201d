/*===- lib/platform/Controller.c - Calls from the runtime to the controller ===*/
/*
 * JIT dispatch: the executor defines __orc_rt_jit_dispatch and
 * __orc_rt_jit_dispatch_ctx, the controller re-exports them into the platform
 * JITDylib and binds a handler to the address of each tag variable below.
 * A call blocks this thread until the controller answers; the result buffer
 * is ours to dispose.
 *
 *   push_initializers(SPSExecutorAddr Header)
 *     -> SPSExpected<SPSSequence<SPSTuple<SPSExecutorAddr,
 *                                         SPSSequence<SPSExecutorAddr>>>>
 *   symbol_lookup(SPSExecutorAddr Header, SPSString Name)
 *     -> SPSExpected<SPSExecutorAddr>
 */

#include "Platform.h"

#include "orc-rt-c/SPS.h"

#include <stdlib.h>
#include <string.h>

ORC_RT_PLATFORM_API char __orc_rt_elfnix_push_initializers_tag;
ORC_RT_PLATFORM_API char __orc_rt_elfnix_symbol_lookup_tag;

extern char __orc_rt_jit_dispatch_ctx;
extern orc_rt_CWrapperFunctionBuffer __orc_rt_jit_dispatch(void *Ctx,
                                                           const void *Tag,
                                                           const char *Data,
                                                           size_t Size);

/* Sends W's bytes to the handler bound to Tag; on success *Result holds the
 * answer and *R reads it (the reader views *Result's bytes). */
static orc_rt_ErrorRef call(const void *Tag, orc_rt_SPSWriter *W,
                            orc_rt_CWrapperFunctionBuffer *Result,
                            orc_rt_SPSReader *R) {
  if (W->Failed) {
    orc_rt_SPSWriter_dispose(W);
    return orc_rt_Error_create("out of memory encoding a controller call");
  }
  *Result =
      __orc_rt_jit_dispatch(&__orc_rt_jit_dispatch_ctx, Tag, W->Data, W->Size);
  orc_rt_SPSWriter_dispose(W);
  const char *OOB = orc_rt_CWrapperFunctionBuffer_getOutOfBandError(Result);
  if (OOB) {
    orc_rt_ErrorRef Err = orc_rt_Error_create(OOB);
    orc_rt_CWrapperFunctionBuffer_dispose(Result);
    return Err;
  }
  orc_rt_SPSReader_init(R, orc_rt_CWrapperFunctionBuffer_data(Result),
                        Result->Size);
  orc_rt_ErrorRef Err = NULL;
  if (!orc_rt_SPSReader_readExpectedHead(R, &Err)) {
    orc_rt_CWrapperFunctionBuffer_dispose(Result);
    return orc_rt_Error_create("could not decode the controller's answer");
  }
  if (Err)
    orc_rt_CWrapperFunctionBuffer_dispose(Result);
  return Err;
}

void orc_rt_platform_freeDepInfo(orc_rt_platform_DepInfo *Info, size_t N) {
  for (size_t I = 0; I < N; ++I)
    free(Info[I].Deps);
  free(Info);
}

orc_rt_ErrorRef orc_rt_platform_pushInitializers(void *Header,
                                                 orc_rt_platform_DepInfo **Info,
                                                 size_t *NumInfo) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)Header);
  orc_rt_CWrapperFunctionBuffer Result;
  orc_rt_SPSReader R;
  orc_rt_ErrorRef Err =
      call(&__orc_rt_elfnix_push_initializers_tag, &W, &Result, &R);
  if (Err)
    return Err;

  uint64_t N = 0;
  /* smallest entry: a header and an empty sequence, 16 bytes */
  orc_rt_SPSReader_readCount(&R, &N, 16);
  orc_rt_platform_DepInfo *DI = calloc(N ? N : 1, sizeof(*DI));
  if (!DI) {
    orc_rt_CWrapperFunctionBuffer_dispose(&Result);
    return orc_rt_Error_create("out of memory decoding initializer info");
  }
  size_t Done = 0;
  for (; Done < N && !R.Failed; ++Done) {
    uint64_t M = 0;
    orc_rt_SPSReader_readAddr(&R, &DI[Done].Header);
    if (!orc_rt_SPSReader_readCount(&R, &M, 8))
      break;
    DI[Done].Deps = malloc((M ? M : 1) * sizeof(uint64_t));
    if (!DI[Done].Deps) {
      R.Failed = true;
      break;
    }
    DI[Done].NumDeps = M;
    for (uint64_t J = 0; J < M; ++J)
      orc_rt_SPSReader_readAddr(&R, &DI[Done].Deps[J]);
  }
  bool Ok = !R.Failed && orc_rt_SPSReader_atEnd(&R);
  orc_rt_CWrapperFunctionBuffer_dispose(&Result);
  if (!Ok) {
    orc_rt_platform_freeDepInfo(DI, N); /* unfilled entries are NULL */
    return orc_rt_Error_create(
        "could not decode the controller's initializer info");
  }
  *Info = DI;
  *NumInfo = N;
  return NULL;
}

orc_rt_ErrorRef orc_rt_platform_lookupSymbol(void *Header, const char *Name,
                                             uint64_t *Addr) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, (uint64_t)(uintptr_t)Header);
  orc_rt_SPSWriter_appendString(&W, Name);
  orc_rt_CWrapperFunctionBuffer Result;
  orc_rt_SPSReader R;
  orc_rt_ErrorRef Err =
      call(&__orc_rt_elfnix_symbol_lookup_tag, &W, &Result, &R);
  if (Err)
    return Err;
  bool Ok = orc_rt_SPSReader_readAddr(&R, Addr) && orc_rt_SPSReader_atEnd(&R);
  orc_rt_CWrapperFunctionBuffer_dispose(&Result);
  return Ok ? NULL
            : orc_rt_Error_create("could not decode the controller's symbol "
                                  "address");
}
