/*===- lib/jit/support/LibcPthread.h - libc's own pthread_create ----------===*/
/* The JIT's own threads (compile threads, the lazy creator) are never the
 * program's: they are made with libc's pthread_create, found past any
 * pthread_create the executable defines (mini-lli's interposer,
 * program/ThreadInterpose.h, or a host's own). */

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_LIBCPTHREAD_H
#define ORC_RT_C_LIB_JIT_SUPPORT_LIBCPTHREAD_H

#include <pthread.h>

/* libc's pthread_create; EAGAIN if it cannot be found. */
int orc_rt_jit_realPthreadCreate(pthread_t *Thread, const pthread_attr_t *Attr,
                                 void *(*Fn)(void *), void *Arg);

#endif
