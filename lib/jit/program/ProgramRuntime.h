/*===- lib/jit/program/ProgramRuntime.h - What mini-lli gives JIT'd code --===*/
/* The driver's own versions of a few libc entry points, defined in the JIT'd
 * program's JITDylib ahead of the process's: atexit / __cxa_atexit (kept in a
 * list the driver runs after the entry), __dso_handle, exit (finishes the
 * program's lifecycle first), and pthread_create / thrd_create (the new thread
 * enters JIT'd code through the Session and is registered as a live entry),
 * pthread_exit / thrd_exit (return through the Session in such threads),
 * at_quick_exit / quick_exit, __cxa_thread_atexit. */

#ifndef ORC_RT_C_LIB_JIT_PROGRAM_PROGRAMRUNTIME_H
#define ORC_RT_C_LIB_JIT_PROGRAM_PROGRAMRUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  const char *Name;
  uint64_t Addr;
  bool Callable;
} orc_rt_jit_Override;

/* The symbols to define in the program's JITDylib. */
const orc_rt_jit_Override *orc_rt_jit_Runtime_overrides(size_t *Count);

/* What JIT'd code's exit(Status) does; must not return. Set by the driver. */
typedef void (*orc_rt_jit_ExitFn)(int Status, void *Ctx);
void orc_rt_jit_Runtime_setExit(orc_rt_jit_ExitFn Fn, void *Ctx);

/* What JIT'd code's quick_exit(Status) does (after at_quick_exit handlers
 * are taken with orc_rt_jit_Runtime_popQuickHandler); must not return. */
void orc_rt_jit_Runtime_setQuickExit(orc_rt_jit_ExitFn Fn, void *Ctx);

/* Takes the most recent at_quick_exit handler; false if there is none. */
bool orc_rt_jit_Runtime_popQuickHandler(void (**Out)(void));

/* A handler registered by JIT'd code with atexit or __cxa_atexit. One list
 * holds them all, as glibc's: exit runs them newest first whoever registered
 * them, and unloading a dlopen'ed module runs those registered with its
 * __dso_handle (glibc's __cxa_finalize). */
typedef struct {
  void (*Fn)(void *);
  void *Arg;
  void *Dso;  /* __cxa_atexit's third argument (NULL for atexit) */
  bool NoArg; /* registered with atexit: call Fn() */
} orc_rt_jit_Handler;

/* The status on_exit handlers are called with: exit's argument, or what
 * the entry returned. Set by the driver before the handlers run. */
void orc_rt_jit_Runtime_setExitStatus(int Status);

/* Takes the most recently registered handler; false if there is none. */
bool orc_rt_jit_Runtime_popHandler(orc_rt_jit_Handler *Out);

/* Takes the most recently registered handler whose Dso is Dso; false if there
 * is none. */
bool orc_rt_jit_Runtime_popHandlerOf(const void *Dso, orc_rt_jit_Handler *Out);

/* Takes the most recently registered handler of the program itself (not of a
 * dlopen'ed module), as __cxa_finalize(the program's __dso_handle) would;
 * false if there is none. */
bool orc_rt_jit_Runtime_popProgramHandler(orc_rt_jit_Handler *Out);

/* Calls Fn(Ctx); false if Fn ended its thread with pthread_exit / thrd_exit
 * (caught here, after every cleanup handler of its frames has run, so the
 * caller returns normally through its managed frame). */
bool orc_rt_jit_Runtime_callCatchingExit(void (*Fn)(void *), void *Ctx);

/* Waits until every thread the program started (pthread_create /
 * thrd_create) has ended. */
void orc_rt_jit_Runtime_waitForProgramThreads(void);

/* Runs the calling thread's C++ thread_local destructors (registered with
 * __cxa_thread_atexit), newest first. Call inside the thread's managed frame.
 */
void orc_rt_jit_Runtime_runThreadDtors(void);

/* Stops accepting handlers (later registrations fail) and frees the start
 * records of threads whose entry was denied. Call after the drain. */
void orc_rt_jit_Runtime_dispose(void);

#endif
