// Question: can JIT'd C code use the runtime's API (orc-rt-c/orc-rt.h)? Every
// lifecycle step runs under callManagedCode of the driver's Session, errors
// reported to the Session are printed, and a thread started with
// orc_rt_Session_createManagedThread runs as managed code.
//
// RUN: %clang -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli %t.ll 2>&1 | FileCheck %s
//
// CHECK:      ctor: in managed code 1
// CHECK-NEXT: main: in managed code 1, state running
// CHECK-NEXT: mini-lli: error reported by the program: something went wrong in main
// CHECK-NEXT: managed thread: in managed code 1
// CHECK-NEXT: handler: in managed code 1
// CHECK-NEXT: dtor: in managed code 1

#include <orc-rt-c/orc-rt.h>
#include <stdio.h>
#include <stdlib.h>

static int inManaged(void) {
  orc_rt_SessionRef S = orc_rt_Session_current();
  return S && orc_rt_Session_isInManagedCode(S);
}

__attribute__((constructor)) static void ctor(void) {
  printf("ctor: in managed code %d\n", inManaged());
}
__attribute__((destructor)) static void dtor(void) {
  printf("dtor: in managed code %d\n", inManaged());
}
static void handler(void) {
  printf("handler: in managed code %d\n", inManaged());
  fflush(stdout);
}
static void *body(void *Arg) {
  printf("managed thread: in managed code %d\n", inManaged());
  fflush(stdout);
  return Arg;
}

int main(void) {
  orc_rt_SessionRef S = orc_rt_Session_current();
  printf("main: in managed code %d, state %s\n", inManaged(),
         orc_rt_Session_getState(S) == orc_rt_SessionState_Running ? "running"
                                                                  : "other");
  fflush(stdout);
  orc_rt_Session_reportError(
      S, orc_rt_Error_create("something went wrong in main"));
  pthread_t T;
  orc_rt_Session_createManagedThread(S, &T, NULL, body, NULL);
  pthread_join(T, NULL);
  atexit(handler);
  return 0;
}
