/*===- lib/jit/program/RuntimeThreads.c - Threads of JIT'd code -----------===*/
/* pthread_create / thrd_create (the body enters through the Session and is a
 * live entry), pthread_exit / thrd_exit / cancellation (return through the
 * Session), and the destructors that must run before a thread leaves JIT'd
 * code: C++ thread_local ones (__cxa_thread_atexit) and TSD ones
 * (pthread_key_create / tss_create). */

#include "jit/program/LiveEntries.h"
#include "jit/program/ProgramRuntime.h"
#include "jit/program/RuntimeParts.h"
#include "jit/program/ThreadInterpose.h"

#include "orc-rt-c/ManagedThread.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <threads.h>

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;

/*---- __cxa_thread_atexit (C++ thread_local destructors) ----*/

/* Kept per thread and run, newest first, before the thread leaves JIT'd code
 * (glibc would run them after, when the code may already be freed). */
typedef struct TlsDtor {
  void (*Fn)(void *);
  void *Obj;
  struct TlsDtor *Next;
} TlsDtor;

static _Thread_local TlsDtor *TlsDtors;

/* glibc's; used for threads that are not inside managed code (e.g. started
 * by libstdc++'s std::thread, which calls libc's pthread_create). */
extern int __cxa_thread_atexit_impl(void (*Fn)(void *), void *Obj, void *Dso);

int orc_rt_jit_cxa_thread_atexit(void (*Fn)(void *), void *Obj, void *Dso) {
  if (!orc_rt_Session_current())
    return __cxa_thread_atexit_impl(Fn, Obj, Dso);
  TlsDtor *D = malloc(sizeof(*D));
  if (!D)
    return -1;
  *D = (TlsDtor){Fn, Obj, TlsDtors};
  TlsDtors = D;
  return 0;
}

void orc_rt_jit_Runtime_runThreadDtors(void) {
  while (TlsDtors) {
    TlsDtor *D = TlsDtors;
    TlsDtors = D->Next;
    D->Fn(D->Obj);
    free(D);
  }
}

/*---- pthread_atfork ----*/

/* glibc keeps pthread_atfork in libc_nonshared.a, linked into each object so
 * that it passes that object's __dso_handle (dlclose drops its handlers):
 * libc.so.6 has only a compat version, which a lookup by name does not find.
 * JIT'd code's handlers go to glibc with the program's handle (those of a
 * dlopen'ed module stay after its dlclose: a fork then is a stale call). */
extern int __register_atfork(void (*Prepare)(void), void (*Parent)(void),
                             void (*Child)(void), void *Dso);

int orc_rt_jit_pthread_atfork(void (*Prepare)(void), void (*Parent)(void),
                              void (*Child)(void)) {
  return __register_atfork(Prepare, Parent, Child,
                           &orc_rt_jit_internal_ProgramDso);
}

/*---- pthread_key_create / tss_create destructors ----*/

/* TSD destructors would run when the thread really ends, after it has given
 * its Session token back (when the code may already be freed). So for keys
 * JIT'd code creates, threads the driver started run them themselves, as
 * POSIX does, before leaving JIT'd code; libc then finds the values NULL. */
typedef struct Key {
  pthread_key_t K;
  void (*Dtor)(void *);
  struct Key *Next;
} Key;

static Key *Keys; /* guarded by Lock */

static int rememberKey(pthread_key_t K, void (*Dtor)(void *)) {
  if (!Dtor)
    return 0;
  Key *N = malloc(sizeof(*N));
  if (!N)
    return ENOMEM;
  pthread_mutex_lock(&Lock);
  *N = (Key){K, Dtor, Keys};
  Keys = N;
  pthread_mutex_unlock(&Lock);
  return 0;
}

static void forgetKey(pthread_key_t K) {
  pthread_mutex_lock(&Lock);
  for (Key **P = &Keys; *P; P = &(*P)->Next)
    if ((*P)->K == K) {
      Key *Dead = *P;
      *P = Dead->Next;
      free(Dead);
      break;
    }
  pthread_mutex_unlock(&Lock);
}

int orc_rt_jit_pthread_key_create(pthread_key_t *K, void (*Dtor)(void *)) {
  int EC = pthread_key_create(K, Dtor);
  if (!EC && (EC = rememberKey(*K, Dtor)))
    pthread_key_delete(*K);
  return EC;
}

int orc_rt_jit_pthread_key_delete(pthread_key_t K) {
  forgetKey(K);
  return pthread_key_delete(K);
}

int orc_rt_jit_tss_create(tss_t *K, tss_dtor_t Dtor) {
  int R = tss_create(K, Dtor);
  if (R == thrd_success && rememberKey((pthread_key_t)*K, Dtor)) {
    tss_delete(*K);
    R = thrd_error;
  }
  return R;
}

void orc_rt_jit_tss_delete(tss_t K) {
  forgetKey((pthread_key_t)K);
  tss_delete(K);
}

static void runKeyDtors(void) {
  for (int Round = 0; Round < PTHREAD_DESTRUCTOR_ITERATIONS; ++Round) {
    /* A snapshot: destructors may create or delete keys. */
    pthread_mutex_lock(&Lock);
    size_t N = 0;
    for (Key *K = Keys; K; K = K->Next)
      ++N;
    Key *Snap = N ? malloc(N * sizeof(*Snap)) : NULL;
    N = 0;
    for (Key *K = Keys; K && Snap; K = K->Next)
      Snap[N++] = *K;
    pthread_mutex_unlock(&Lock);
    bool Any = false;
    for (size_t I = 0; I < N; ++I) {
      void *V = pthread_getspecific(Snap[I].K);
      if (V) {
        pthread_setspecific(Snap[I].K, NULL);
        Snap[I].Dtor(V);
        Any = true;
      }
    }
    free(Snap);
    if (!Any)
      break;
  }
}

/*---- pthread_create / thrd_create ----*/

/* Start records live on a list until their thread runs (and unlinks and
 * frees its own); a thread whose entry is denied never does, so what is left
 * after the drain is freed by orc_rt_jit_Runtime_dispose. */
typedef struct Start {
  void *(*PStart)(void *);
  int (*CStart)(void *);
  void *Arg;
  struct Start *Prev, *Next;
} Start;

static Start *Pending;

/* Threads the program started that have not ended yet (a thread whose entry
 * was denied counts until the process ends). Lock guards it; ThreadsChanged
 * is broadcast, under Lock, when it drops to zero. */
static size_t LiveThreads;
static pthread_cond_t ThreadsChanged = PTHREAD_COND_INITIALIZER;

static void threadEnded(void) {
  pthread_mutex_lock(&Lock);
  if (--LiveThreads == 0)
    pthread_cond_broadcast(&ThreadsChanged);
  pthread_mutex_unlock(&Lock);
}

void orc_rt_jit_Runtime_waitForProgramThreads(void) {
  pthread_mutex_lock(&Lock);
  while (LiveThreads)
    pthread_cond_wait(&ThreadsChanged, &Lock);
  pthread_mutex_unlock(&Lock);
}

static Start *newStart(void *(*PStart)(void *), int (*CStart)(void *),
                       void *Arg) {
  Start *S = malloc(sizeof(*S));
  if (!S)
    return NULL;
  *S = (Start){PStart, CStart, Arg, NULL, NULL};
  pthread_mutex_lock(&Lock);
  ++LiveThreads;
  S->Next = Pending;
  if (Pending)
    Pending->Prev = S;
  Pending = S;
  pthread_mutex_unlock(&Lock);
  return S;
}

static Start takeStart(Start *S) {
  pthread_mutex_lock(&Lock);
  if (S->Prev)
    S->Prev->Next = S->Next;
  else
    Pending = S->Next;
  if (S->Next)
    S->Next->Prev = S->Prev;
  pthread_mutex_unlock(&Lock);
  Start Copy = *S;
  free(S);
  return Copy;
}

/* pthread_exit / thrd_exit (and cancellation) unwind the thread's stack and
 * would go on past the Session's callManagedCode frame without giving its
 * token back: the drain would never end. In threads the driver started, the
 * body registers the outermost cleanup handler; when the unwinding reaches it
 * (after every cleanup handler of the JIT'd frames has run) it jumps back into
 * the body, which returns the exit value normally through the Session. */
typedef struct ExitTarget {
  jmp_buf Buf;
  void *PValue;
  int CValue;
  bool Exiting; /* set by pthread_exit / thrd_exit; else a cancellation */
} ExitTarget;

static _Thread_local ExitTarget *CurrentExit;

static void catchExit(void *Arg) {
  ExitTarget *T = Arg;
  if (!T->Exiting) {
    T->PValue = PTHREAD_CANCELED;
    T->CValue = (int)(intptr_t)PTHREAD_CANCELED;
  }
  longjmp(T->Buf, 1);
}

/* Runs Fn(Ctx) with catchExit as the outermost cleanup handler; true if it
 * returned, false if it exited (T holds the value). */
static bool catchingExit(ExitTarget *T, void (*Fn)(void *), void *Ctx) {
  ExitTarget *volatile Prev = CurrentExit;
  T->Exiting = false;
  CurrentExit = T;
  volatile bool Returned = false;
  if (!setjmp(T->Buf)) {
    pthread_cleanup_push(catchExit, T);
    Fn(Ctx);
    Returned = true;
    pthread_cleanup_pop(0);
  }
  CurrentExit = Prev;
  return Returned;
}

bool orc_rt_jit_Runtime_callCatchingExit(void (*Fn)(void *), void *Ctx) {
  ExitTarget T;
  return catchingExit(&T, Fn, Ctx);
}

typedef struct {
  Start *S;
  void **PResult;
  int *CResult;
} StartCall;

static void callStart(void *Ctx) {
  StartCall *C = Ctx;
  if (C->S->PStart)
    *C->PResult = C->S->PStart(C->S->Arg);
  else
    *C->CResult = C->S->CStart(C->S->Arg);
}

/* Runs the start routine; true if it returned, false if it exited (T holds
 * the value). */
static bool runCatchingExit(ExitTarget *T, Start *S, void **PResult,
                            int *CResult) {
  StartCall C = {S, PResult, CResult};
  return catchingExit(T, callStart, &C);
}

static void *pthreadBody(void *Arg) {
  Start S = takeStart(Arg);
  orc_rt_jit_LiveEntry E;
  orc_rt_jit_LiveEntries_enter(&E, NULL, (uint64_t)(uintptr_t)S.PStart);
  ExitTarget T;
  void *R = NULL;
  int Unused;
  if (!runCatchingExit(&T, &S, &R, &Unused))
    R = T.PValue;
  orc_rt_jit_Runtime_runThreadDtors();
  runKeyDtors();
  orc_rt_jit_LiveEntries_leave(&E);
  threadEnded();
  return R;
}

static int thrdBody(void *Arg) {
  Start S = takeStart(Arg);
  orc_rt_jit_LiveEntry E;
  orc_rt_jit_LiveEntries_enter(&E, NULL, (uint64_t)(uintptr_t)S.CStart);
  ExitTarget T;
  void *Unused;
  int R = 0;
  if (!runCatchingExit(&T, &S, &Unused, &R))
    R = T.CValue;
  orc_rt_jit_Runtime_runThreadDtors();
  runKeyDtors();
  orc_rt_jit_LiveEntries_leave(&E);
  threadEnded();
  return R;
}

_Noreturn void orc_rt_jit_pthread_exit(void *Value) {
  ExitTarget *T = CurrentExit;
  if (T) {
    T->PValue = Value;
    T->CValue = (int)(intptr_t)Value;
    T->Exiting = true;
  }
  pthread_exit(Value);
}

_Noreturn void orc_rt_jit_thrd_exit(int Value) {
  ExitTarget *T = CurrentExit;
  if (T) {
    T->PValue = (void *)(intptr_t)Value;
    T->CValue = Value;
    T->Exiting = true;
  }
  thrd_exit(Value);
}

int orc_rt_jit_pthread_create(pthread_t *Thread, const pthread_attr_t *Attr,
                              void *(*Fn)(void *), void *Arg) {
  Start *S = newStart(Fn, NULL, Arg);
  if (!S)
    return EAGAIN;
  bool Old = orc_rt_jit_ThreadInterpose_bypass(true);
  int EC = orc_rt_pthread_create(Thread, Attr, pthreadBody, S);
  orc_rt_jit_ThreadInterpose_bypass(Old);
  if (EC) {
    takeStart(S);
    threadEnded();
  }
  return EC;
}

int orc_rt_jit_thrd_create(void *Thread, int (*Fn)(void *), void *Arg) {
  Start *S = newStart(NULL, Fn, Arg);
  if (!S)
    return thrd_nomem;
  bool Old = orc_rt_jit_ThreadInterpose_bypass(true);
  int R = orc_rt_thrd_create(Thread, thrdBody, S);
  orc_rt_jit_ThreadInterpose_bypass(Old);
  if (R != thrd_success) {
    takeStart(S);
    threadEnded();
  }
  return R;
}

void orc_rt_jit_internal_disposeThreads(void) {
  pthread_mutex_lock(&Lock);
  Start *S = Pending;
  Pending = NULL;
  for (Key *K = Keys, *N; K; K = N) {
    N = K->Next;
    free(K);
  }
  Keys = NULL;
  pthread_mutex_unlock(&Lock);
  while (S) {
    Start *Next = S->Next;
    free(S);
    S = Next;
  }
}
