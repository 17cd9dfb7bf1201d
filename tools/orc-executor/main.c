/*===- tools/orc-executor/main.c - Out-of-process ORC executor ------------===*/
/* A drop-in for LLVM 22's llvm-jitlink-executor and lli-child-target: parse the
 * command line, build a Session with the executor services and a
 * SimpleRemoteEPC server, serve until the controller goes away, request the
 * Session's shutdown, and report the one error if there was one. If JIT'd
 * code is still running then, the process ends at once, as the reference's
 * does, without releasing its memory; with --shutdown-timeout it first waits
 * for that code (the drain), and memory is released after it. */

#include "Options.h"
#include "Shutdown.h"

#include "orc-rt-c/orc-rt.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

static void reportToStderr(orc_rt_ErrorRef Err, void *Ctx) {
  (void)Ctx;
  fprintf(stderr, "orc-executor: %s\n", orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
}

static int fail(orc_rt_ErrorRef Err) {
  fflush(stdout);
  fprintf(stderr, "orc-executor: error: %s\n", orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  return 1;
}

/* Serves one controller on Opts' descriptors until it goes away. */
typedef struct {
  orc_rt_SimpleRemoteEPCServerRef Srv;
  orc_rt_ErrorRef Err;
} ReaderRun;

static void *readerMain(void *P) {
  ReaderRun *R = P;
  R->Err = orc_rt_SimpleRemoteEPCServer_run(R->Srv);
  return NULL;
}

/* Runs the read loop on its own thread while the main thread waits for it, the
 * thread layout of the reference executors (JIT'd code that counts the
 * process's threads sees the same number). */
static orc_rt_ErrorRef runOnReaderThread(orc_rt_SimpleRemoteEPCServerRef Srv) {
  ReaderRun R = {Srv, NULL};
  pthread_t T;
  if (pthread_create(&T, NULL, readerMain, &R) != 0)
    return orc_rt_SimpleRemoteEPCServer_run(Srv);
  pthread_join(T, NULL);
  return R.Err;
}

/* The controller's descriptors belong to the executor, not to the program it
 * runs: move each one above 2 out of the low numbers (the program's first
 * open() gets 3, as in a fresh process) and mark it close-on-exec (the
 * program's children, system() or posix_spawn, do not inherit the connection
 * and cannot keep it open). Where that fails the descriptor stays as given. */
enum { ConnectionFDMin = 100 };

static int moveConnectionFD(int FD) {
  if (FD <= 2)
    return FD; /* stdin/stdout as the connection (lli-child-target's form) */
  int New = fcntl(FD, F_DUPFD_CLOEXEC, ConnectionFDMin);
  if (New < 0) {
    int Flags = fcntl(FD, F_GETFD);
    if (Flags >= 0)
      fcntl(FD, F_SETFD, Flags | FD_CLOEXEC);
    return FD;
  }
  close(FD);
  return New;
}

/* Without a drain, how long the end waits for the Session to shut down. A
 * call gives its token back just after it sent its Result, so a controller
 * that disconnects right after its last reply would otherwise find that call
 * still "running" and get no teardown (its dealloc actions skipped). JIT'd
 * code that really is still running costs the process this much more. */
enum { AnsweredCallGraceMs = 100 };

/* Serves one controller until it goes away. Sets *Stuck if JIT'd code is
 * still running then (by default), or still after the --shutdown-timeout: the
 * Session is then left as it is, its memory mapped. */
static orc_rt_ErrorRef serve(int InFD, int OutFD, const ExecutorOptions *O,
                             bool *Stuck) {
  orc_rt_TaskThreadsRef TT = orc_rt_TaskThreads_create();
  if (!TT)
    return orc_rt_Error_create("out of memory");
  orc_rt_SessionRef S;
  orc_rt_ErrorRef Err = orc_rt_Session_create(&S, orc_rt_TaskThreads_dispatch,
                                              TT, reportToStderr, NULL);
  if (Err) {
    orc_rt_TaskThreads_waitAndDestroy(TT);
    return Err;
  }
  orc_rt_ExecutorServicesRef ES;
  orc_rt_SimpleRemoteEPCServerRef Srv = NULL;
  Err = orc_rt_ExecutorServices_create(&ES, S);
  orc_rt_SimpleRemoteEPCServerOptions SO = {InFD, OutFD, O->IdleCloseMs, 0};
  if (!Err)
    Err = orc_rt_SimpleRemoteEPCServer_create(&Srv, S, ES, &SO);
  if (!Err)
    Err = runOnReaderThread(Srv);
  /* Shutdown: no new entries; once no frame is live (at once, or after the
   * drain the options ask for), the services free memory. What JIT'd code
   * wrote is flushed before a drain waits: a signal that ends the process
   * meanwhile loses nothing. */
  if (O->Drain)
    fflush(NULL);
  /* Without a drain the Session must shut down at once. A call answers only
   * after its token is back (lib/remote/SimpleRemoteEPCServer.c), so a
   * controller that disconnects right after its last reply leaves no token
   * out, and its teardown (dealloc actions) runs. */
  if (!shutdownSession(S, O->Drain ? O->ShutdownTimeoutMs : 0)) {
    *Stuck = true;
    if (!O->Drain)
      return Err;
    return orc_rt_Error_join(
        Err,
        orc_rt_Error_createf("shutdown timed out after %ld ms: JIT'd code is "
                             "still running; exiting without waiting for it",
                             O->ShutdownTimeoutMs));
  }
  orc_rt_Session_destroy(S);
  orc_rt_TaskThreads_waitAndDestroy(TT);
  orc_rt_SimpleRemoteEPCServer_destroy(Srv);
  return Err;
}

/* test-jitloadergdb, as llvm-jitlink-executor prints it. */
static void printLastDebugEntry(void) {
  fprintf(stderr, "__jit_debug_descriptor.last_entry = 0x%016llx\n",
          (unsigned long long)orc_rt_JITLoaderGDB_lastEntry());
}

int main(int argc, char **argv) {
  ExecutorOptions O;
  orc_rt_ErrorRef Err = parseExecutorOptions(argc, argv, &O);
  if (Err || O.Help) {
    if (Err)
      fprintf(stderr, "orc-executor: error: %s\n\n",
              orc_rt_Error_getMessage(Err));
    fputs(ExecutorUsage, Err ? stderr : stdout);
    orc_rt_Error_consume(Err);
    freeExecutorOptions(&O);
    return Err ? 1 : 0;
  }
  if (O.TestJITLoaderGDB)
    printLastDebugEntry();
  int InFD = O.InFD, OutFD = O.OutFD;
  if (O.Listen) {
    Err = orc_rt_listenAndAcceptOne(O.Host, O.Port, &InFD);
    OutFD = InFD;
  }
  if (!Err) {
    bool Same = InFD == OutFD;
    InFD = moveConnectionFD(InFD);
    OutFD = Same ? InFD : moveConnectionFD(OutFD);
  }
  bool Stuck = false;
  if (!Err)
    Err = serve(InFD, OutFD, &O, &Stuck);
  freeExecutorOptions(&O);
  if (!Err && O.TestJITLoaderGDB)
    printLastDebugEntry();
  if (Stuck) {
    /* JIT'd code still runs (or a call is just giving its token back): end
     * the process with it, its memory still mapped, running no exit handlers
     * of ours under it. */
    int Status = Err ? fail(Err) : 0;
    fflush(NULL);
    _exit(Status);
  }
  if (Err)
    return fail(Err);
  fflush(stdout);
  return 0;
}
