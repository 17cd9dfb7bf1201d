/*===- lib/jit/host/HostThreadDtors.c - Modules' thread_local destructors ===*/
/* A module's C++ thread_local destructors (__cxa_thread_atexit), as glibc
 * treats a shared library's: each runs when its thread ends, and the
 * version whose code it is stays until then (glibc keeps a library with
 * such a destructor pending loaded past dlclose). A module's JITDylib
 * resolves __cxa_thread_atexit to orc_rt_jit_Host_threadAtexit
 * (HostModule.c), which pins the version (HostVersion.ThreadDtors) and hands
 * glibc a record; at the thread's end the record's run calls the
 * destructor's code -- directly, not through its stub, which an unload or a
 * reload has closed -- then unpins. A version whose group completed while
 * pinned finishes completing at its last unpin (HostVersion.c, onComplete).
 * When the Jit goes (its Session's shutdown), the destructors not run yet are
 * cancelled: a thread that ends later runs none, as the code is gone.
 *
 * A record is shared by glibc's list (until its run) and the Jit's (until
 * the run or the cancel takes it out): two references. Its Lock orders a run
 * and a cancel: a cancel waits for a run in progress, so the Jit outlives
 * every run that began before the cancel. */

#include "jit/host/HostThreadDtors.h"
#include "jit/host/HostVersion.h"
#include "jit/modules/ModuleStubs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* glibc's: registers Fn(Obj) to run when the calling thread ends. */
extern int __cxa_thread_atexit_impl(void (*Fn)(void *), void *Obj, void *Dso);

enum { Armed, Ran, Cancelled };

typedef struct orc_rt_jit_ThreadDtor {
  void (*Fn)(void *);
  void *Obj;
  orc_rt_jit_HostVersion *V;
  pthread_mutex_t Lock; /* guards State */
  int State;
  atomic_int Refs;
  bool Listed;                               /* under J->SymLock */
  struct orc_rt_jit_ThreadDtor *Prev, *Next; /* in J->ThreadDtors */
} ThreadDtor;

static void unref(ThreadDtor *D) {
  if (atomic_fetch_sub(&D->Refs, 1) != 1)
    return;
  pthread_mutex_destroy(&D->Lock);
  free(D);
}

/* Under SymLock: D out of J's list; true if it was in it (the list's
 * reference is then the caller's to drop). */
static bool unlist(orc_rt_JitRef J, ThreadDtor *D) {
  if (!D->Listed)
    return false;
  if (D->Prev)
    D->Prev->Next = D->Next;
  else
    J->ThreadDtors = D->Next;
  if (D->Next)
    D->Next->Prev = D->Prev;
  D->Listed = false;
  return true;
}

/* glibc's call at the thread's end. */
static void run(void *Arg) {
  ThreadDtor *D = Arg;
  pthread_mutex_lock(&D->Lock);
  if (D->State == Armed) {
    orc_rt_jit_HostVersion *V = D->V;
    orc_rt_JitRef J = V->M->J;
    /* The code the pointer the module registered leads to: its stub may
     * deny the call (the version was unloaded or replaced), but the code
     * is here, pinned. */
    void (*Code)(void *) = (void (*)(void *))(
        uintptr_t)orc_rt_jit_ModuleStubs_codeOf((uintptr_t)D->Fn);
    Code(D->Obj);
    pthread_mutex_lock(&J->SymLock);
    bool Listed = unlist(J, D);
    pthread_mutex_unlock(&J->SymLock);
    if (Listed)
      unref(D); /* (the run's reference keeps D) */
    D->State = Ran;
    orc_rt_jit_HostVersion_unpinThreadDtor(V); /* may free V: last */
  }
  pthread_mutex_unlock(&D->Lock);
  unref(D);
}

int orc_rt_jit_Host_threadAtexit(void (*Fn)(void *), void *Obj, void *Dso) {
  orc_rt_jit_HostVersion *V = orc_rt_jit_HostVersion_ofDso(Dso);
  if (!V) /* not a module's: glibc's own way */
    return __cxa_thread_atexit_impl(Fn, Obj, Dso);
  ThreadDtor *D = calloc(1, sizeof(*D));
  if (!D)
    return -1;
  *D = (ThreadDtor){.Fn = Fn, .Obj = Obj, .V = V, .State = Armed};
  pthread_mutex_init(&D->Lock, NULL);
  atomic_init(&D->Refs, 2);
  orc_rt_JitRef J = V->M->J;
  orc_rt_jit_HostVersion_pinForThreadDtor(V);
  pthread_mutex_lock(&J->SymLock);
  D->Next = J->ThreadDtors;
  if (D->Next)
    D->Next->Prev = D;
  J->ThreadDtors = D;
  D->Listed = true;
  pthread_mutex_unlock(&J->SymLock);
  /* With an address of this library's, so that glibc keeps the library of
   * run() loaded until it has run (NULL, for "the program", crashes glibc
   * 2.36 on a thread's first registration). */
  static char Here;
  return __cxa_thread_atexit_impl(run, D, &Here);
}

void orc_rt_jit_Host_cancelThreadDtors(orc_rt_JitRef J) {
  for (;;) {
    pthread_mutex_lock(&J->SymLock);
    ThreadDtor *D = J->ThreadDtors;
    if (D)
      unlist(J, D);
    pthread_mutex_unlock(&J->SymLock);
    if (!D)
      return;
    pthread_mutex_lock(&D->Lock); /* waits for a run in progress */
    bool Cancel = D->State == Armed;
    if (Cancel)
      D->State = Cancelled;
    pthread_mutex_unlock(&D->Lock);
    if (Cancel)
      orc_rt_jit_HostVersion_unpinThreadDtor(D->V);
    unref(D);
  }
}
