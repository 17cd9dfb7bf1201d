/*===- lib/jit/support/LibcPthread.c - libc's own pthread_create ----------===*/

#include "jit/support/LibcPthread.h"

#include <dlfcn.h>
#include <errno.h>
#include <string.h>

typedef int (*CreateFn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                        void *);

int orc_rt_jit_realPthreadCreate(pthread_t *Thread, const pthread_attr_t *Attr,
                                 void *(*Fn)(void *), void *Arg) {
  static CreateFn Real; /* racy first use writes the same value */
  CreateFn R = __atomic_load_n(&Real, __ATOMIC_ACQUIRE);
  if (!R) {
    void *Sym = dlsym(RTLD_NEXT, "pthread_create");
    if (!Sym)
      return EAGAIN;
    memcpy(&R, &Sym, sizeof(Sym));
    __atomic_store_n(&Real, R, __ATOMIC_RELEASE);
  }
  return R(Thread, Attr, Fn, Arg);
}
