/*===- lib/services/MemoryAccess.c - Bootstrap memory read/write wrappers -===*/
/* Plain loads and stores at controller-given addresses (as the reference: the addresses
 * are the controller's responsibility). Only the argument bytes are validated. */

#include "services/Services.h"

#include <string.h>

/* void(Sequence<Tuple<Addr, uintN>>) for N = Bytes * 8. */
static orc_rt_CWrapperFunctionBuffer writeInts(const char *Data, size_t Size,
                                               unsigned Bytes) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t N;
  if (!orc_rt_SPSReader_readCount(&R, &N, 8 + Bytes) || R.Remaining != N * (8 + Bytes))
    return orc_rt_internal_badArgs();
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Addr, V = 0;
    orc_rt_SPSReader_readAddr(&R, &Addr);
    switch (Bytes) {
    case 1: {
      uint8_t X;
      orc_rt_SPSReader_readU8(&R, &X);
      *(volatile uint8_t *)(uintptr_t)Addr = X;
      break;
    }
    case 2: {
      uint16_t X;
      orc_rt_SPSReader_readU16(&R, &X);
      memcpy((void *)(uintptr_t)Addr, &X, 2);
      break;
    }
    case 4: {
      uint32_t X;
      orc_rt_SPSReader_readU32(&R, &X);
      memcpy((void *)(uintptr_t)Addr, &X, 4);
      break;
    }
    default:
      orc_rt_SPSReader_readU64(&R, &V);
      memcpy((void *)(uintptr_t)Addr, &V, 8);
    }
  }
  return orc_rt_CWrapperFunctionBuffer_empty();
}

orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteU8s(const char *D, size_t S) {
  return writeInts(D, S, 1);
}
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteU16s(const char *D, size_t S) {
  return writeInts(D, S, 2);
}
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteU32s(const char *D, size_t S) {
  return writeInts(D, S, 4);
}
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteU64s(const char *D, size_t S) {
  return writeInts(D, S, 8);
}
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWritePointers(const char *D, size_t S) {
  return writeInts(D, S, 8);
}

/* void(Sequence<Tuple<Addr, Sequence<char>>>): validated completely before writing. */
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memWriteBuffers(const char *Data,
                                                              size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t N;
  if (!orc_rt_SPSReader_readCount(&R, &N, 16))
    return orc_rt_internal_badArgs();
  orc_rt_SPSReader Check = R;
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Addr;
    const char *B;
    size_t L;
    orc_rt_SPSReader_readAddr(&Check, &Addr);
    orc_rt_SPSReader_readBytes(&Check, &B, &L);
  }
  if (Check.Failed)
    return orc_rt_internal_badArgs();
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Addr;
    const char *B;
    size_t L;
    orc_rt_SPSReader_readAddr(&R, &Addr);
    orc_rt_SPSReader_readBytes(&R, &B, &L);
    if (L)
      memcpy((void *)(uintptr_t)Addr, B, L);
  }
  return orc_rt_CWrapperFunctionBuffer_empty();
}

/* Sequence<uintN>(Sequence<Addr>). */
static orc_rt_CWrapperFunctionBuffer readInts(const char *Data, size_t Size,
                                              unsigned Bytes) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t N;
  if (!orc_rt_SPSReader_readCount(&R, &N, 8))
    return orc_rt_internal_badArgs();
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendU64(&W, N);
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Addr, V = 0;
    orc_rt_SPSReader_readAddr(&R, &Addr);
    memcpy(&V, (const void *)(uintptr_t)Addr, Bytes); /* little-endian host */
    orc_rt_SPSWriter_appendRaw(&W, &V, Bytes);
  }
  return orc_rt_SPSWriter_finish(&W);
}

orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadU8s(const char *D, size_t S) {
  return readInts(D, S, 1);
}
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadU16s(const char *D, size_t S) {
  return readInts(D, S, 2);
}
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadU32s(const char *D, size_t S) {
  return readInts(D, S, 4);
}
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadU64s(const char *D, size_t S) {
  return readInts(D, S, 8);
}
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadPointers(const char *D, size_t S) {
  return readInts(D, S, 8);
}

/* Sequence<Sequence<uint8>>(Sequence<AddrRange>). */
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadBuffers(const char *Data,
                                                             size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t N;
  if (!orc_rt_SPSReader_readCount(&R, &N, 16))
    return orc_rt_internal_badArgs();
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendU64(&W, N);
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Start, End;
    orc_rt_SPSReader_readAddr(&R, &Start);
    orc_rt_SPSReader_readAddr(&R, &End);
    if (End < Start || End - Start > SIZE_MAX / 2) {
      orc_rt_SPSWriter_dispose(&W);
      return orc_rt_internal_badArgs();
    }
    orc_rt_SPSWriter_appendBytes(&W, (const char *)(uintptr_t)Start,
                                 (size_t)(End - Start));
  }
  return orc_rt_SPSWriter_finish(&W);
}

/* Sequence<String>(Sequence<Addr>): C strings, without the NUL. */
orc_rt_CWrapperFunctionBuffer orc_rt_internal_memReadStrings(const char *Data,
                                                             size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t N;
  if (!orc_rt_SPSReader_readCount(&R, &N, 8))
    return orc_rt_internal_badArgs();
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendU64(&W, N);
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Addr;
    orc_rt_SPSReader_readAddr(&R, &Addr);
    orc_rt_SPSWriter_appendString(&W, (const char *)(uintptr_t)Addr);
  }
  return orc_rt_SPSWriter_finish(&W);
}
