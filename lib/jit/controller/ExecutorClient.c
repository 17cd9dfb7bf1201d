/*===- lib/jit/controller/ExecutorClient.c - The controller's end of SimpleRemoteEPC ===*/

#include "jit/controller/ExecutorClient.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum { Opc_Setup = 0, Opc_Hangup = 1, Opc_Result = 2, Opc_CallWrapper = 3 };
enum { HeaderSize = 32 };

typedef struct {
  char *Name;
  uint64_t Addr;
} BootstrapSymbol;

struct orc_rt_jit_Executor {
  pid_t Pid;
  int ToExecutor, FromExecutor; /* our ends of the two pipes */
  pthread_mutex_t Lock;         /* one call at a time */
  uint64_t NextSeqNo;
  bool Disconnected;
  BootstrapSymbol *Symbols;
  size_t NumSymbols;
  /* The bootstrap functions and instances the calls below use. */
  uint64_t MemMgr, Reserve, Release, Initialize;
  uint64_t DylibMgr, Open, Resolve;
  uint64_t RunAsMain, RunAsVoid, RunAsInt;
};

/*---- Messages ----*/

static void putLE64(char *P, uint64_t V) {
  for (int I = 0; I < 8; ++I)
    P[I] = (char)(V >> (8 * I));
}

static uint64_t getLE64(const char *P) {
  uint64_t V = 0;
  for (int I = 0; I < 8; ++I)
    V |= (uint64_t)(unsigned char)P[I] << (8 * I);
  return V;
}

static bool writeAll(int FD, struct iovec *Iov, int N) {
  while (N > 0) {
    ssize_t W = writev(FD, Iov, N);
    if (W < 0 && errno == EINTR)
      continue;
    if (W <= 0)
      return false;
    size_t Left = (size_t)W;
    while (N > 0 && Left >= Iov->iov_len) {
      Left -= Iov->iov_len;
      ++Iov;
      --N;
    }
    if (N > 0) {
      Iov->iov_base = (char *)Iov->iov_base + Left;
      Iov->iov_len -= Left;
    }
  }
  return true;
}

static bool sendMessage(orc_rt_jit_Executor *E, uint64_t Opc, uint64_t SeqNo,
                        uint64_t Tag, const char *Data, size_t Size) {
  char H[HeaderSize];
  putLE64(H, HeaderSize + (uint64_t)Size);
  putLE64(H + 8, Opc);
  putLE64(H + 16, SeqNo);
  putLE64(H + 24, Tag);
  struct iovec Iov[2] = {{H, HeaderSize}, {(void *)Data, Size}};
  return writeAll(E->ToExecutor, Iov, Size ? 2 : 1);
}

/* Reads exactly Size bytes; false at EOF or on an error. */
static bool readAll(int FD, char *Buf, size_t Size) {
  while (Size) {
    ssize_t R = read(FD, Buf, Size);
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      return false;
    Buf += R;
    Size -= (size_t)R;
  }
  return true;
}

typedef struct {
  uint64_t Opc, SeqNo, Tag;
  char *Payload;
  size_t Size;
} Message;

/* The next message; false when the executor has gone (or sent garbage). */
static bool readMessage(orc_rt_jit_Executor *E, Message *M) {
  char H[HeaderSize];
  if (!readAll(E->FromExecutor, H, HeaderSize))
    return false;
  uint64_t Size = getLE64(H);
  M->Opc = getLE64(H + 8);
  M->SeqNo = getLE64(H + 16);
  M->Tag = getLE64(H + 24);
  if (Size < HeaderSize || M->Opc > Opc_CallWrapper ||
      Size - HeaderSize > (uint64_t)1 << 40)
    return false;
  M->Size = (size_t)(Size - HeaderSize);
  M->Payload = M->Size ? malloc(M->Size) : NULL;
  if (M->Size &&
      (!M->Payload || !readAll(E->FromExecutor, M->Payload, M->Size))) {
    free(M->Payload);
    return false;
  }
  return true;
}

/*---- Setup ----*/

/* How long an executor may take to send Setup: a program that is no ORC
 * executor and neither writes nor exits must not hang mini-lli. */
enum { SetupTimeoutMs = 60 * 1000 };

static orc_rt_ErrorRef readSetup(orc_rt_jit_Executor *E) {
  struct pollfd P = {E->FromExecutor, POLLIN, 0};
  int Ready;
  while ((Ready = poll(&P, 1, SetupTimeoutMs)) < 0 && errno == EINTR)
    ;
  if (Ready == 0) {
    kill(E->Pid, SIGKILL);
    return orc_rt_Error_createf("no Setup message in %d s",
                                SetupTimeoutMs / 1000);
  }
  Message M;
  if (!readMessage(E, &M))
    return orc_rt_Error_create("disconnecting");
  if (M.Opc != Opc_Setup || M.SeqNo || M.Tag) {
    free(M.Payload);
    return orc_rt_Error_create("Could not deserialize setup message");
  }
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, M.Payload, M.Size);
  const char *Str;
  size_t Len;
  uint64_t PageSize, NMap = 0, NSyms = 0;
  orc_rt_SPSReader_readBytes(&R, &Str, &Len); /* the triple */
  orc_rt_SPSReader_readU64(&R, &PageSize);
  orc_rt_SPSReader_readCount(&R, &NMap, 16);
  for (uint64_t I = 0; I < NMap; ++I) { /* the bootstrap map: unused */
    orc_rt_SPSReader_readBytes(&R, &Str, &Len);
    orc_rt_SPSReader_readBytes(&R, &Str, &Len);
  }
  orc_rt_SPSReader_readCount(&R, &NSyms, 16);
  E->Symbols = calloc(NSyms ? NSyms : 1, sizeof(*E->Symbols));
  for (uint64_t I = 0; E->Symbols && I < NSyms && !R.Failed; ++I) {
    uint64_t Addr = 0;
    if (!orc_rt_SPSReader_readBytes(&R, &Str, &Len) ||
        !orc_rt_SPSReader_readAddr(&R, &Addr))
      break;
    BootstrapSymbol *S = &E->Symbols[E->NumSymbols];
    if (!(S->Name = strndup(Str, Len)))
      break;
    S->Addr = Addr;
    ++E->NumSymbols;
  }
  bool Ok = E->Symbols && orc_rt_SPSReader_atEnd(&R);
  free(M.Payload);
  return Ok ? NULL : orc_rt_Error_create("Could not deserialize setup message");
}

uint64_t orc_rt_jit_Executor_bootstrapSymbol(orc_rt_jit_Executor *E,
                                             const char *Name) {
  for (size_t I = 0; I < E->NumSymbols; ++I)
    if (!strcmp(E->Symbols[I].Name, Name))
      return E->Symbols[I].Addr;
  return 0;
}

/* The bootstrap symbols the remote run uses, in lli's words if one is
 * missing. */
static orc_rt_ErrorRef findBootstrapSymbols(orc_rt_jit_Executor *E) {
  static const char Mem[] = "__llvm_orc_SimpleExecutorMemoryManager_";
  static const char Dylib[] = "__llvm_orc_SimpleExecutorDylibManager_";
  static const char Run[] = "__llvm_orc_bootstrap_run_as_";
  struct {
    const char *Prefix, *Name;
    uint64_t *Addr;
  } Wanted[] = {{Mem, "Instance", &E->MemMgr},
                {Mem, "reserve_wrapper", &E->Reserve},
                {Mem, "release_wrapper", &E->Release},
                {Mem, "initialize_wrapper", &E->Initialize},
                {Dylib, "Instance", &E->DylibMgr},
                {Dylib, "open_wrapper", &E->Open},
                {Dylib, "resolve_wrapper", &E->Resolve},
                {Run, "main_wrapper", &E->RunAsMain},
                {Run, "void_function_wrapper", &E->RunAsVoid},
                {Run, "int_function_wrapper", &E->RunAsInt}};
  for (size_t I = 0; I < sizeof(Wanted) / sizeof(Wanted[0]); ++I) {
    char Name[128];
    snprintf(Name, sizeof(Name), "%s%s", Wanted[I].Prefix, Wanted[I].Name);
    if (!(*Wanted[I].Addr = orc_rt_jit_Executor_bootstrapSymbol(E, Name)))
      return orc_rt_Error_createf(
          "Symbol \"%s\" not found in bootstrap symbols map", Name);
  }
  return NULL;
}

/*---- Launch and close ----*/

static orc_rt_ErrorRef spawnExecutor(orc_rt_jit_Executor *E, const char *Path) {
  int ToChild[2], FromChild[2];
  if (pipe2(ToChild, O_CLOEXEC))
    return orc_rt_Error_createf("cannot create a pipe: %s", strerror(errno));
  if (pipe2(FromChild, O_CLOEXEC)) {
    close(ToChild[0]);
    close(ToChild[1]);
    return orc_rt_Error_createf("cannot create a pipe: %s", strerror(errno));
  }
  char In[16], Out[16];
  snprintf(In, sizeof(In), "%d", ToChild[0]);
  snprintf(Out, sizeof(Out), "%d", FromChild[1]);
  char *Argv[] = {(char *)Path, In, Out, NULL};
  /* dup2 onto itself clears close-on-exec for the child's two ends only; the
   * child starts with default signal actions (mini-lli ignores SIGPIPE). */
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, ToChild[0], ToChild[0]);
  posix_spawn_file_actions_adddup2(&Actions, FromChild[1], FromChild[1]);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  sigset_t Default;
  sigemptyset(&Default);
  sigaddset(&Default, SIGPIPE);
  posix_spawnattr_setsigdefault(&Attr, &Default);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETSIGDEF);
  int Rc = posix_spawn(&E->Pid, Path, &Actions, &Attr, Argv, environ);
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  close(ToChild[0]);
  close(FromChild[1]);
  E->ToExecutor = ToChild[1];
  E->FromExecutor = FromChild[0];
  if (Rc) {
    E->Pid = 0;
    return orc_rt_Error_createf("unable to launch executor '%s': %s", Path,
                                strerror(Rc));
  }
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_Executor_launch(orc_rt_jit_Executor **Result,
                                           const char *Path) {
  orc_rt_jit_Executor *E = calloc(1, sizeof(*E));
  if (!E)
    return orc_rt_Error_create("out of memory");
  E->ToExecutor = E->FromExecutor = -1;
  pthread_mutex_init(&E->Lock, NULL);
  /* A write to an executor that has died fails with EPIPE instead. */
  signal(SIGPIPE, SIG_IGN);
  orc_rt_ErrorRef Err = spawnExecutor(E, Path);
  if (!Err && (Err = readSetup(E))) {
    int Status;
    orc_rt_jit_Executor_close(E, &Status);
    orc_rt_ErrorRef Why = Err;
    Err = orc_rt_Error_createf(
        "executor process '%s' did not start an ORC session (%s; %s %d): is it "
        "lli-child-target, llvm-jitlink-executor or orc-executor?",
        Path, orc_rt_Error_getMessage(Why),
        WIFSIGNALED(Status) ? "signal" : "exit status",
        WIFSIGNALED(Status) ? WTERMSIG(Status) : WEXITSTATUS(Status));
    orc_rt_Error_consume(Why);
    return Err;
  }
  if (!Err)
    Err = findBootstrapSymbols(E);
  if (Err) {
    int Status;
    orc_rt_jit_Executor_close(E, &Status);
    return Err;
  }
  *Result = E;
  return NULL;
}

void orc_rt_jit_Executor_close(orc_rt_jit_Executor *E, int *WaitStatus) {
  *WaitStatus = 0;
  if (E->ToExecutor >= 0)
    close(E->ToExecutor); /* the executor reads EOF and ends */
  if (E->FromExecutor >= 0)
    close(E->FromExecutor);
  while (E->Pid && waitpid(E->Pid, WaitStatus, 0) < 0 && errno == EINTR)
    ;
  for (size_t I = 0; I < E->NumSymbols; ++I)
    free(E->Symbols[I].Name);
  free(E->Symbols);
  pthread_mutex_destroy(&E->Lock);
  free(E);
}

/*---- Calls ----*/

bool orc_rt_jit_Executor_disconnected(orc_rt_jit_Executor *E) {
  pthread_mutex_lock(&E->Lock);
  bool D = E->Disconnected;
  pthread_mutex_unlock(&E->Lock);
  return D;
}

orc_rt_ErrorRef orc_rt_jit_Executor_call(orc_rt_jit_Executor *E, uint64_t Tag,
                                         const orc_rt_SPSWriter *Args,
                                         char **Out, size_t *OutSize) {
  *Out = NULL;
  *OutSize = 0;
  if (Args->Failed)
    return orc_rt_Error_create("out of memory");
  pthread_mutex_lock(&E->Lock);
  uint64_t SeqNo = E->NextSeqNo++;
  bool Ok = !E->Disconnected &&
            sendMessage(E, Opc_CallWrapper, SeqNo, Tag, Args->Data, Args->Size);
  while (Ok) {
    Message M;
    if (!readMessage(E, &M)) {
      Ok = false;
      break;
    }
    if (M.Opc == Opc_Result && M.SeqNo == SeqNo) {
      *Out = M.Payload;
      *OutSize = M.Size;
      break;
    }
    free(M.Payload);
    if (M.Opc == Opc_Hangup || M.Opc == Opc_Setup) {
      Ok = false;
    } else if (M.Opc == Opc_CallWrapper) {
      /* JIT dispatch: nothing JIT'd here calls back; an empty Result tells
       * the caller so instead of leaving it waiting. */
      Ok = sendMessage(E, Opc_Result, M.SeqNo, 0, NULL, 0);
    }
  }
  if (!Ok)
    E->Disconnected = true;
  pthread_mutex_unlock(&E->Lock);
  return Ok ? NULL : orc_rt_Error_create("disconnecting");
}

/* Calls Tag and reads its result with R (the payload is *Buf, to be freed). */
static orc_rt_ErrorRef callAndRead(orc_rt_jit_Executor *E, uint64_t Tag,
                                   orc_rt_SPSWriter *W, orc_rt_SPSReader *R,
                                   char **Buf) {
  size_t Size;
  orc_rt_ErrorRef Err = orc_rt_jit_Executor_call(E, Tag, W, Buf, &Size);
  orc_rt_SPSWriter_dispose(W);
  if (!Err)
    orc_rt_SPSReader_init(R, *Buf, Size);
  return Err;
}

static orc_rt_ErrorRef undecodable(void) {
  return orc_rt_Error_create(
      "Error deserializing return value from blob in call");
}

/* An SPSExpected<SPSExecutorAddr> result. */
static orc_rt_ErrorRef callForAddr(orc_rt_jit_Executor *E, uint64_t Tag,
                                   orc_rt_SPSWriter *W, uint64_t *Addr) {
  orc_rt_SPSReader R;
  char *Buf = NULL;
  orc_rt_ErrorRef Err = callAndRead(E, Tag, W, &R, &Buf);
  orc_rt_ErrorRef Remote = NULL;
  if (!Err && (!orc_rt_SPSReader_readExpectedHead(&R, &Remote) ||
               (!Remote && (!orc_rt_SPSReader_readAddr(&R, Addr) ||
                            !orc_rt_SPSReader_atEnd(&R)))))
    Err = undecodable();
  free(Buf);
  return Err ? Err : Remote;
}

/* An SPSError result. */
static orc_rt_ErrorRef callForError(orc_rt_jit_Executor *E, uint64_t Tag,
                                    orc_rt_SPSWriter *W) {
  orc_rt_SPSReader R;
  char *Buf = NULL;
  orc_rt_ErrorRef Err = callAndRead(E, Tag, W, &R, &Buf);
  orc_rt_ErrorRef Remote = NULL;
  if (!Err && !orc_rt_SPSReader_readError(&R, &Remote))
    Err = undecodable();
  free(Buf);
  return Err ? Err : Remote;
}

orc_rt_ErrorRef orc_rt_jit_Executor_reserve(orc_rt_jit_Executor *E,
                                            uint64_t Size, uint64_t *Addr) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, E->MemMgr);
  orc_rt_SPSWriter_appendU64(&W, Size);
  return callForAddr(E, E->Reserve, &W, Addr);
}

orc_rt_ErrorRef orc_rt_jit_Executor_release(orc_rt_jit_Executor *E,
                                            const uint64_t *Bases, size_t N) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, E->MemMgr);
  orc_rt_SPSWriter_appendU64(&W, N);
  for (size_t I = 0; I < N; ++I)
    orc_rt_SPSWriter_appendAddr(&W, Bases[I]);
  return callForError(E, E->Release, &W);
}

void orc_rt_jit_Executor_beginInitialize(orc_rt_jit_Executor *E,
                                         orc_rt_SPSWriter *W) {
  orc_rt_SPSWriter_init(W);
  orc_rt_SPSWriter_appendAddr(W, E->MemMgr);
}

orc_rt_ErrorRef orc_rt_jit_Executor_initialize(orc_rt_jit_Executor *E,
                                               orc_rt_SPSWriter *W) {
  uint64_t Key;
  return callForAddr(E, E->Initialize, W, &Key);
}

orc_rt_ErrorRef orc_rt_jit_Executor_open(orc_rt_jit_Executor *E,
                                         const char *Path, uint64_t *Handle) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, E->DylibMgr);
  orc_rt_SPSWriter_appendString(&W, Path);
  orc_rt_SPSWriter_appendU64(&W, 0); /* mode */
  return callForAddr(E, E->Open, &W, Handle);
}

orc_rt_ErrorRef orc_rt_jit_Executor_resolve(orc_rt_jit_Executor *E,
                                            uint64_t Handle,
                                            const char *const *Names, size_t N,
                                            uint64_t *Addrs) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, Handle);
  orc_rt_SPSWriter_appendU64(&W, N);
  for (size_t I = 0; I < N; ++I) {
    orc_rt_SPSWriter_appendString(&W, Names[I]);
    orc_rt_SPSWriter_appendBool(&W, false); /* weakly, as lli asks */
  }
  orc_rt_SPSReader R;
  char *Buf = NULL;
  orc_rt_ErrorRef Err = callAndRead(E, E->Resolve, &W, &R, &Buf);
  orc_rt_ErrorRef Remote = NULL;
  uint64_t Count = 0;
  if (!Err &&
      (!orc_rt_SPSReader_readExpectedHead(&R, &Remote) ||
       (!Remote && (!orc_rt_SPSReader_readCount(&R, &Count, 1) || Count != N))))
    Err = undecodable();
  for (size_t I = 0; !Err && !Remote && I < N; ++I) {
    bool Present = false;
    uint8_t Flags, TargetFlags;
    Addrs[I] = 0;
    if (!orc_rt_SPSReader_readBool(&R, &Present) ||
        (Present && (!orc_rt_SPSReader_readAddr(&R, &Addrs[I]) ||
                     !orc_rt_SPSReader_readU8(&R, &Flags) ||
                     !orc_rt_SPSReader_readU8(&R, &TargetFlags))))
      Err = undecodable();
  }
  free(Buf);
  return Err ? Err : Remote;
}

orc_rt_ErrorRef orc_rt_jit_Executor_runAsMain(orc_rt_jit_Executor *E,
                                              uint64_t Fn, int Argc,
                                              char *const *Args,
                                              int64_t *Result) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, Fn);
  orc_rt_SPSWriter_appendU64(&W, (uint64_t)Argc);
  for (int I = 0; I < Argc; ++I)
    orc_rt_SPSWriter_appendString(&W, Args[I]);
  orc_rt_SPSReader R;
  char *Buf = NULL;
  orc_rt_ErrorRef Err = callAndRead(E, E->RunAsMain, &W, &R, &Buf);
  if (!Err &&
      (!orc_rt_SPSReader_readI64(&R, Result) || !orc_rt_SPSReader_atEnd(&R)))
    Err = undecodable();
  free(Buf);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Executor_runAsInt(orc_rt_jit_Executor *E,
                                             uint64_t Fn, bool WithArg,
                                             int32_t Arg, int32_t *Result) {
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendAddr(&W, Fn);
  if (WithArg)
    orc_rt_SPSWriter_appendU32(&W, (uint32_t)Arg);
  orc_rt_SPSReader R;
  char *Buf = NULL;
  orc_rt_ErrorRef Err =
      callAndRead(E, WithArg ? E->RunAsInt : E->RunAsVoid, &W, &R, &Buf);
  if (!Err &&
      (!orc_rt_SPSReader_readI32(&R, Result) || !orc_rt_SPSReader_atEnd(&R)))
    Err = undecodable();
  free(Buf);
  return Err;
}
