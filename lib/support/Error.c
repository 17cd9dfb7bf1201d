/*===- lib/support/Error.c - orc_rt_ErrorRef implementation ---------------===*/
/* Errors are heap blocks holding their message. Allocation failure while
 * making an error yields a static out-of-memory error, so creating an
 * error never fails. */

#include "orc-rt-c/Error.h"
#include "support/FaultInjection.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct orc_rt_OpaqueError {
  char *Msg;
};

static char OutOfMemoryMsg[] = "out of memory";
static struct orc_rt_OpaqueError OutOfMemory = {OutOfMemoryMsg};

static orc_rt_ErrorRef takeMessage(char *Msg) {
  if (!Msg)
    return &OutOfMemory;
  orc_rt_ErrorRef E = orc_rt_internal_malloc(sizeof(*E));
  if (!E) {
    free(Msg);
    return &OutOfMemory;
  }
  E->Msg = Msg;
  return E;
}

orc_rt_ErrorRef orc_rt_Error_create(const char *Msg) {
  if (!Msg)
    Msg = "";
  return takeMessage(orc_rt_internal_strdup(Msg));
}

orc_rt_ErrorRef orc_rt_Error_createf(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  char *Msg = NULL;
  if (orc_rt_internal_FaultInjector_fail(orc_rt_internal_Fault_Alloc) ||
      vasprintf(&Msg, Fmt, Args) < 0)
    Msg = NULL;
  va_end(Args);
  return takeMessage(Msg);
}

const char *orc_rt_Error_getMessage(orc_rt_ErrorRef E) {
  return E ? E->Msg : "success";
}

void orc_rt_Error_consume(orc_rt_ErrorRef E) {
  if (!E || E == &OutOfMemory)
    return;
  free(E->Msg);
  free(E);
}

char *orc_rt_Error_toString(orc_rt_ErrorRef E) {
  if (!E)
    return NULL;
  char *Msg;
  if (E == &OutOfMemory) {
    Msg = orc_rt_internal_strdup(OutOfMemoryMsg);
  } else {
    Msg = E->Msg;
    free(E);
  }
  return Msg;
}

void orc_rt_String_dispose(char *S) { free(S); }

orc_rt_ErrorRef orc_rt_Error_join(orc_rt_ErrorRef A, orc_rt_ErrorRef B) {
  if (!A)
    return B;
  if (!B)
    return A;
  orc_rt_ErrorRef J = orc_rt_Error_createf("%s\n%s", A->Msg, B->Msg);
  orc_rt_Error_consume(A);
  orc_rt_Error_consume(B);
  return J;
}
