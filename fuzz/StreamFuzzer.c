/*===- fuzz/StreamFuzzer.c - libFuzzer target: a whole message stream -----===*/
/*
 * ExecutorFuzzer.c splits the input with the framing code and calls wrappers
 * directly; it never runs the executor's own loop. This target does: each
 * input is a controller -> executor byte stream served, start to end, by
 * orc_rt_SimpleRemoteEPCServer_run on a fresh Session with TaskThreads and the
 * executor services, exactly as orc-executor serves a controller (reader loop,
 * Setup, dispatch of each CallWrapper as a managed call on its own thread,
 * Result delivery to JIT-dispatch callers, Hangup / EOF / protocol errors,
 * then the shutdown drain and the services' onShutdown).
 *
 * The fake transport: the input is put in a memfd the server reads as its InFD;
 * its OutFD is /dev/null (the server closes both when it disconnects).
 *
 * What is not hostile-safe is kept out: before the stream is served, the tag of
 * every CallWrapper whose header can be found is rewritten (from its value
 * modulo a table) to one of
 *  - a wrapper whose hostile input cannot touch memory the executor does not
 *    own (the same set as ExecutorFuzzer.c), with its instance argument
 *    patched to the real one;
 *  - a JIT-dispatch probe (a function of this file that calls the server's
 *    jit_dispatch, so Results in the stream have a caller to wake);
 *  - run_as_main / run_as_void / run_as_int with the entry point patched to a
 *    function of this file (run_as_main's checks the decoded argv);
 *  - address 0, a page-zero address or a data address (protocol errors).
 * Reserve, memory writes and finalize actions would run or write wherever the
 * input says, as they do for a real (trusted) controller.
 *
 * Messages after the first malformed header are fed unchanged: the server
 * stops at that header anyway.
 */

#include "orc-rt-c/RemoteExecutor.h"
#include "orc-rt-c/orc-rt.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static orc_rt_SimpleRemoteEPCServerRef CurrentSrv;
static char DataObject[64]; /* an address that is not code */

/* A "JIT'd function" calling back into the controller, as code in a JIT'd
 * program does through __llvm_orc_SimpleRemoteEPC_dispatch_fn. */
static orc_rt_CWrapperFunctionBuffer jitDispatchProbe(const char *Data,
                                                      size_t Size) {
  return orc_rt_SimpleRemoteEPCServer_jitDispatch(CurrentSrv, (void *)0x1234,
                                                  Data, Size);
}

/* Entry points for the run-as wrappers: the argv that run_as_main decodes must
 * be argc NUL-terminated strings and a NULL (ASan checks every byte read). */
static int fuzzMain(int Argc, char **Argv, char **Envp) {
  size_t Total = 0;
  for (int I = 0; I < Argc; ++I)
    Total += strlen(Argv[I]);
  if (Argv[Argc] != NULL || Envp == NULL || Envp[0] != NULL)
    __builtin_trap();
  return (int)(Total & 0x7f);
}
static int fuzzVoid(void) { return 42; }
static int fuzzInt(int X) { return X ^ 1; }
static const uint64_t FuzzMainAddr = (uint64_t)(uintptr_t)fuzzMain,
                      FuzzVoidAddr = (uint64_t)(uintptr_t)fuzzVoid,
                      FuzzIntAddr = (uint64_t)(uintptr_t)fuzzInt;

static uint64_t getLE64(const uint8_t *P) {
  uint64_t V = 0;
  for (int I = 0; I < 8; ++I)
    V |= (uint64_t)P[I] << (8 * I);
  return V;
}

static void putLE64(uint8_t *P, uint64_t V) {
  for (int I = 0; I < 8; ++I)
    P[I] = (uint8_t)(V >> (8 * I));
}

static uint64_t sym(orc_rt_ExecutorServicesRef ES, const char *Name) {
  size_t N;
  const orc_rt_BootstrapSymbol *Syms =
      orc_rt_ExecutorServices_getBootstrapSymbols(ES, &N);
  for (size_t I = 0; I < N; ++I)
    if (strcmp(Syms[I].Name, Name) == 0)
      return Syms[I].Addr;
  abort();
}

typedef struct {
  const char *Name;      /* a bootstrap symbol, or NULL */
  const uint64_t *Patch; /* patched over the first 8 payload bytes, or NULL */
  uint64_t Fixed;        /* the tag when Name is NULL */
} Target;

/* This session's instances, and the handle of the process (open of ""). */
static uint64_t MMInst, SMInst, ProcessHandle;

static void findInstances(orc_rt_ExecutorServicesRef ES) {
  MMInst = sym(ES, "__llvm_orc_SimpleExecutorMemoryManager_Instance");
  SMInst = sym(ES, "__llvm_orc_ExecutorSharedMemoryMapperService_Instance");
  char Args[24] = {0};
  uint64_t DMInst = sym(ES, "__llvm_orc_SimpleExecutorDylibManager_Instance");
  memcpy(Args, &DMInst, 8);
  orc_rt_CWrapperFunctionBuffer B = orc_rt_ExecutorServices_callWrapper(
      ES, sym(ES, "__llvm_orc_SimpleExecutorDylibManager_open_wrapper"), Args,
      sizeof(Args));
  if (B.Size != 9)
    abort();
  memcpy(&ProcessHandle, orc_rt_CWrapperFunctionBuffer_data(&B) + 1, 8);
  orc_rt_CWrapperFunctionBuffer_dispose(&B);
}

static void rewriteTags(orc_rt_ExecutorServicesRef ES, uint8_t *Buf,
                        size_t Size) {
  const Target Targets[] = {
      {"__llvm_orc_SimpleExecutorMemoryManager_initialize_wrapper", &MMInst, 0},
      {"__llvm_orc_SimpleExecutorMemoryManager_deinitialize_wrapper", &MMInst,
       0},
      {"__llvm_orc_SimpleExecutorMemoryManager_release_wrapper", &MMInst, 0},
      {"__llvm_orc_ExecutorSharedMemoryMapperService_Initialize", &SMInst, 0},
      {"__llvm_orc_ExecutorSharedMemoryMapperService_Deinitialize", &SMInst, 0},
      {"__llvm_orc_ExecutorSharedMemoryMapperService_Release", &SMInst, 0},
      {"__llvm_orc_SimpleExecutorDylibManager_resolve_wrapper", &ProcessHandle,
       0},
      {"__llvm_orc_bootstrap_mem_read_uint8s_wrapper", NULL, 0},
      {"__llvm_orc_bootstrap_mem_read_uint64s_wrapper", NULL, 0},
      {"__llvm_orc_bootstrap_mem_read_strings_wrapper", NULL, 0},
      {"__llvm_orc_bootstrap_mem_read_buffers_wrapper", NULL, 0},
      {NULL, NULL, (uint64_t)(uintptr_t)jitDispatchProbe},
      {NULL, NULL, (uint64_t)(uintptr_t)jitDispatchProbe},
      {NULL, NULL, 0},
      {NULL, NULL, 0x10},
      {NULL, NULL, (uint64_t)(uintptr_t)DataObject},
      /* The run-as wrappers, with the entry point patched to a function here.
       */
      {"__llvm_orc_bootstrap_run_as_main_wrapper", &FuzzMainAddr, 0},
      {"__llvm_orc_bootstrap_run_as_void_function_wrapper", &FuzzVoidAddr, 0},
      {"__llvm_orc_bootstrap_run_as_int_function_wrapper", &FuzzIntAddr, 0},
  };
  const size_t NumTargets = sizeof(Targets) / sizeof(Targets[0]);
  size_t Off = 0;
  while (Size - Off >= 32) {
    uint64_t MsgSize = getLE64(Buf + Off);
    uint64_t Opc = getLE64(Buf + Off + 8);
    if (MsgSize < 32 || Opc > 3)
      return;
    if (Opc == 3) {
      const Target *T = &Targets[getLE64(Buf + Off + 24) % NumTargets];
      putLE64(Buf + Off + 24, T->Name ? sym(ES, T->Name) : T->Fixed);
      if (T->Patch && MsgSize >= 40 && Size - Off >= 40)
        putLE64(Buf + Off + 32, *T->Patch);
    }
    if (MsgSize > Size - Off)
      return;
    Off += (size_t)MsgSize;
  }
}

static void ignoreError(orc_rt_ErrorRef Err, void *Ctx) {
  (void)Ctx;
  orc_rt_Error_consume(Err);
}

int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  orc_rt_TaskThreadsRef TT = orc_rt_TaskThreads_create();
  if (!TT)
    abort();
  orc_rt_SessionRef S;
  orc_rt_ExecutorServicesRef ES;
  if (orc_rt_Session_create(&S, orc_rt_TaskThreads_dispatch, TT, ignoreError,
                            NULL) ||
      orc_rt_ExecutorServices_create(&ES, S))
    abort();

  int In = memfd_create("stream", MFD_CLOEXEC);
  int Out = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (In < 0 || Out < 0)
    abort();
  orc_rt_SimpleRemoteEPCServerOptions SO = {In, Out, 0, 1 << 20};
  orc_rt_SimpleRemoteEPCServerRef Srv;
  if (orc_rt_SimpleRemoteEPCServer_create(&Srv, S, ES, &SO))
    abort();
  CurrentSrv = Srv;
  findInstances(ES);

  uint8_t *Buf = malloc(Size ? Size : 1);
  memcpy(Buf, Data, Size);
  rewriteTags(ES, Buf, Size);
  if (Size && write(In, Buf, Size) != (ssize_t)Size)
    abort();
  free(Buf);
  lseek(In, 0, SEEK_SET);

  orc_rt_Error_consume(orc_rt_SimpleRemoteEPCServer_run(Srv));
  /* As orc-executor: drain, then the services release their memory. */
  orc_rt_Error_consume(orc_rt_Session_waitForShutdown(S));
  orc_rt_Session_destroy(S);
  orc_rt_TaskThreads_waitAndDestroy(TT);
  orc_rt_SimpleRemoteEPCServer_destroy(Srv);
  CurrentSrv = NULL;
  return 0;
}
