/*===- lib/jit/program/RuntimeParts.h - The functions behind the driver's symbols ===*/
/* Declarations shared by ProgramRuntime.c (the table of symbols defined for
 * JIT'd code) and the files that implement them. Each has the signature of
 * the libc/C++ ABI function it stands in for. */

#ifndef ORC_RT_C_LIB_JIT_PROGRAM_RUNTIMEPARTS_H
#define ORC_RT_C_LIB_JIT_PROGRAM_RUNTIMEPARTS_H

#include <pthread.h>
#include <threads.h>

/* RuntimeExit.c */
extern char orc_rt_jit_internal_ProgramDso; /* the program's __dso_handle */
int orc_rt_jit_atexit(void (*Fn)(void));
int orc_rt_jit_on_exit(void (*Fn)(int, void *), void *Arg);
int orc_rt_jit_cxa_atexit(void (*Fn)(void *), void *Arg, void *Dso);
int orc_rt_jit_at_quick_exit(void (*Fn)(void));
int orc_rt_jit_cxa_at_quick_exit(void (*Fn)(void), void *Dso);
_Noreturn void orc_rt_jit_exit(int Status);
_Noreturn void orc_rt_jit_quick_exit(int Status);
void orc_rt_jit_internal_disposeExit(void);

/* RuntimeThreads.c */
int orc_rt_jit_pthread_create(pthread_t *Thread, const pthread_attr_t *Attr,
                              void *(*Fn)(void *), void *Arg);
int orc_rt_jit_thrd_create(void *Thread, int (*Fn)(void *), void *Arg);
_Noreturn void orc_rt_jit_pthread_exit(void *Value);
_Noreturn void orc_rt_jit_thrd_exit(int Value);
int orc_rt_jit_cxa_thread_atexit(void (*Fn)(void *), void *Obj, void *Dso);
int orc_rt_jit_pthread_atfork(void (*Prepare)(void), void (*Parent)(void),
                              void (*Child)(void));
int orc_rt_jit_pthread_key_create(pthread_key_t *K, void (*Dtor)(void *));
int orc_rt_jit_pthread_key_delete(pthread_key_t K);
int orc_rt_jit_tss_create(tss_t *K, tss_dtor_t Dtor);
void orc_rt_jit_tss_delete(tss_t K);
void orc_rt_jit_internal_disposeThreads(void);

#endif
