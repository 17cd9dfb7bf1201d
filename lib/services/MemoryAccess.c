/*===- lib/services/MemoryAccess.c - Bootstrap memory read/write wrappers -===*/
/* Loads and stores at controller-given addresses. The reference does plain
 * loads and stores (a bad address crashes it); here the kernel does the access
 * (SafeCopy.h), so an unmapped or protected address becomes an OOB error (an
 * empty Result on the wire) instead of a crash. */

#include "services/MemoryAccess.h"
#include "services/SafeCopy.h"
#include "services/ServiceWire.h"
#include "support/FaultInjection.h"

#include <stdlib.h>
#include <string.h>

/* Largest single buffer or string read (a bound on what one
 * request may allocate). */
#define MAX_READ ((size_t)256 << 20)

static orc_rt_CWrapperFunctionBuffer badAddress(const char *What,
                                                uint64_t Addr) {
  return orc_rt_CWrapperFunctionBuffer_fromError(orc_rt_Error_createf(
      "%s: 0x%llx is not accessible", What, (unsigned long long)Addr));
}

/* void(Sequence<Tuple<Addr, uintN>>) for N = Bytes * 8. */
static orc_rt_CWrapperFunctionBuffer writeInts(const char *Data, size_t Size,
                                               unsigned Bytes) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t N;
  if (!orc_rt_SPSReader_readCount(&R, &N, 8 + Bytes) ||
      R.Remaining != N * (8 + Bytes))
    return orc_rt_internal_badArgs();
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Addr;
    const char *V;
    orc_rt_SPSReader_readAddr(&R, &Addr);
    /* Little-endian wire = host order. */
    orc_rt_SPSReader_readRaw(&R, Bytes, &V);
    if (!orc_rt_internal_safeWrite((void *)(uintptr_t)Addr, V, Bytes))
      return badAddress("mem_write", Addr);
  }
  return orc_rt_CWrapperFunctionBuffer_empty();
}

static orc_rt_CWrapperFunctionBuffer memWriteU8s(const char *D, size_t S) {
  return writeInts(D, S, 1);
}
static orc_rt_CWrapperFunctionBuffer memWriteU16s(const char *D, size_t S) {
  return writeInts(D, S, 2);
}
static orc_rt_CWrapperFunctionBuffer memWriteU32s(const char *D, size_t S) {
  return writeInts(D, S, 4);
}
static orc_rt_CWrapperFunctionBuffer memWriteU64s(const char *D, size_t S) {
  return writeInts(D, S, 8);
}
static orc_rt_CWrapperFunctionBuffer memWritePointers(const char *D, size_t S) {
  return writeInts(D, S, 8);
}

/* void(Sequence<Tuple<Addr, Sequence<char>>>): validated
 * completely before writing. */
static orc_rt_CWrapperFunctionBuffer memWriteBuffers(const char *Data,
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
    if (!orc_rt_internal_safeWrite((void *)(uintptr_t)Addr, B, L))
      return badAddress("mem_write_buffers", Addr);
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
    if (!orc_rt_internal_safeRead(&V, (const void *)(uintptr_t)Addr, Bytes)) {
      orc_rt_SPSWriter_dispose(&W);
      return badAddress("mem_read", Addr);
    }
    orc_rt_SPSWriter_appendRaw(&W, &V, Bytes); /* little-endian host */
  }
  return orc_rt_SPSWriter_finish(&W);
}

static orc_rt_CWrapperFunctionBuffer memReadU8s(const char *D, size_t S) {
  return readInts(D, S, 1);
}
static orc_rt_CWrapperFunctionBuffer memReadU16s(const char *D, size_t S) {
  return readInts(D, S, 2);
}
static orc_rt_CWrapperFunctionBuffer memReadU32s(const char *D, size_t S) {
  return readInts(D, S, 4);
}
static orc_rt_CWrapperFunctionBuffer memReadU64s(const char *D, size_t S) {
  return readInts(D, S, 8);
}
static orc_rt_CWrapperFunctionBuffer memReadPointers(const char *D, size_t S) {
  return readInts(D, S, 8);
}

/* Sequence<Sequence<uint8>>(Sequence<AddrRange>). */
static orc_rt_CWrapperFunctionBuffer memReadBuffers(const char *Data,
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
    if (End < Start || End - Start > MAX_READ) {
      orc_rt_SPSWriter_dispose(&W);
      return orc_rt_internal_badArgs();
    }
    size_t L = (size_t)(End - Start);
    char *Tmp = orc_rt_internal_malloc(L ? L : 1);
    if (!Tmp ||
        !orc_rt_internal_safeRead(Tmp, (const void *)(uintptr_t)Start, L)) {
      free(Tmp);
      orc_rt_SPSWriter_dispose(&W);
      return Tmp ? badAddress("mem_read_buffers", Start)
                 : orc_rt_CWrapperFunctionBuffer_fromErrorMessage(
                       "out of memory");
    }
    orc_rt_SPSWriter_appendBytes(&W, Tmp, L);
    free(Tmp);
  }
  return orc_rt_SPSWriter_finish(&W);
}

/* Sequence<String>(Sequence<Addr>): C strings, without the NUL. */
static orc_rt_CWrapperFunctionBuffer memReadStrings(const char *Data,
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
    const char *S = (const char *)(uintptr_t)Addr;
    size_t L;
    char *Tmp = NULL;
    if (!orc_rt_internal_safeStrlen(S, MAX_READ, &L) ||
        !(Tmp = orc_rt_internal_malloc(L ? L : 1)) ||
        !orc_rt_internal_safeRead(Tmp, S, L)) {
      free(Tmp);
      orc_rt_SPSWriter_dispose(&W);
      return badAddress("mem_read_strings", Addr);
    }
    orc_rt_SPSWriter_appendBytes(&W, Tmp, L);
    free(Tmp);
  }
  return orc_rt_SPSWriter_finish(&W);
}

/*---- The service ----*/

static const orc_rt_internal_ServiceFn Functions[] = {
    {"__llvm_orc_bootstrap_mem_write_uint8s_wrapper", memWriteU8s},
    {"__llvm_orc_bootstrap_mem_write_uint16s_wrapper", memWriteU16s},
    {"__llvm_orc_bootstrap_mem_write_uint32s_wrapper", memWriteU32s},
    {"__llvm_orc_bootstrap_mem_write_uint64s_wrapper", memWriteU64s},
    {"__llvm_orc_bootstrap_mem_write_pointers_wrapper", memWritePointers},
    {"__llvm_orc_bootstrap_mem_write_buffers_wrapper", memWriteBuffers},
    {"__llvm_orc_bootstrap_mem_read_uint8s_wrapper", memReadU8s},
    {"__llvm_orc_bootstrap_mem_read_uint16s_wrapper", memReadU16s},
    {"__llvm_orc_bootstrap_mem_read_uint32s_wrapper", memReadU32s},
    {"__llvm_orc_bootstrap_mem_read_uint64s_wrapper", memReadU64s},
    {"__llvm_orc_bootstrap_mem_read_pointers_wrapper", memReadPointers},
    {"__llvm_orc_bootstrap_mem_read_buffers_wrapper", memReadBuffers},
    {"__llvm_orc_bootstrap_mem_read_strings_wrapper", memReadStrings},
};

orc_rt_ErrorRef orc_rt_internal_addMemoryAccess(orc_rt_ExecutorServicesRef ES) {
  return orc_rt_internal_ExecutorServices_addFunctions(
      ES, Functions, sizeof(Functions) / sizeof(Functions[0]));
}
