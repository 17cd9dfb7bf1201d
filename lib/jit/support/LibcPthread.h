/*===- lib/jit/support/LibcPthread.h - libc's own pthread_create, _join ---===*/
/* The JIT's own threads (compile threads, the lazy creator) are never the
 * program's: they are made with libc's pthread_create, found past any
 * pthread_create the executable defines (mini-lli's interposer,
 * program/ThreadInterpose.h, or a host's own) -- through a sanitizer's
 * interceptor of it if the process has one, which then calls libc's. */

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_LIBCPTHREAD_H
#define ORC_RT_C_LIB_JIT_SUPPORT_LIBCPTHREAD_H

#include <pthread.h>

/* libc's pthread_create (or a sanitizer's over it); EAGAIN if there is
 * none. */
int orc_rt_jit_realPthreadCreate(pthread_t *Thread, const pthread_attr_t *Attr,
                                 void *(*Fn)(void *), void *Arg);

/* The pthread_join found the same way, for a thread realPthreadCreate made:
 * a join the executable intercepts would not know the thread (a host built
 * with AddressSanitizer, whose pthread_create and pthread_join are in the
 * executable, aborted: "Joining already joined thread"). */
int orc_rt_jit_realPthreadJoin(pthread_t Thread, void **Result);

#endif
