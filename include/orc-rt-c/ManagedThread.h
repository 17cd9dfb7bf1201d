/*===- orc-rt-c/ManagedThread.h - Threads that run managed code -*- C -*-===*\
|* Part of orc-rt-c. Starts threads whose body is managed (JIT'd) code and    *|
|* enters it through the Session, so shutdown drains them like any frame.     *|
\*===----------------------------------------------------------------------===*/
/*
 * A managed thread's start routine runs under orc_rt_Session_callManagedCode:
 * the thread holds a token of its Session for exactly as long as the start
 * routine runs. If that token is denied (shutdown was requested before the new
 * thread got to run), the start routine is not called and the thread exits with
 * ORC_RT_MANAGED_THREAD_DENIED as its result, which pthread_join / thrd_join
 * report.
 *
 * orc_rt_pthread_create and orc_rt_thrd_create have the signatures of
 * pthread_create and thrd_create, so a JIT driver can hand them to JIT'd code
 * under those names. They use the Session whose managed code the calling thread
 * is running (orc_rt_Session_current); called outside managed code they behave
 * exactly like the libc functions.
 *
 * All functions here may be called from JIT'd code; none blocks beyond thread
 * creation.
 */

#ifndef ORC_RT_C_MANAGEDTHREAD_H
#define ORC_RT_C_MANAGEDTHREAD_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Session.h"

#include <pthread.h>

ORC_RT_C_EXTERN_C_BEGIN

/** The result a managed thread exits with when its entry was denied. */
ORC_RT_C_API extern char orc_rt_ManagedThreadDeniedTag;
#define ORC_RT_MANAGED_THREAD_DENIED ((void *)&orc_rt_ManagedThreadDeniedTag)

/** The thrd_join result of a C11 managed thread whose entry was denied. */
#define ORC_RT_MANAGED_THRD_DENIED (-0x0DE1)

/**
 * Starts a thread that runs Start(Arg) as managed code of S. Returns 0 or an
 * errno value, exactly like pthread_create.
 */
ORC_RT_C_API int orc_rt_Session_createManagedThread(orc_rt_SessionRef S,
                                                    pthread_t *Thread,
                                                    const pthread_attr_t *Attr,
                                                    void *(*Start)(void *),
                                                    void *Arg);

/** pthread_create for JIT'd code: a managed thread of the current Session. */
ORC_RT_C_API int orc_rt_pthread_create(pthread_t *Thread,
                                       const pthread_attr_t *Attr,
                                       void *(*Start)(void *), void *Arg);

/**
 * thrd_create for JIT'd code (declared with plain types so this header does not
 * need <threads.h>): Thread points to a thrd_t, Start is a thrd_start_t.
 * Returns thrd_success, thrd_nomem or thrd_error.
 */
ORC_RT_C_API int orc_rt_thrd_create(void *Thread, int (*Start)(void *),
                                    void *Arg);

/**
 * thrd_join for JIT'd code (Thread is a thrd_t, an unsigned long on glibc):
 * joins through pthread_join, as glibc's thrd_join does, but visibly to
 * ThreadSanitizer (glibc's own thrd_join bypasses its interceptors). Returns
 * thrd_success or thrd_error. Blocks until the thread exits.
 */
ORC_RT_C_API int orc_rt_thrd_join(unsigned long Thread, int *Result);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_MANAGEDTHREAD_H */
