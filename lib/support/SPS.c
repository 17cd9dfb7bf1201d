/*===- lib/support/SPS.c - SPS readers and writers ------------------------===*/
/* Bounds-checked little-endian decoding with a sticky failure
 * flag, and a growable encoder whose allocation failures are also
 * sticky (see orc-rt-c/SPS.h). */

#include "orc-rt-c/SPS.h"
#include "support/FaultInjection.h"

#include <stdlib.h>
#include <string.h>

/*---- Reader ----*/

void orc_rt_SPSReader_init(orc_rt_SPSReader *R, const char *Data, size_t Size) {
  R->Data = Data;
  R->Remaining = Data ? Size : 0;
  R->Failed = false;
}

static bool fail(orc_rt_SPSReader *R) {
  R->Failed = true;
  return false;
}

bool orc_rt_SPSReader_readRaw(orc_rt_SPSReader *R, size_t N,
                              const char **Data) {
  if (R->Failed || N > R->Remaining)
    return fail(R);
  if (Data)
    *Data = R->Data;
  R->Data += N;
  R->Remaining -= N;
  return true;
}

static bool readLE(orc_rt_SPSReader *R, unsigned Bytes, uint64_t *V) {
  const char *P;
  if (!orc_rt_SPSReader_readRaw(R, Bytes, &P))
    return false;
  uint64_t X = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    X |= (uint64_t)(unsigned char)P[I] << (8 * I);
  *V = X;
  return true;
}

bool orc_rt_SPSReader_readU8(orc_rt_SPSReader *R, uint8_t *V) {
  uint64_t X;
  if (!readLE(R, 1, &X))
    return false;
  *V = (uint8_t)X;
  return true;
}

bool orc_rt_SPSReader_readU16(orc_rt_SPSReader *R, uint16_t *V) {
  uint64_t X;
  if (!readLE(R, 2, &X))
    return false;
  *V = (uint16_t)X;
  return true;
}

bool orc_rt_SPSReader_readU32(orc_rt_SPSReader *R, uint32_t *V) {
  uint64_t X;
  if (!readLE(R, 4, &X))
    return false;
  *V = (uint32_t)X;
  return true;
}

bool orc_rt_SPSReader_readU64(orc_rt_SPSReader *R, uint64_t *V) {
  return readLE(R, 8, V);
}

bool orc_rt_SPSReader_readI32(orc_rt_SPSReader *R, int32_t *V) {
  uint32_t X;
  if (!orc_rt_SPSReader_readU32(R, &X))
    return false;
  memcpy(V, &X, sizeof(X)); /* two's complement reinterpretation */
  return true;
}

bool orc_rt_SPSReader_readI64(orc_rt_SPSReader *R, int64_t *V) {
  uint64_t X;
  if (!orc_rt_SPSReader_readU64(R, &X))
    return false;
  memcpy(V, &X, sizeof(X));
  return true;
}

bool orc_rt_SPSReader_readBool(orc_rt_SPSReader *R, bool *V) {
  uint8_t X;
  if (!orc_rt_SPSReader_readU8(R, &X))
    return false;
  *V = X != 0;
  return true;
}

bool orc_rt_SPSReader_readAddr(orc_rt_SPSReader *R, uint64_t *V) {
  return readLE(R, 8, V);
}

bool orc_rt_SPSReader_readCount(orc_rt_SPSReader *R, uint64_t *N,
                                size_t MinElemSize) {
  uint64_t X;
  if (!orc_rt_SPSReader_readU64(R, &X))
    return false;
  if (MinElemSize == 0)
    MinElemSize = 1;
  if (X > R->Remaining / MinElemSize)
    return fail(R);
  *N = X;
  return true;
}

bool orc_rt_SPSReader_readBytes(orc_rt_SPSReader *R, const char **Data,
                                size_t *Size) {
  uint64_t N;
  if (!orc_rt_SPSReader_readCount(R, &N, 1))
    return false;
  if (!orc_rt_SPSReader_readRaw(R, (size_t)N, Data))
    return false;
  *Size = (size_t)N;
  return true;
}

bool orc_rt_SPSReader_atEnd(const orc_rt_SPSReader *R) {
  return !R->Failed && R->Remaining == 0;
}

static orc_rt_ErrorRef errorFromBytes(const char *Data, size_t Size) {
  return orc_rt_Error_createf(
      "%.*s", (int)(Size > 0x7fffffff ? 0x7fffffff : Size), Data);
}

bool orc_rt_SPSReader_readError(orc_rt_SPSReader *R, orc_rt_ErrorRef *Err) {
  bool IsError;
  if (!orc_rt_SPSReader_readBool(R, &IsError))
    return false;
  *Err = NULL;
  if (!IsError)
    return true;
  const char *Msg;
  size_t Len;
  if (!orc_rt_SPSReader_readBytes(R, &Msg, &Len))
    return false;
  *Err = errorFromBytes(Msg, Len);
  return true;
}

bool orc_rt_SPSReader_readExpectedHead(orc_rt_SPSReader *R,
                                       orc_rt_ErrorRef *Err) {
  bool HasValue;
  if (!orc_rt_SPSReader_readBool(R, &HasValue))
    return false;
  *Err = NULL;
  if (HasValue)
    return true;
  const char *Msg;
  size_t Len;
  if (!orc_rt_SPSReader_readBytes(R, &Msg, &Len))
    return false;
  *Err = errorFromBytes(Msg, Len);
  return true;
}

/*---- Writer ----*/

void orc_rt_SPSWriter_init(orc_rt_SPSWriter *W) {
  W->Data = NULL;
  W->Size = W->Capacity = 0;
  W->Failed = false;
}

void orc_rt_SPSWriter_appendRaw(orc_rt_SPSWriter *W, const void *Data,
                                size_t Size) {
  if (W->Failed || Size == 0)
    return;
  if (Size > W->Capacity - W->Size) {
    if (Size > SIZE_MAX / 2 - W->Size) {
      W->Failed = true;
      return;
    }
    size_t NewCap = W->Capacity ? W->Capacity * 2 : 64;
    while (NewCap < W->Size + Size)
      NewCap *= 2;
    char *P = orc_rt_internal_realloc(W->Data, NewCap);
    if (!P) {
      W->Failed = true;
      return;
    }
    W->Data = P;
    W->Capacity = NewCap;
  }
  memcpy(W->Data + W->Size, Data, Size);
  W->Size += Size;
}

static void appendLE(orc_rt_SPSWriter *W, uint64_t V, unsigned Bytes) {
  unsigned char B[8];
  for (unsigned I = 0; I < Bytes; ++I)
    B[I] = (unsigned char)(V >> (8 * I));
  orc_rt_SPSWriter_appendRaw(W, B, Bytes);
}

void orc_rt_SPSWriter_appendU8(orc_rt_SPSWriter *W, uint8_t V) {
  appendLE(W, V, 1);
}
void orc_rt_SPSWriter_appendU16(orc_rt_SPSWriter *W, uint16_t V) {
  appendLE(W, V, 2);
}
void orc_rt_SPSWriter_appendU32(orc_rt_SPSWriter *W, uint32_t V) {
  appendLE(W, V, 4);
}
void orc_rt_SPSWriter_appendU64(orc_rt_SPSWriter *W, uint64_t V) {
  appendLE(W, V, 8);
}
void orc_rt_SPSWriter_appendBool(orc_rt_SPSWriter *W, bool V) {
  appendLE(W, V, 1);
}
void orc_rt_SPSWriter_appendAddr(orc_rt_SPSWriter *W, uint64_t V) {
  appendLE(W, V, 8);
}

void orc_rt_SPSWriter_appendBytes(orc_rt_SPSWriter *W, const char *Data,
                                  size_t Size) {
  orc_rt_SPSWriter_appendU64(W, Size);
  orc_rt_SPSWriter_appendRaw(W, Data, Size);
}

void orc_rt_SPSWriter_appendString(orc_rt_SPSWriter *W, const char *S) {
  orc_rt_SPSWriter_appendBytes(W, S, strlen(S));
}

void orc_rt_SPSWriter_appendError(orc_rt_SPSWriter *W, orc_rt_ErrorRef Err) {
  orc_rt_SPSWriter_appendBool(W, Err != NULL);
  if (Err) {
    orc_rt_SPSWriter_appendString(W, orc_rt_Error_getMessage(Err));
    orc_rt_Error_consume(Err);
  }
}

void orc_rt_SPSWriter_appendExpectedValueHead(orc_rt_SPSWriter *W) {
  orc_rt_SPSWriter_appendBool(W, true);
}

void orc_rt_SPSWriter_appendExpectedError(orc_rt_SPSWriter *W,
                                          orc_rt_ErrorRef Err) {
  orc_rt_SPSWriter_appendBool(W, false);
  orc_rt_SPSWriter_appendString(W, orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
}

orc_rt_CWrapperFunctionBuffer orc_rt_SPSWriter_finish(orc_rt_SPSWriter *W) {
  orc_rt_CWrapperFunctionBuffer B;
  if (W->Failed) {
    B = orc_rt_CWrapperFunctionBuffer_fromErrorMessage("out of memory");
  } else if (W->Size <= sizeof(B.Data.Value)) {
    B = orc_rt_CWrapperFunctionBuffer_copy(W->Data, W->Size);
  } else {
    B = orc_rt_CWrapperFunctionBuffer_empty();
    B.Data.ValuePtr = W->Data; /* ownership moves to the buffer */
    B.Size = W->Size;
    W->Data = NULL;
  }
  orc_rt_SPSWriter_dispose(W);
  return B;
}

void orc_rt_SPSWriter_dispose(orc_rt_SPSWriter *W) {
  free(W->Data);
  orc_rt_SPSWriter_init(W);
}

/*---- Whole results ----*/

orc_rt_CWrapperFunctionBuffer orc_rt_SPS_errorResult(orc_rt_ErrorRef Err) {
  /* Success is one byte, held inline: saying "it worked" never allocates, so
   * an action that succeeded cannot be reported as failed for want of memory
   * (its dealloc would then never run). */
  if (!Err)
    return orc_rt_CWrapperFunctionBuffer_copy("", 1);
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendError(&W, Err);
  return orc_rt_SPSWriter_finish(&W);
}

orc_rt_CWrapperFunctionBuffer
orc_rt_SPS_expectedErrorResult(orc_rt_ErrorRef Err) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendExpectedError(&W, Err);
  return orc_rt_SPSWriter_finish(&W);
}

orc_rt_CWrapperFunctionBuffer orc_rt_SPS_expectedAddrResult(uint64_t Addr) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendExpectedValueHead(&W);
  orc_rt_SPSWriter_appendAddr(&W, Addr);
  return orc_rt_SPSWriter_finish(&W);
}

orc_rt_ErrorRef orc_rt_SPS_takeErrorResult(orc_rt_CWrapperFunctionBuffer *B) {
  const char *OOB = orc_rt_CWrapperFunctionBuffer_getOutOfBandError(B);
  if (OOB) {
    orc_rt_ErrorRef Err = orc_rt_Error_create(OOB);
    orc_rt_CWrapperFunctionBuffer_dispose(B);
    return Err;
  }
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, orc_rt_CWrapperFunctionBuffer_data(B), B->Size);
  orc_rt_ErrorRef Err = NULL;
  if (!orc_rt_SPSReader_readError(&R, &Err) || !orc_rt_SPSReader_atEnd(&R)) {
    orc_rt_Error_consume(Err);
    Err = orc_rt_Error_create(
        "Could not deserialize result from serialized wrapper function call");
  }
  orc_rt_CWrapperFunctionBuffer_dispose(B);
  return Err;
}
