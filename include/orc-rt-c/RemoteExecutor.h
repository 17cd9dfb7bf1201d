/*===- orc-rt-c/RemoteExecutor.h - SimpleRemoteEPC executor side -*- C -*-===*\
|* Part of orc-rt-c. Serves an LLVM ORC controller (llvm-jitlink, lli) over a *|
|* pipe pair or socket with the SimpleRemoteEPC protocol, on top of a Session *|
|* and its ExecutorServices.                                                  *|
\*===----------------------------------------------------------------------===*/
/*
 * Wire protocol (LLVM 22): 32-byte header {u64 size incl. header, u64 opcode,
 * u64 seqno, u64 tagaddr}, little-endian, then size-32 payload bytes.
 * Opcodes: 0 Setup (executor -> controller, once, first), 1 Hangup, 2 Result,
 * 3 CallWrapper.
 *
 * orc_rt_SimpleRemoteEPCServer_run sends Setup (the services' bootstrap symbols
 * plus the JIT-dispatch pair) and then reads messages on the calling thread:
 *  - each CallWrapper becomes a task given to the Session's dispatcher
 *    (orc_rt_Session_dispatchManagedCall: the call holds a managed-code token
 *    while it runs; once shutdown has started it is denied and answered with
 *    an empty Result); the reader keeps reading meanwhile, so calls may block
 *    on JIT-dispatch results;
 *  - each Result wakes the JIT-dispatch caller waiting for that sequence
 *    number;
 *  - EOF at a message boundary or a Hangup ends the session cleanly (returns
 *    NULL);
 *  - a protocol error (short size, truncated message, unknown opcode, Setup
 *    from the controller, Result for an unknown sequence number, huge size, a
 *    call to address 0 or to an address that is not code in this process)
 *    returns an error.
 * On return, JIT-dispatch callers have been woken with "disconnecting", and no
 * further message is read. The caller then shuts the Session down (drain, then
 * the services' onShutdown releases memory), waits for the dispatcher's
 * threads, and destroys the server.
 *
 * The dispatcher must not bound the number of concurrent calls (a call may wait
 * for the controller, which may need another call to answer): use
 * orc_rt_TaskThreads.
 */

#ifndef ORC_RT_C_REMOTEEXECUTOR_H
#define ORC_RT_C_REMOTEEXECUTOR_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Dispatch.h"
#include "orc-rt-c/Error.h"
#include "orc-rt-c/ExecutorServices.h"
#include "orc-rt-c/Session.h"
#include "orc-rt-c/WrapperFunction.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

ORC_RT_C_EXTERN_C_BEGIN

/*---- A dispatcher running each task on a new thread ----*/

typedef struct orc_rt_OpaqueTaskThreads *orc_rt_TaskThreadsRef;

/** Creates the dispatcher. Returns NULL if memory is exhausted. */
ORC_RT_C_API orc_rt_TaskThreadsRef orc_rt_TaskThreads_create(void);

/**
 * An orc_rt_DispatchFn: runs T on a new detached thread (Ctx is the
 * TaskThreads). If no thread can be created, T is destroyed unrun.
 */
ORC_RT_C_API void orc_rt_TaskThreads_dispatch(orc_rt_TaskRef T, void *Ctx);

/** Waits until every dispatched task has finished, then frees TT. Blocks. */
ORC_RT_C_API void orc_rt_TaskThreads_waitAndDestroy(orc_rt_TaskThreadsRef TT);

/*---- The server ----*/

typedef struct orc_rt_OpaqueSimpleRemoteEPCServer
    *orc_rt_SimpleRemoteEPCServerRef;

typedef struct {
  int InFD, OutFD; /* may be the same socket */
  /**
   * If non-zero: when nothing has been read or written for this many
   * milliseconds and no call is in flight in either direction, shut the
   * connection down (both ways) and end cleanly. For TCP controllers that never
   * close their side (LLVM 22.1.8).
   */
  unsigned IdleTimeoutMs;
  /** Largest message accepted (0: 4 GiB). Bigger sizes are a protocol error. */
  uint64_t MaxMessageSize;
} orc_rt_SimpleRemoteEPCServerOptions;

/**
 * Creates a server for S's services ES and adds the JIT-dispatch bootstrap
 * symbols to ES. The server does not own the fds.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_SimpleRemoteEPCServer_create(
    orc_rt_SimpleRemoteEPCServerRef *Result, orc_rt_SessionRef S,
    orc_rt_ExecutorServicesRef ES,
    const orc_rt_SimpleRemoteEPCServerOptions *Opts);

/** Sends Setup and serves until the session ends (see above). Blocks. */
ORC_RT_C_API orc_rt_ErrorRef
orc_rt_SimpleRemoteEPCServer_run(orc_rt_SimpleRemoteEPCServerRef Srv);

/**
 * Frees the server. Call only after the Session's shutdown has completed and
 * the dispatcher's tasks have finished (nothing may still use the server).
 */
ORC_RT_C_API void
orc_rt_SimpleRemoteEPCServer_destroy(orc_rt_SimpleRemoteEPCServerRef Srv);

/**
 * The JIT-dispatch function advertised as
 * __llvm_orc_SimpleRemoteEPC_dispatch_fn (Ctx is the server, advertised as
 * ..._dispatch_ctx): sends CallWrapper(FnTag, Data) to the controller and
 * blocks until its Result arrives. Fails (OOB error) with "jit_dispatch not
 * available (EPC server shut down)" after the session ended, or "disconnecting"
 * if it ends while waiting.
 */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_SimpleRemoteEPCServer_jitDispatch(void *Ctx, const void *FnTag,
                                         const char *Data, size_t Size);

/*---- Connections ----*/

/**
 * Binds Host:Port (numeric or a resolvable name), waits for exactly one
 * connection, closes the listening socket (so a second connection is refused)
 * and returns the connected socket in *FD.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_listenAndAcceptOne(const char *Host,
                                                       const char *Port,
                                                       int *FD);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_REMOTEEXECUTOR_H */
