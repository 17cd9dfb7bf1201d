/*===- lib/jit/controller/RemoteStart.h - What a remote program gets from crt and libc ===*/
/* The module of IR mini-lli adds to a program it runs in an executor process
 * (RemoteProgram.h): what a native program gets from its crt files and
 * libc_nonshared.a, which no executor exports, and how __libc_start_main
 * starts and ends it.
 *
 *  - __dso_handle, atexit and at_quick_exit (on __cxa_atexit /
 *    __cxa_at_quick_exit, as glibc's);
 *  - EmuTLS.h's ORC_RT_JIT_TLS_ADDRESS, on the executor's
 *    __emutls_get_address and dlsym;
 *  - REMOTE_REGISTER_DTORS: registers one handler that runs the destructors
 *    in exit order (called before the constructors, as _dl_fini's handler is
 *    registered first);
 *  - REMOTE_MAIN(argc, argv): exit(entry(argc, argv, environ)), on main's
 *    thread, as __libc_start_main does;
 *  - the end of a main that calls pthread_exit: natively the process lives
 *    on until its last thread ends, then exits with status 0. An executor
 *    that exports orc_rt_ExecutorServices_callAsMainThread (orc-executor)
 *    does it: main is called through it (found with dlsym), which returns once
 *    the program's last thread has ended, and exit(0) follows. Elsewhere
 *    pthread_create and exit are wrapped (each calling the executor's own,
 *    found with dlsym) to count the program's threads and to tell exit from
 *    pthread_exit; a thread-exit handler on main's thread then waits for the
 *    count to reach zero and calls exit(0). Threads the program starts from
 *    native code (a library's pthread_create, such as std::thread's inside
 *    libstdc++, or thrd_create) are not counted there: those may be cut
 *    short. */

#ifndef ORC_RT_C_LIB_JIT_CONTROLLER_REMOTESTART_H
#define ORC_RT_C_LIB_JIT_CONTROLLER_REMOTESTART_H

#include "jit/ir/Module.h"

#include "orc-rt-c/Error.h"

#include <llvm-c/Core.h>

#define REMOTE_REGISTER_DTORS "__mini_lli_remote_register_dtors"
#define REMOTE_MAIN "__mini_lli_remote_main"

/* The module, in C, for a program whose entry is Entry and whose destructors
 * (sorted by priority) are Dtors. */
orc_rt_ErrorRef orc_rt_jit_remoteStartModule(LLVMContextRef C,
                                             const char *Entry,
                                             const orc_rt_jit_InitList *Dtors,
                                             LLVMModuleRef *Out);

#endif
