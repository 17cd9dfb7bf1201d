/*===- lib/jit/program/RuntimeExit.c - atexit, exit and quick_exit for JIT'd code ===*/
/* Handlers JIT'd code registers are kept here, for the driver to run at the
 * end of the program (see Driver.c); exit and quick_exit hand over to the
 * driver, which finishes the program's lifecycle first. */

#include "jit/program/ProgramRuntime.h"
#include "jit/program/RuntimeParts.h"
#include "jit/support/GrowArray.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/*---- atexit / __cxa_atexit ----*/

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static orc_rt_jit_Handler *Handlers;
static size_t NumHandlers, HandlerCap;
static bool Closed;

static int addHandler(void (*Fn)(void *), void *Arg, void *Dso, bool NoArg) {
  int R = 0;
  pthread_mutex_lock(&Lock);
  if (Closed || !orc_rt_jit_growArray(&Handlers, &HandlerCap, NumHandlers + 1,
                                      sizeof(*Handlers)))
    R = -1;
  else
    Handlers[NumHandlers++] = (orc_rt_jit_Handler){Fn, Arg, Dso, NoArg};
  pthread_mutex_unlock(&Lock);
  return R;
}

int orc_rt_jit_cxa_atexit(void (*Fn)(void *), void *Arg, void *Dso) {
  return addHandler(Fn, Arg, Dso, false);
}

int orc_rt_jit_atexit(void (*Fn)(void)) {
  return addHandler((void (*)(void *))Fn, NULL, NULL, true);
}

/*---- on_exit ----*/

/* glibc's on_exit handler takes the exit status too: it runs among the
 * atexit handlers (one list, newest first) through a record of its own. */
typedef struct {
  void (*Fn)(int, void *);
  void *Arg;
} OnExit;

static int ExitStatus; /* atomic: set by the driver before handlers run */

void orc_rt_jit_Runtime_setExitStatus(int Status) {
  __atomic_store_n(&ExitStatus, Status, __ATOMIC_RELAXED);
}

static void runOnExit(void *Ctx) {
  OnExit O = *(OnExit *)Ctx;
  free(Ctx);
  O.Fn(__atomic_load_n(&ExitStatus, __ATOMIC_RELAXED), O.Arg);
}

int orc_rt_jit_on_exit(void (*Fn)(int, void *), void *Arg) {
  OnExit *O = malloc(sizeof(*O));
  if (!O)
    return -1;
  *O = (OnExit){Fn, Arg};
  if (addHandler(runOnExit, O, NULL, false)) {
    free(O);
    return -1;
  }
  return 0;
}

/*---- at_quick_exit / quick_exit ----*/

static void (**QuickHandlers)(void);
static size_t NumQuick, QuickCap;

int orc_rt_jit_at_quick_exit(void (*Fn)(void)) {
  int R = 0;
  pthread_mutex_lock(&Lock);
  if (Closed || !orc_rt_jit_growArray(&QuickHandlers, &QuickCap, NumQuick + 1,
                                      sizeof(*QuickHandlers)))
    R = -1;
  else
    QuickHandlers[NumQuick++] = Fn;
  pthread_mutex_unlock(&Lock);
  return R;
}

int orc_rt_jit_cxa_at_quick_exit(void (*Fn)(void), void *Dso) {
  (void)Dso;
  return orc_rt_jit_at_quick_exit(Fn);
}

bool orc_rt_jit_Runtime_popQuickHandler(void (**Out)(void)) {
  pthread_mutex_lock(&Lock);
  bool Any = NumQuick > 0;
  if (Any)
    *Out = QuickHandlers[--NumQuick];
  pthread_mutex_unlock(&Lock);
  return Any;
}

bool orc_rt_jit_Runtime_popHandler(orc_rt_jit_Handler *Out) {
  pthread_mutex_lock(&Lock);
  bool Any = NumHandlers > 0;
  if (Any)
    *Out = Handlers[--NumHandlers];
  pthread_mutex_unlock(&Lock);
  return Any;
}

char orc_rt_jit_internal_ProgramDso;

/* Takes the newest handler for which Match(its Dso, Dso) holds. */
static bool popMatching(bool (*Match)(const void *, const void *),
                        const void *Dso, orc_rt_jit_Handler *Out) {
  pthread_mutex_lock(&Lock);
  size_t I = NumHandlers;
  while (I > 0 && !Match(Handlers[I - 1].Dso, Dso))
    --I;
  bool Any = I > 0;
  if (Any) {
    *Out = Handlers[I - 1];
    memmove(&Handlers[I - 1], &Handlers[I],
            (NumHandlers - I) * sizeof(*Handlers));
    --NumHandlers;
  }
  pthread_mutex_unlock(&Lock);
  return Any;
}

static bool isDso(const void *HandlerDso, const void *Dso) {
  return HandlerDso == Dso;
}

/* atexit's (NULL) and __cxa_atexit's with the program's __dso_handle. */
static bool isProgram(const void *HandlerDso, const void *Unused) {
  (void)Unused;
  return !HandlerDso || HandlerDso == &orc_rt_jit_internal_ProgramDso;
}

bool orc_rt_jit_Runtime_popHandlerOf(const void *Dso, orc_rt_jit_Handler *Out) {
  return popMatching(isDso, Dso, Out);
}

bool orc_rt_jit_Runtime_popProgramHandler(orc_rt_jit_Handler *Out) {
  return popMatching(isProgram, NULL, Out);
}

/*---- exit ----*/

static orc_rt_jit_ExitFn ExitFn;
static void *ExitCtx;

void orc_rt_jit_Runtime_setExit(orc_rt_jit_ExitFn Fn, void *Ctx) {
  ExitFn = Fn;
  ExitCtx = Ctx;
}

static orc_rt_jit_ExitFn QuickExitFn;
static void *QuickExitCtx;

void orc_rt_jit_Runtime_setQuickExit(orc_rt_jit_ExitFn Fn, void *Ctx) {
  QuickExitFn = Fn;
  QuickExitCtx = Ctx;
}

_Noreturn void orc_rt_jit_exit(int Status) {
  if (ExitFn)
    ExitFn(Status, ExitCtx);
  exit(Status);
}

_Noreturn void orc_rt_jit_quick_exit(int Status) {
  if (QuickExitFn)
    QuickExitFn(Status, QuickExitCtx);
  quick_exit(Status);
}

void orc_rt_jit_internal_disposeExit(void) {
  pthread_mutex_lock(&Lock);
  Closed = true;
  free(Handlers);
  Handlers = NULL;
  NumHandlers = HandlerCap = 0;
  free(QuickHandlers);
  QuickHandlers = NULL;
  NumQuick = QuickCap = 0;
  pthread_mutex_unlock(&Lock);
}
