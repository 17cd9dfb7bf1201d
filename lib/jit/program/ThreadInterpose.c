/*===- lib/jit/program/ThreadInterpose.c - pthread_create for the whole process ===*/

#include "jit/program/ThreadInterpose.h"

#include "orc-rt-c/Session.h"

static orc_rt_jit_CreateFn Managed;
static _Thread_local bool Bypass;

void orc_rt_jit_ThreadInterpose_set(orc_rt_jit_CreateFn Fn) { Managed = Fn; }

bool orc_rt_jit_ThreadInterpose_bypass(bool On) {
  bool Old = Bypass;
  Bypass = On;
  return Old;
}

__attribute__((visibility("default"))) int
pthread_create(pthread_t *Thread, const pthread_attr_t *Attr,
               void *(*Fn)(void *), void *Arg) {
  if (Managed && !Bypass && orc_rt_Session_current())
    return Managed(Thread, Attr, Fn, Arg);
  return orc_rt_jit_realPthreadCreate(Thread, Attr, Fn, Arg);
}
