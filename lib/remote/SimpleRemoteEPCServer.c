/*===- lib/remote/SimpleRemoteEPCServer.c - The executor's protocol loop --===*/
/*
 * One reader (the thread in run) and any number of senders (call tasks replying
 * with Results, JIT'd code making JIT-dispatch calls).
 *
 * Locks:
 *  - WriteLock serialises whole messages on OutFD (a header and its
 *    payload stay contiguous) and guards Closed: once the read loop has
 *    ended the fds are closed under it, so no sender writes to a closed
 *    (possibly reused) descriptor.
 *  - Lock guards the JIT-dispatch table (NextSeqNo, Pending), Disconnected, the
 *    in-flight count and LastActivity. Answered is broadcast, under Lock, when
 *    a Result fills a pending call and when the session disconnects; a waiter
 *    re-checks its own Done flag and Disconnected, so the wake-up cannot be
 *    lost. Lock and WriteLock are never held together.
 *  - SendEpoch carries the order the controller creates between our messages
 *    and its replies into the memory model: a sender bumps it (release) before
 *    it writes, the reader loads it (acquire) after each message it reads. A
 *    reply is written by the controller only after it read what it answers, so
 *    the load sees the bump, and everything the sender did before sending (e.g.
 *    the memory manager copying code into place before it answers finalize)
 *    happens-before what the reader then does (e.g. starting the thread that
 *    runs that code). ThreadSanitizer sees no order through inherited pipes;
 *    without this it sometimes reported such code as racing with its copy.
 *
 * Session rules: each incoming CallWrapper runs as a task that first takes a
 * token of the managed-code group through the server's own token source
 * (Calls), then calls the wrapper with orc_rt_Session_callManagedCode (a
 * nested token, and the thread marked as in managed code), gives both tokens
 * back, and only then sends the Result. So when the controller reads a Result,
 * that call holds no token any more: a controller that disconnects right after
 * its last reply finds no call "still running", with no grace period. Once
 * shutdown has started a call is denied (either token) and answered with an
 * empty Result. Until the outer token is granted the task touches only the
 * server (Calls holds its own reference to the group), so it may run after the
 * Session is gone; a granted token proves the Session is alive.
 *
 * Anything the server does with the Session after a Result may have been sent
 * (reporting a failed send) takes a fresh token through Calls and is dropped if
 * it is denied: shutdown may complete, and the Session be destroyed, as soon as
 * the last token is back.
 */

#include "orc-rt-c/RemoteExecutor.h"
#include "orc-rt-c/SPS.h"
#include "remote/Framing.h"
#include "support/FaultInjection.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ORC_RT_TRIPLE "x86_64-pc-linux-gnu"
#elif defined(__aarch64__)
#define ORC_RT_TRIPLE "aarch64-unknown-linux-gnu"
#else
#define ORC_RT_TRIPLE "unknown-unknown-linux-gnu"
#endif

typedef struct PendingCall {
  uint64_t SeqNo;
  bool Done;
  orc_rt_CWrapperFunctionBuffer Result;
  struct PendingCall *Next;
} PendingCall;

struct orc_rt_OpaqueSimpleRemoteEPCServer {
  orc_rt_SessionRef S;
  orc_rt_ExecutorServicesRef ES;
  int InFD, OutFD;
  unsigned IdleMs;
  uint64_t MaxSize;

  pthread_mutex_t WriteLock;
  atomic_uint_least64_t SendEpoch; /* see the comment at the top */
  bool Closed;
  bool SendFailureReported;

  pthread_mutex_t Lock;
  pthread_cond_t Answered;
  uint64_t NextSeqNo;
  PendingCall *Pending;
  bool Disconnected;
  size_t CallsInFlight;
  uint64_t LastActivityMs;

  orc_rt_TokenSourceRef Calls; /* the managed-code group; see the top */
};

static uint64_t nowMs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (uint64_t)T.tv_sec * 1000 + (uint64_t)T.tv_nsec / 1000000;
}

static void touch(orc_rt_SimpleRemoteEPCServerRef Srv) {
  pthread_mutex_lock(&Srv->Lock);
  Srv->LastActivityMs = nowMs();
  pthread_mutex_unlock(&Srv->Lock);
}

/* Sends one message; false if the connection is gone (reported once). */
static bool sendMessage(orc_rt_SimpleRemoteEPCServerRef Srv, uint64_t Opc,
                        uint64_t SeqNo, uint64_t Tag, const char *Data,
                        size_t Size) {
  pthread_mutex_lock(&Srv->WriteLock);
  /* Release: pairs with the reader's acquire load after its next read. */
  atomic_fetch_add_explicit(&Srv->SendEpoch, 1, memory_order_release);
  bool OK = !Srv->Closed && orc_rt_internal_writeMessage(Srv->OutFD, Opc, SeqNo,
                                                         Tag, Data, Size);
  bool Report = !OK && !Srv->SendFailureReported;
  if (Report)
    Srv->SendFailureReported = true;
  pthread_mutex_unlock(&Srv->WriteLock);
  /* The caller may hold no token (a Result is sent after the call's tokens
   * are back): take one so the Session is known to be alive. */
  if (Report && orc_rt_TokenSource_acquireToken(Srv->Calls)) {
    orc_rt_Session_reportError(
        Srv->S,
        orc_rt_Error_create("SimpleRemoteEPCServer FD-transport disconnected"));
    orc_rt_TokenSource_releaseToken(Srv->Calls);
  }
  if (OK)
    touch(Srv);
  return OK;
}

orc_rt_ErrorRef orc_rt_SimpleRemoteEPCServer_create(
    orc_rt_SimpleRemoteEPCServerRef *Result, orc_rt_SessionRef S,
    orc_rt_ExecutorServicesRef ES,
    const orc_rt_SimpleRemoteEPCServerOptions *Opts) {
  orc_rt_SimpleRemoteEPCServerRef Srv = orc_rt_internal_calloc(1, sizeof(*Srv));
  if (!Srv)
    return orc_rt_Error_create("out of memory creating the server");
  Srv->S = S;
  Srv->ES = ES;
  Srv->InFD = Opts->InFD;
  Srv->OutFD = Opts->OutFD;
  Srv->IdleMs = Opts->IdleTimeoutMs;
  Srv->MaxSize = Opts->MaxMessageSize ? Opts->MaxMessageSize : (1ULL << 32);
  pthread_mutex_init(&Srv->WriteLock, NULL);
  atomic_init(&Srv->SendEpoch, 0);
  pthread_mutex_init(&Srv->Lock, NULL);
  pthread_cond_init(&Srv->Answered, NULL);
  Srv->Calls = orc_rt_Session_managedCodeTokenSource(S);
  if (!Srv->Calls) {
    orc_rt_SimpleRemoteEPCServer_destroy(Srv);
    return orc_rt_Error_create("out of memory creating the server");
  }
  orc_rt_ErrorRef Err = orc_rt_ExecutorServices_addBootstrapSymbol(
      ES, "__llvm_orc_SimpleRemoteEPC_dispatch_ctx", (uint64_t)(uintptr_t)Srv);
  if (!Err)
    Err = orc_rt_ExecutorServices_addBootstrapSymbol(
        ES, "__llvm_orc_SimpleRemoteEPC_dispatch_fn",
        (uint64_t)(uintptr_t)orc_rt_SimpleRemoteEPCServer_jitDispatch);
  if (Err) {
    orc_rt_SimpleRemoteEPCServer_destroy(Srv);
    return Err;
  }
  *Result = Srv;
  return NULL;
}

void orc_rt_SimpleRemoteEPCServer_destroy(orc_rt_SimpleRemoteEPCServerRef Srv) {
  if (!Srv)
    return;
  orc_rt_TokenSource_dispose(Srv->Calls);
  pthread_cond_destroy(&Srv->Answered);
  pthread_mutex_destroy(&Srv->Lock);
  pthread_mutex_destroy(&Srv->WriteLock);
  free(Srv);
}

/*---- JIT dispatch: executor -> controller calls ----*/

orc_rt_CWrapperFunctionBuffer
orc_rt_SimpleRemoteEPCServer_jitDispatch(void *Ctx, const void *FnTag,
                                         const char *Data, size_t Size) {
  orc_rt_SimpleRemoteEPCServerRef Srv = Ctx;
  PendingCall PC;
  memset(&PC, 0, sizeof(PC));
  pthread_mutex_lock(&Srv->Lock);
  if (Srv->Disconnected) {
    pthread_mutex_unlock(&Srv->Lock);
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(
        "jit_dispatch not available (EPC server shut down)");
  }
  PC.SeqNo = Srv->NextSeqNo++;
  PC.Next = Srv->Pending;
  Srv->Pending = &PC;
  pthread_mutex_unlock(&Srv->Lock);

  bool Sent = sendMessage(Srv, orc_rt_internal_Opc_CallWrapper, PC.SeqNo,
                          (uint64_t)(uintptr_t)FnTag, Data, Size);

  pthread_mutex_lock(&Srv->Lock);
  while (Sent && !PC.Done && !Srv->Disconnected)
    pthread_cond_wait(&Srv->Answered, &Srv->Lock);
  PendingCall **P = &Srv->Pending;
  while (*P != &PC)
    P = &(*P)->Next;
  *P = PC.Next;
  pthread_mutex_unlock(&Srv->Lock);
  if (!PC.Done)
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage("disconnecting");
  return PC.Result;
}

/* Hands a Result to its waiting caller; false if no call has that number. Takes
 * the payload of Msg. */
static bool deliverResult(orc_rt_SimpleRemoteEPCServerRef Srv,
                          orc_rt_internal_Message *Msg) {
  pthread_mutex_lock(&Srv->Lock);
  PendingCall *PC = Srv->Pending;
  while (PC && (PC->SeqNo != Msg->SeqNo || PC->Done))
    PC = PC->Next;
  if (PC) {
    orc_rt_CWrapperFunctionBuffer B = orc_rt_CWrapperFunctionBuffer_empty();
    if (Msg->PayloadSize > sizeof(B.Data.Value)) {
      B.Data.ValuePtr = Msg->Payload; /* ownership moves to the caller */
      B.Size = Msg->PayloadSize;
      Msg->Payload = NULL;
    } else {
      memcpy(B.Data.Value, Msg->Payload ? Msg->Payload : "", Msg->PayloadSize);
      B.Size = Msg->PayloadSize;
    }
    PC->Result = B;
    PC->Done = true;
    pthread_cond_broadcast(&Srv->Answered);
  }
  pthread_mutex_unlock(&Srv->Lock);
  return PC != NULL;
}

/*---- Incoming calls: controller -> executor ----*/

typedef struct {
  orc_rt_SimpleRemoteEPCServerRef Srv;
  uint64_t SeqNo, Tag;
  char *Payload;
  size_t Size;
  orc_rt_CWrapperFunctionBuffer Result; /* set by serveCall */
} IncomingCall;

/* Sends C's Result (empty if Data is NULL) and frees C. */
static void finishCall(IncomingCall *C, const char *Data, size_t Size) {
  orc_rt_SimpleRemoteEPCServerRef Srv = C->Srv;
  sendMessage(Srv, orc_rt_internal_Opc_Result, C->SeqNo, 0, Data, Size);
  free(C->Payload);
  free(C);
  pthread_mutex_lock(&Srv->Lock);
  --Srv->CallsInFlight;
  Srv->LastActivityMs = nowMs();
  pthread_mutex_unlock(&Srv->Lock);
}

/* Runs under a managed-code token: the Session (and its services) stay
 * alive. */
static void serveCall(void *Ctx) {
  IncomingCall *C = Ctx;
  C->Result = orc_rt_ExecutorServices_callWrapper(C->Srv->ES, C->Tag,
                                                  C->Payload, C->Size);
}

/* A call's task: the wrapper runs under the tokens, the Result goes out after
 * they are back (see the top). An OOB error travels as an empty Result (its
 * message is lost, as in LLVM 22). */
static void runCall(void *Ctx) {
  IncomingCall *C = Ctx;
  orc_rt_TokenSourceRef Calls = C->Srv->Calls;
  if (!orc_rt_TokenSource_acquireToken(Calls)) {
    finishCall(C, NULL, 0);
    return;
  }
  bool Ran = orc_rt_Session_callManagedCode(C->Srv->S, serveCall, C);
  orc_rt_TokenSource_releaseToken(Calls);
  orc_rt_CWrapperFunctionBuffer R = C->Result;
  if (Ran)
    finishCall(C, orc_rt_CWrapperFunctionBuffer_data(&R), R.Size);
  else
    finishCall(C, NULL, 0);
  orc_rt_CWrapperFunctionBuffer_dispose(&R);
}

/* The task was destroyed unrun: answer without running anything. */
static void denyCall(void *Ctx) { finishCall(Ctx, NULL, 0); }

typedef struct {
  orc_rt_ExecutorServicesRef ES;
  uint64_t Tag;
  bool Callable;
} CallableCheck;

static void checkCallable(void *Ctx) {
  CallableCheck *CC = Ctx;
  CC->Callable = orc_rt_ExecutorServices_isCallable(CC->ES, CC->Tag);
}

static orc_rt_ErrorRef startCall(orc_rt_SimpleRemoteEPCServerRef Srv,
                                 orc_rt_internal_Message *Msg) {
  if (Msg->TagAddr == 0)
    return orc_rt_Error_createf("CallWrapper (seqno %llu) to address 0x0",
                                (unsigned long long)Msg->SeqNo);
  /* The services are only safe to use while the Session is alive: check
   * under a token. Denied means shutdown has started; the call is then
   * denied below anyway. */
  CallableCheck CC = {Srv->ES, Msg->TagAddr, true};
  orc_rt_Session_callManagedCode(Srv->S, checkCallable, &CC);
  if (!CC.Callable)
    return orc_rt_Error_createf(
        "CallWrapper (seqno %llu) to 0x%llx, which is not code in this process",
        (unsigned long long)Msg->SeqNo, (unsigned long long)Msg->TagAddr);
  IncomingCall *C = orc_rt_internal_malloc(sizeof(*C));
  if (!C)
    return orc_rt_Error_create("out of memory starting a call");
  *C = (IncomingCall){.Srv = Srv,
                      .SeqNo = Msg->SeqNo,
                      .Tag = Msg->TagAddr,
                      .Payload = Msg->Payload,
                      .Size = Msg->PayloadSize};
  Msg->Payload = NULL;
  pthread_mutex_lock(&Srv->Lock);
  ++Srv->CallsInFlight;
  pthread_mutex_unlock(&Srv->Lock);
  orc_rt_TaskRef T = orc_rt_Task_create(runCall, denyCall, C);
  if (!T) {
    free(C->Payload);
    C->Payload = NULL;
    finishCall(C, NULL, 0);
    return orc_rt_Error_create("out of memory dispatching a managed call");
  }
  orc_rt_Session_dispatch(Srv->S, T);
  return NULL;
}

/*---- Setup and the read loop ----*/

static bool sendSetup(orc_rt_SimpleRemoteEPCServerRef Srv) {
  size_t N;
  const orc_rt_BootstrapSymbol *Syms =
      orc_rt_ExecutorServices_getBootstrapSymbols(Srv->ES, &N);
  long PS = sysconf(_SC_PAGESIZE);
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendString(&W, ORC_RT_TRIPLE);
  orc_rt_SPSWriter_appendU64(&W, PS > 0 ? (uint64_t)PS : 4096);
  orc_rt_SPSWriter_appendU64(&W, 0); /* bootstrap map: empty on Linux */
  orc_rt_SPSWriter_appendU64(&W, N);
  for (size_t I = 0; I < N; ++I) {
    orc_rt_SPSWriter_appendString(&W, Syms[I].Name);
    orc_rt_SPSWriter_appendAddr(&W, Syms[I].Addr);
  }
  if (W.Failed) {
    orc_rt_SPSWriter_dispose(&W);
    return false;
  }
  bool OK = sendMessage(Srv, orc_rt_internal_Opc_Setup, 0, 0, W.Data, W.Size);
  orc_rt_SPSWriter_dispose(&W);
  return OK;
}

static long readFD(void *Ctx, char *Buf, size_t Size) {
  orc_rt_SimpleRemoteEPCServerRef Srv = Ctx;
  return (long)read(Srv->InFD, Buf, Size);
}

/* With an idle timeout: waits until InFD is readable. False if the
 * connection has been idle (nothing read or written, no call in flight
 * either way) for IdleMs. */
static bool waitForInput(orc_rt_SimpleRemoteEPCServerRef Srv) {
  if (!Srv->IdleMs)
    return true;
  for (;;) {
    struct pollfd P = {Srv->InFD, POLLIN, 0};
    int RC = poll(&P, 1, (int)(Srv->IdleMs < 100 ? Srv->IdleMs : 100));
    if (RC != 0)
      return true; /* readable, hung up, or an error the read will report */
    pthread_mutex_lock(&Srv->Lock);
    bool Idle = Srv->CallsInFlight == 0 && !Srv->Pending &&
                nowMs() - Srv->LastActivityMs >= Srv->IdleMs;
    pthread_mutex_unlock(&Srv->Lock);
    if (Idle)
      return false;
  }
}

static bool isSocket(int FD) {
  struct stat St;
  return fstat(FD, &St) == 0 && S_ISSOCK(St.st_mode);
}

/* Ends the connection: no more sends, waiters woken with "disconnecting". */
static void disconnect(orc_rt_SimpleRemoteEPCServerRef Srv) {
  pthread_mutex_lock(&Srv->WriteLock);
  if (!Srv->Closed) {
    Srv->Closed = true;
    /* shutdown() first: the peer sees EOF even if a copy of the socket is open
     * elsewhere (a close alone does not send FIN then). */
    if (isSocket(Srv->OutFD))
      shutdown(Srv->OutFD, SHUT_RDWR);
    if (Srv->OutFD != Srv->InFD)
      close(Srv->OutFD);
    close(Srv->InFD);
  }
  Srv->SendFailureReported = true; /* later Results have nowhere to go */
  pthread_mutex_unlock(&Srv->WriteLock);
  pthread_mutex_lock(&Srv->Lock);
  Srv->Disconnected = true;
  pthread_cond_broadcast(&Srv->Answered);
  pthread_mutex_unlock(&Srv->Lock);
}

orc_rt_ErrorRef
orc_rt_SimpleRemoteEPCServer_run(orc_rt_SimpleRemoteEPCServerRef Srv) {
  touch(Srv);
  if (!sendSetup(Srv)) {
    disconnect(Srv);
    return orc_rt_Error_create("could not send the Setup message");
  }
  orc_rt_ErrorRef Err = NULL;
  for (;;) {
    if (!waitForInput(Srv))
      break; /* idle: close cleanly */
    orc_rt_internal_Message Msg;
    orc_rt_internal_ReadStatus St =
        orc_rt_internal_readMessage(readFD, Srv, Srv->MaxSize, &Msg, &Err);
    if (St == orc_rt_internal_Read_EOF)
      break;
    if (St == orc_rt_internal_Read_Error)
      break;
    /* Acquire: pairs with the release bump of every message sent before the
     * controller wrote this one. */
    (void)atomic_load_explicit(&Srv->SendEpoch, memory_order_acquire);
    touch(Srv);
    switch (Msg.Opcode) {
    case orc_rt_internal_Opc_Setup:
      Err = orc_rt_Error_create("Unexpected Setup opcode");
      break;
    case orc_rt_internal_Opc_Hangup:
      break;
    case orc_rt_internal_Opc_Result:
      if (!deliverResult(Srv, &Msg))
        Err = orc_rt_Error_createf("No call for sequence number %llu",
                                   (unsigned long long)Msg.SeqNo);
      break;
    case orc_rt_internal_Opc_CallWrapper:
      Err = startCall(Srv, &Msg);
      break;
    }
    free(Msg.Payload);
    if (Err || Msg.Opcode == orc_rt_internal_Opc_Hangup)
      break;
  }
  disconnect(Srv);
  return Err;
}
