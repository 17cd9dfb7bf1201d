/*===- fuzz/ExecutorFuzzer.c - libFuzzer target: framing + SPS decoding ---===*/
/*
 * The input is a controller -> executor byte stream. It is split into messages
 * by the executor's own framing code; every payload is decoded as each
 * structure the protocol uses (Setup, FinalizeRequest, lookup sets, address
 * sequences, ...) with the public SPS reader; and CallWrapper payloads are
 * handed to the memory-manager, shared-memory and dylib-manager wrappers whose
 * inputs can be hostile without touching memory the executor does not own (the
 * instance/handle argument is patched to the real one, no slab is ever
 * reserved, so every address in the input is rejected before use). Crashes,
 * hangs, leaks and sanitizer reports are bugs.
 */

#include "orc-rt-c/orc-rt.h"
#include "remote/Framing.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const uint8_t *P;
  size_t N;
} Source;

static long readMem(void *Ctx, char *Buf, size_t Size) {
  Source *S = Ctx;
  size_t K = Size < S->N ? Size : S->N;
  memcpy(Buf, S->P, K);
  S->P += K;
  S->N -= K;
  return (long)K;
}

/*---- Structure walkers over the public SPS reader ----*/

static void skipBytes(orc_rt_SPSReader *R) {
  const char *D;
  size_t L;
  orc_rt_SPSReader_readBytes(R, &D, &L);
}

static void walkSetup(orc_rt_SPSReader R) {
  uint64_t N, V;
  skipBytes(&R);
  orc_rt_SPSReader_readU64(&R, &V);
  if (orc_rt_SPSReader_readCount(&R, &N, 16))
    for (uint64_t I = 0; I < N && !R.Failed; ++I) {
      skipBytes(&R);
      skipBytes(&R);
    }
  if (orc_rt_SPSReader_readCount(&R, &N, 16))
    for (uint64_t I = 0; I < N && !R.Failed; ++I) {
      skipBytes(&R);
      orc_rt_SPSReader_readAddr(&R, &V);
    }
}

static void walkFinalizeRequest(orc_rt_SPSReader R, bool Shared) {
  uint64_t N, V;
  uint8_t U8;
  orc_rt_SPSReader_readAddr(&R, &V);
  if (orc_rt_SPSReader_readCount(&R, &N, Shared ? 17 : 25))
    for (uint64_t I = 0; I < N && !R.Failed; ++I) {
      orc_rt_SPSReader_readU8(&R, &U8);
      orc_rt_SPSReader_readAddr(&R, &V);
      orc_rt_SPSReader_readU64(&R, &V);
      if (!Shared)
        skipBytes(&R);
    }
  if (orc_rt_SPSReader_readCount(&R, &N, 32))
    for (uint64_t I = 0; I < N && !R.Failed; ++I)
      for (int K = 0; K < 2; ++K) {
        orc_rt_SPSReader_readAddr(&R, &V);
        skipBytes(&R);
      }
}

static void walkLookupSet(orc_rt_SPSReader R) {
  uint64_t N, V;
  bool B;
  orc_rt_SPSReader_readAddr(&R, &V);
  if (orc_rt_SPSReader_readCount(&R, &N, 9))
    for (uint64_t I = 0; I < N && !R.Failed; ++I) {
      skipBytes(&R);
      orc_rt_SPSReader_readBool(&R, &B);
    }
}

static void walkResults(orc_rt_SPSReader R) {
  orc_rt_ErrorRef E = NULL;
  orc_rt_SPSReader C = R;
  if (orc_rt_SPSReader_readError(&C, &E))
    orc_rt_Error_consume(E);
  C = R;
  if (orc_rt_SPSReader_readExpectedHead(&C, &E))
    orc_rt_Error_consume(E);
  uint64_t N, V;
  C = R;
  if (orc_rt_SPSReader_readCount(&C, &N, 1)) /* Sequence<String> */
    for (uint64_t I = 0; I < N && !C.Failed; ++I)
      skipBytes(&C);
  C = R;
  if (orc_rt_SPSReader_readCount(&C, &N, 16)) /* Sequence<AddrRange> */
    for (uint64_t I = 0; I < 2 * N && !C.Failed; ++I)
      orc_rt_SPSReader_readAddr(&C, &V);
}

/*---- The executor side ----*/

static orc_rt_SessionRef Sess;
static orc_rt_ExecutorServicesRef ES;
static uint64_t MMInst, SMInst, ProcessHandle;

static uint64_t sym(const char *Name) {
  size_t N;
  const orc_rt_BootstrapSymbol *Syms =
      orc_rt_ExecutorServices_getBootstrapSymbols(ES, &N);
  for (size_t I = 0; I < N; ++I)
    if (strcmp(Syms[I].Name, Name) == 0)
      return Syms[I].Addr;
  abort();
}

static void init(void) {
  orc_rt_TaskQueueRef Q = orc_rt_TaskQueue_create();
  if (orc_rt_Session_create(&Sess, orc_rt_TaskQueue_dispatch, Q, NULL, NULL) ||
      orc_rt_ExecutorServices_create(&ES, Sess))
    abort();
  MMInst = sym("__llvm_orc_SimpleExecutorMemoryManager_Instance");
  SMInst = sym("__llvm_orc_ExecutorSharedMemoryMapperService_Instance");
  char Args[24] = {0};
  uint64_t DMInst = sym("__llvm_orc_SimpleExecutorDylibManager_Instance");
  memcpy(Args, &DMInst, 8);
  orc_rt_CWrapperFunctionBuffer B = orc_rt_ExecutorServices_callWrapper(
      ES, sym("__llvm_orc_SimpleExecutorDylibManager_open_wrapper"), Args,
      sizeof(Args));
  if (B.Size != 9)
    abort();
  memcpy(&ProcessHandle, orc_rt_CWrapperFunctionBuffer_data(&B) + 1, 8);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
}

typedef struct {
  const char *Name;
  uint64_t *Patch; /* replaces the first 8 payload bytes */
} Target;

static void callTarget(uint64_t Tag, char *Payload, size_t Size) {
  static const Target Targets[] = {
      {"__llvm_orc_SimpleExecutorMemoryManager_initialize_wrapper", &MMInst},
      {"__llvm_orc_SimpleExecutorMemoryManager_deinitialize_wrapper", &MMInst},
      {"__llvm_orc_SimpleExecutorMemoryManager_release_wrapper", &MMInst},
      {"__llvm_orc_ExecutorSharedMemoryMapperService_Initialize", &SMInst},
      {"__llvm_orc_ExecutorSharedMemoryMapperService_Deinitialize", &SMInst},
      {"__llvm_orc_ExecutorSharedMemoryMapperService_Release", &SMInst},
      {"__llvm_orc_SimpleExecutorDylibManager_resolve_wrapper", &ProcessHandle},
      /* Reads at fuzzed addresses are safe (the kernel reports bad ones). The
       * first 8 bytes (the count) are left alone. */
      {"__llvm_orc_bootstrap_mem_read_uint8s_wrapper", NULL},
      {"__llvm_orc_bootstrap_mem_read_uint64s_wrapper", NULL},
      {"__llvm_orc_bootstrap_mem_read_strings_wrapper", NULL},
  };
  const Target *T = &Targets[Tag % (sizeof(Targets) / sizeof(Targets[0]))];
  if (Size >= 8 && T->Patch)
    memcpy(Payload, T->Patch, 8);
  orc_rt_CWrapperFunctionBuffer B =
      orc_rt_ExecutorServices_callWrapper(ES, sym(T->Name), Payload, Size);
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, orc_rt_CWrapperFunctionBuffer_data(&B), B.Size);
  walkResults(R);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
}

int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static int Initialized;
  if (!Initialized) {
    init();
    Initialized = 1;
  }
  Source Src = {Data, Size};
  for (;;) {
    orc_rt_internal_Message M;
    orc_rt_ErrorRef Err = NULL;
    orc_rt_internal_ReadStatus St =
        orc_rt_internal_readMessage(readMem, &Src, 1 << 20, &M, &Err);
    if (St != orc_rt_internal_Read_Message) {
      orc_rt_Error_consume(Err);
      break;
    }
    orc_rt_SPSReader R;
    orc_rt_SPSReader_init(&R, M.Payload, M.PayloadSize);
    walkSetup(R);
    walkFinalizeRequest(R, false);
    walkFinalizeRequest(R, true);
    walkLookupSet(R);
    walkResults(R);
    if (M.Opcode == orc_rt_internal_Opc_CallWrapper)
      callTarget(M.TagAddr, M.Payload, M.PayloadSize);
    free(M.Payload);
  }
  return 0;
}
