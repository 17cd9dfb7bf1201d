/*===- lib/jit/controller/ExecutorClient.h - The controller's end of SimpleRemoteEPC ===*/
/* mini-lli as the controller of an executor process (-remote-mcjit): starts
 * the executor as lli starts its child, reads its Setup message, and calls
 * its bootstrap wrapper functions one at a time, waiting for each Result.
 * Works with any executor that speaks LLVM 22's protocol: lli-child-target,
 * llvm-jitlink-executor (by path) and orc-executor. The wire format is
 * described in docs/Remote.md. Calls are serialised by a mutex: one call is
 * in flight at a time, as the remote run needs nothing more. */

#ifndef ORC_RT_C_LIB_JIT_CONTROLLER_EXECUTORCLIENT_H
#define ORC_RT_C_LIB_JIT_CONTROLLER_EXECUTORCLIENT_H

#include "orc-rt-c/Error.h"
#include "orc-rt-c/SPS.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct orc_rt_jit_Executor orc_rt_jit_Executor;

/* Starts Path with lli's command line, `Path <in-fd> <out-fd>`, and reads its
 * Setup. The bootstrap symbols the remote run calls must all be there. */
orc_rt_ErrorRef orc_rt_jit_Executor_launch(orc_rt_jit_Executor **Result,
                                           const char *Path);

/* The address of a bootstrap symbol the executor advertised (0: none). */
uint64_t orc_rt_jit_Executor_bootstrapSymbol(orc_rt_jit_Executor *E,
                                             const char *Name);

/* Calls the wrapper function at Tag with the SPS argument bytes in Args and
 * returns the Result's payload in *Out (malloc'd; NULL if empty). Fails with
 * "disconnecting" if the executor went away meanwhile. */
orc_rt_ErrorRef orc_rt_jit_Executor_call(orc_rt_jit_Executor *E, uint64_t Tag,
                                         const orc_rt_SPSWriter *Args,
                                         char **Out, size_t *OutSize);

/* True once the executor has gone away (EOF, Hangup or a failed write): every
 * call since has failed with "disconnecting". */
bool orc_rt_jit_Executor_disconnected(orc_rt_jit_Executor *E);

/*---- The bootstrap calls (names and signatures in docs/Remote.md) ----*/

/* SimpleExecutorMemoryManager reserve: Size bytes of read-write memory. */
orc_rt_ErrorRef orc_rt_jit_Executor_reserve(orc_rt_jit_Executor *E,
                                            uint64_t Size, uint64_t *Addr);
/* SimpleExecutorMemoryManager release of reservations made by reserve. */
orc_rt_ErrorRef orc_rt_jit_Executor_release(orc_rt_jit_Executor *E,
                                            const uint64_t *Bases, size_t N);
/* SimpleExecutorMemoryManager initialize, in two steps so that the segments'
 * bytes are written once: beginInitialize starts W with the instance; the
 * caller appends the FinalizeRequest (segments, then action pairs);
 * initialize sends it and disposes of W. */
void orc_rt_jit_Executor_beginInitialize(orc_rt_jit_Executor *E,
                                         orc_rt_SPSWriter *W);
orc_rt_ErrorRef orc_rt_jit_Executor_initialize(orc_rt_jit_Executor *E,
                                               orc_rt_SPSWriter *W);
/* SimpleExecutorDylibManager open ("" is the executor itself). */
orc_rt_ErrorRef orc_rt_jit_Executor_open(orc_rt_jit_Executor *E,
                                         const char *Path, uint64_t *Handle);
/* SimpleExecutorDylibManager resolve of N names in the library Handle: each
 * address, or 0 where the library has no such symbol. */
orc_rt_ErrorRef orc_rt_jit_Executor_resolve(orc_rt_jit_Executor *E,
                                            uint64_t Handle,
                                            const char *const *Names, size_t N,
                                            uint64_t *Addrs);
/* main(argc, argv) at Fn on an executor thread, with Args as argv. */
orc_rt_ErrorRef orc_rt_jit_Executor_runAsMain(orc_rt_jit_Executor *E,
                                              uint64_t Fn, int Argc,
                                              char *const *Args,
                                              int64_t *Result);
/* int Fn(void), or int Fn(int Arg) if WithArg. */
orc_rt_ErrorRef orc_rt_jit_Executor_runAsInt(orc_rt_jit_Executor *E,
                                             uint64_t Fn, bool WithArg,
                                             int32_t Arg, int32_t *Result);

/* Ends the session as lli does (closes both pipes, no Hangup) and waits for
 * the executor process to end; *WaitStatus is waitpid's. Frees E. */
void orc_rt_jit_Executor_close(orc_rt_jit_Executor *E, int *WaitStatus);

#endif
