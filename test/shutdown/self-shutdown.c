// Question: JIT'd code requests shutdown of its own Session from inside a
// frame. No deadlock: waitForShutdown from inside managed code returns an
// error at once, the frame returns, and the drain completes as main's token
// comes back (code is freed right then). Later steps of the lifecycle (atexit
// handlers) are denied, not run, and the status is main's.
//
// Under -force-interpreter: the function handed to orc_rt_Session_callManagedCode is
// interpreted code, which the runtime cannot call.
// XFAIL: engine-interpreter
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -trace-shutdown %t.ll 2>&1 | FileCheck %s
//
// CHECK:      main: state after the request: shutting down
// CHECK-NEXT: main: waitForShutdown inside managed code: error
// CHECK-NEXT: main: nested entry denied
// CHECK-NEXT: mini-lli: shutdown: drain complete; freeing the JIT and its code memory
// CHECK-NEXT: mini-lli: shutdown: code memory freed
// CHECK-NEXT: mini-lli: shutdown: atexit handler denied
// CHECK-NEXT: mini-lli: shutdown: requested
// CHECK-NEXT: mini-lli: shutdown: complete
// CHECK-NOT:  handler ran

#include <orc-rt-c/orc-rt.h>
#include <stdio.h>
#include <stdlib.h>

static void handler(void) { printf("handler ran\n"); }
static void nested(void *Ctx) { (void)Ctx; }

int main(void) {
  atexit(handler);
  orc_rt_SessionRef S = orc_rt_Session_current();
  orc_rt_Error_consume(orc_rt_Session_shutdown(S, NULL, NULL));
  printf("main: state after the request: %s\n",
         orc_rt_Session_getState(S) == orc_rt_SessionState_ShuttingDown
             ? "shutting down"
             : "other");
  orc_rt_ErrorRef E = orc_rt_Session_waitForShutdown(S);
  printf("main: waitForShutdown inside managed code: %s\n",
         E ? "error" : "returned");
  orc_rt_Error_consume(E);
  if (!orc_rt_Session_callManagedCode(S, nested, NULL))
    printf("main: nested entry denied\n");
  fflush(stdout);
  return 3;
}
