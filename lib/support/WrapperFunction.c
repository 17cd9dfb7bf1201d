/*===- lib/support/WrapperFunction.c - Wrapper-function buffers -----------===*/
/* The inline / heap / OOB-error cases of orc_rt_CWrapperFunctionBuffer. */

#include "orc-rt-c/WrapperFunction.h"
#include "support/FaultInjection.h"

#include <stdlib.h>
#include <string.h>

static char OutOfMemoryMsg[] = "out of memory";

orc_rt_CWrapperFunctionBuffer orc_rt_CWrapperFunctionBuffer_empty(void) {
  orc_rt_CWrapperFunctionBuffer B;
  memset(&B, 0, sizeof(B));
  return B;
}

/* An OOB error whose message could not be allocated: a heap copy is still
 * needed because the receiver frees it, so fall back to a tiny malloc and,
 * failing that, to an empty buffer (the caller sees "no result", which
 * every decoder rejects). */
static orc_rt_CWrapperFunctionBuffer outOfMemory(void) {
  orc_rt_CWrapperFunctionBuffer B = orc_rt_CWrapperFunctionBuffer_empty();
  B.Data.ValuePtr = orc_rt_internal_strdup(OutOfMemoryMsg);
  return B;
}

char *orc_rt_CWrapperFunctionBuffer_allocate(orc_rt_CWrapperFunctionBuffer *B,
                                             size_t Size) {
  *B = orc_rt_CWrapperFunctionBuffer_empty();
  if (Size <= sizeof(B->Data.Value)) {
    B->Size = Size;
    return B->Data.Value;
  }
  char *P = orc_rt_internal_malloc(Size);
  if (!P) {
    *B = outOfMemory();
    return NULL;
  }
  B->Data.ValuePtr = P;
  B->Size = Size;
  return P;
}

orc_rt_CWrapperFunctionBuffer
orc_rt_CWrapperFunctionBuffer_copy(const char *Data, size_t Size) {
  orc_rt_CWrapperFunctionBuffer B;
  char *P = orc_rt_CWrapperFunctionBuffer_allocate(&B, Size);
  if (P && Size)
    memcpy(P, Data, Size);
  return B;
}

orc_rt_CWrapperFunctionBuffer
orc_rt_CWrapperFunctionBuffer_fromErrorMessage(const char *Msg) {
  orc_rt_CWrapperFunctionBuffer B = orc_rt_CWrapperFunctionBuffer_empty();
  B.Data.ValuePtr = orc_rt_internal_strdup(Msg ? Msg : "");
  return B.Data.ValuePtr ? B : outOfMemory();
}

orc_rt_CWrapperFunctionBuffer
orc_rt_CWrapperFunctionBuffer_fromError(orc_rt_ErrorRef Err) {
  orc_rt_CWrapperFunctionBuffer B =
      orc_rt_CWrapperFunctionBuffer_fromErrorMessage(
          orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  return B;
}

const char *
orc_rt_CWrapperFunctionBuffer_data(const orc_rt_CWrapperFunctionBuffer *B) {
  if (B->Size == 0)
    return NULL;
  return B->Size <= sizeof(B->Data.Value) ? B->Data.Value : B->Data.ValuePtr;
}

const char *orc_rt_CWrapperFunctionBuffer_getOutOfBandError(
    const orc_rt_CWrapperFunctionBuffer *B) {
  return B->Size == 0 ? B->Data.ValuePtr : NULL;
}

void orc_rt_CWrapperFunctionBuffer_dispose(orc_rt_CWrapperFunctionBuffer *B) {
  if (B->Size > sizeof(B->Data.Value) || B->Size == 0)
    free(B->Data.ValuePtr);
  *B = orc_rt_CWrapperFunctionBuffer_empty();
}
