/*===- lib/jit/controller/RemoteProgram.h - Running a program in an executor process ===*/
/* -jit-kind=mcjit -remote-mcjit -mcjit-remote-process=<executor>: the program
 * runs in the executor process, as with lli. mini-lli compiles each module
 * and links it with RuntimeDyld (MCJIT's linker; RemoteMemory.h) for the
 * executor's addresses, resolves its externals in the executor
 * (SimpleExecutorDylibManager), and copies the code there. Then, in the
 * executor: the destructors are registered with __cxa_atexit, the
 * constructors run, main(argc, argv) runs, and exit(main's value) ends the
 * executor with the program's atexit handlers and destructors, in native
 * order. mini-lli ends with the executor's status.
 *
 * lli itself runs no constructors or destructors remotely and calls main
 * with argc 0; the guide lists these differences. Who holds a token while
 * JIT'd code runs is the executor's business: orc-executor brackets every
 * call, lli-child-target nothing. */

#ifndef ORC_RT_C_LIB_JIT_CONTROLLER_REMOTEPROGRAM_H
#define ORC_RT_C_LIB_JIT_CONTROLLER_REMOTEPROGRAM_H

#include "jit/lli/Options.h"

#include "orc-rt-c/Error.h"

/* Runs the program; *Status is the status mini-lli ends with. */
orc_rt_ErrorRef orc_rt_jit_runRemote(const orc_rt_jit_Options *Opts,
                                     int *Status);

#endif
