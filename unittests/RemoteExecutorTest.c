/*===- unittests/RemoteExecutorTest.c - orc-rt-c/RemoteExecutor.h ---------===*/
/* The server's rule for a Result it cannot send (lib/remote/
 * SimpleRemoteEPCServer.c): the failure is reported to the Session once,
 * through a fresh token; once shutdown has begun that token is denied and the
 * report is dropped (the Session may be gone as soon as the last token is
 * back). The controller here reads the Setup message and then closes its
 * reading end, so every later send fails. Calls run on the reader's thread
 * (an inline dispatcher; noop never waits for the controller), so a call's
 * Result, and its report, are done before the reader reads the next message
 * and sees EOF (after which sends are not reported at all). */

#include "TestUtil.h"

#include "orc-rt-c/RemoteExecutor.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char Disconnected[] =
    "SimpleRemoteEPCServer FD-transport disconnected";

typedef struct {
  pthread_mutex_t M;
  int Reports; /* Disconnected reports seen */
  int Others;  /* any other error reported */
} Reports;

static void report(orc_rt_ErrorRef Err, void *Ctx) {
  Reports *R = Ctx;
  pthread_mutex_lock(&R->M);
  if (!strcmp(orc_rt_Error_getMessage(Err), Disconnected))
    ++R->Reports;
  else
    ++R->Others;
  pthread_mutex_unlock(&R->M);
  orc_rt_Error_consume(Err);
}

/* The wrapper the controller calls: returns an empty result. */
static orc_rt_CWrapperFunctionBuffer noop(const char *Data, size_t Size) {
  (void)Data, (void)Size;
  orc_rt_CWrapperFunctionBuffer B;
  memset(&B, 0, sizeof(B));
  return B;
}

static void runInline(orc_rt_TaskRef T, void *Ctx) {
  (void)Ctx;
  orc_rt_Task_run(T);
}

typedef struct {
  orc_rt_SimpleRemoteEPCServerRef Srv;
  orc_rt_ErrorRef Err;
} Run;

static void *serve(void *Arg) {
  Run *R = Arg;
  R->Err = orc_rt_SimpleRemoteEPCServer_run(R->Srv);
  return NULL;
}

static void readAll(int FD, char *Buf, size_t Size) {
  while (Size) {
    ssize_t N = read(FD, Buf, Size);
    assert_true(N > 0);
    Buf += N;
    Size -= (size_t)N;
  }
}

static void putLE64(char *P, uint64_t V) {
  for (int I = 0; I < 8; ++I)
    P[I] = (char)(V >> (8 * I));
}

/* One session: Setup read, the reading end closed, then (after shutdown was
 * requested, if ShutdownFirst) one CallWrapper to noop and EOF. Returns the
 * number of Disconnected reports. */
static int session(bool ShutdownFirst) {
  Reports R = {PTHREAD_MUTEX_INITIALIZER, 0, 0};
  orc_rt_SessionRef S;
  assert_null(orc_rt_Session_create(&S, runInline, NULL, report, &R));
  orc_rt_ExecutorServicesRef ES;
  assert_null(orc_rt_ExecutorServices_create(&ES, S));
  int In[2], Out[2];
  assert_int_equal(pipe(In), 0);
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, Out), 0);
  orc_rt_SimpleRemoteEPCServerOptions O = {In[0], Out[0], 0, 0};
  Run Srv = {NULL, NULL};
  assert_null(orc_rt_SimpleRemoteEPCServer_create(&Srv.Srv, S, ES, &O));
  pthread_t Reader;
  assert_int_equal(pthread_create(&Reader, NULL, serve, &Srv), 0);

  char H[32];
  readAll(Out[1], H, sizeof(H));
  uint64_t Size = 0;
  for (int I = 0; I < 8; ++I)
    Size |= (uint64_t)(unsigned char)H[I] << (8 * I);
  assert_true(Size >= 32);
  char *Setup = malloc(Size - 32 + 1);
  readAll(Out[1], Setup, Size - 32);
  free(Setup);
  close(Out[1]); /* from now on every send fails */

  if (ShutdownFirst)
    assert_null(orc_rt_Session_shutdown(S, NULL, NULL));
  putLE64(H, 32);
  putLE64(H + 8, 3); /* CallWrapper */
  putLE64(H + 16, 0);
  putLE64(H + 24, (uint64_t)(uintptr_t)noop);
  assert_int_equal(write(In[1], H, sizeof(H)), (ssize_t)sizeof(H));
  close(In[1]);

  pthread_join(Reader, NULL);
  assert_null(Srv.Err);
  assert_null(orc_rt_Session_waitForShutdown(S));
  orc_rt_SimpleRemoteEPCServer_destroy(Srv.Srv);
  orc_rt_Session_destroy(S);
  close(In[0]);
  close(Out[0]);
  assert_int_equal(R.Others, 0);
  return R.Reports;
}

static void test_failed_send_is_reported_once(void **State) {
  (void)State;
  assert_int_equal(session(false), 1);
}

static void test_failed_send_report_dropped_once_shutdown_began(void **State) {
  (void)State;
  assert_int_equal(session(true), 0);
}

int main(void) {
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(test_failed_send_is_reported_once),
      cmocka_unit_test(test_failed_send_report_dropped_once_shutdown_began),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
