/*===- lib/jit/compile/SerialCompile.c - One LLJIT compile at a time ------===*/

#include "jit/compile/SerialCompile.h"

/* The S this thread compiles under, and how many begins it has not ended. */
static _Thread_local orc_rt_jit_SerialCompile *Held;
static _Thread_local unsigned Depth;

void orc_rt_jit_SerialCompile_init(orc_rt_jit_SerialCompile *S) {
  pthread_mutex_init(&S->Lock, NULL);
}

void orc_rt_jit_SerialCompile_dispose(orc_rt_jit_SerialCompile *S) {
  pthread_mutex_destroy(&S->Lock);
}

void orc_rt_jit_SerialCompile_begin(orc_rt_jit_SerialCompile *S) {
  if (Held == S) {
    ++Depth;
    return;
  }
  /* Orders this compile after the last one's end (its unlock). */
  pthread_mutex_lock(&S->Lock);
  Held = S;
  Depth = 1;
}

void orc_rt_jit_SerialCompile_end(orc_rt_jit_SerialCompile *S) {
  if (Held != S || --Depth)
    return;
  Held = NULL;
  pthread_mutex_unlock(&S->Lock);
}
