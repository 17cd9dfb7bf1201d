/*===- lib/jit/ThreadInterpose.c - pthread_create for the whole process ---===*/

#include "jit/ThreadInterpose.h"

#include "orc-rt-c/Session.h"

#include <dlfcn.h>
#include <errno.h>
#include <string.h>

static orc_rt_jit_CreateFn Managed;
static _Thread_local bool Bypass;

void orc_rt_jit_ThreadInterpose_set(orc_rt_jit_CreateFn Fn) { Managed = Fn; }

bool orc_rt_jit_ThreadInterpose_bypass(bool On) {
  bool Old = Bypass;
  Bypass = On;
  return Old;
}

int orc_rt_jit_realPthreadCreate(pthread_t *Thread, const pthread_attr_t *Attr,
                                 void *(*Fn)(void *), void *Arg) {
  static orc_rt_jit_CreateFn Real; /* racy first use writes the same value */
  orc_rt_jit_CreateFn R = __atomic_load_n(&Real, __ATOMIC_ACQUIRE);
  if (!R) {
    void *Sym = dlsym(RTLD_NEXT, "pthread_create");
    if (!Sym)
      return EAGAIN;
    memcpy(&R, &Sym, sizeof(Sym));
    __atomic_store_n(&Real, R, __ATOMIC_RELEASE);
  }
  return R(Thread, Attr, Fn, Arg);
}

__attribute__((visibility("default"))) int
pthread_create(pthread_t *Thread, const pthread_attr_t *Attr,
               void *(*Fn)(void *), void *Arg) {
  if (Managed && !Bypass && orc_rt_Session_current())
    return Managed(Thread, Attr, Fn, Arg);
  return orc_rt_jit_realPthreadCreate(Thread, Attr, Fn, Arg);
}
