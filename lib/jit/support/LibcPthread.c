/*===- lib/jit/support/LibcPthread.c - libc's own pthread_create, _join ---===*/

#include "jit/support/LibcPthread.h"

#include <dlfcn.h>
#include <errno.h>
#include <string.h>

/* Name's definition to use, cached in *Cache (a racy first use writes the
 * same value); NULL if there is none: a sanitizer's interceptor of it, if
 * the process has one (AddressSanitizer and ThreadSanitizer must see every
 * thread: ThreadSanitizer crashed in a thread made past it), else the
 * definition found past the executable's (libc's). */
static void *next(const char *Name, void **Cache) {
  void *Sym = __atomic_load_n(Cache, __ATOMIC_ACQUIRE);
  if (!Sym) {
    char Interceptor[64] = "__interceptor_";
    strncat(Interceptor, Name, sizeof(Interceptor) - strlen(Interceptor) - 1);
    Sym = dlsym(RTLD_DEFAULT, Interceptor);
    if (!Sym)
      Sym = dlsym(RTLD_NEXT, Name);
    __atomic_store_n(Cache, Sym, __ATOMIC_RELEASE);
  }
  return Sym;
}

int orc_rt_jit_realPthreadCreate(pthread_t *Thread, const pthread_attr_t *Attr,
                                 void *(*Fn)(void *), void *Arg) {
  static void *Cache;
  void *Sym = next("pthread_create", &Cache);
  if (!Sym)
    return EAGAIN;
  int (*Create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
  memcpy(&Create, &Sym, sizeof(Sym));
  return Create(Thread, Attr, Fn, Arg);
}

int orc_rt_jit_realPthreadJoin(pthread_t Thread, void **Result) {
  static void *Cache;
  void *Sym = next("pthread_join", &Cache);
  if (!Sym)
    return pthread_join(Thread, Result);
  int (*Join)(pthread_t, void **);
  memcpy(&Join, &Sym, sizeof(Sym));
  return Join(Thread, Result);
}
