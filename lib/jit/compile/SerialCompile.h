/*===- lib/jit/compile/SerialCompile.h - One LLJIT compile at a time ------===*/
/* An LLJIT built through LLVM-C compiles IR with one target machine
 * (SimpleCompiler: LLVM-C cannot ask for ConcurrentIRCompiler), and a target
 * machine is not thread-safe: its object-file lowering keeps the MCContext
 * of the compile under way. Bodies of one module share an LLVMContext, whose
 * lock keeps their compiles apart, but two threads making first calls into
 * two modules at once (mini-lli's orc-lazy with -extra-module; a host's two
 * Tiered versions) compiled together and corrupted each other's symbols:
 * "symbol 'f' is already defined", bad relocations, SIGSEGV (lli-22 fails
 * the same way).
 *
 * So the LLJIT's IR transform calls SerialCompile_begin, and the same thread
 * calls SerialCompile_end right after the compile: in the object transform,
 * or, if the compile (or the transform) failed, in the session's error
 * reporter, which the compile layer calls on that thread. Nothing between
 * the transform and the compile compiles, so a thread holds one S for one
 * compile; a nested begin on a thread that holds S only counts. */

#ifndef ORC_RT_C_LIB_JIT_COMPILE_SERIALCOMPILE_H
#define ORC_RT_C_LIB_JIT_COMPILE_SERIALCOMPILE_H

#include <pthread.h>

typedef struct {
  pthread_mutex_t Lock;
} orc_rt_jit_SerialCompile;

void orc_rt_jit_SerialCompile_init(orc_rt_jit_SerialCompile *S);
void orc_rt_jit_SerialCompile_dispose(orc_rt_jit_SerialCompile *S);

/* Waits until no other thread compiles with S's LLJIT. */
void orc_rt_jit_SerialCompile_begin(orc_rt_jit_SerialCompile *S);

/* Ends this thread's compile; nothing if this thread holds no S. */
void orc_rt_jit_SerialCompile_end(orc_rt_jit_SerialCompile *S);

#endif
