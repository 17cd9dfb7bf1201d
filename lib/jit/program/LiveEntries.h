/*===- lib/jit/program/LiveEntries.h - Which threads are inside JIT'd code ===*/
/* A registry of the entries into JIT'd code that mini-lli made (or that JIT'd
 * code made through mini-lli's pthread_create / thrd_create): which thread,
 * through which symbol, since when. Used for the -shutdown-timeout report. */

#ifndef ORC_RT_C_LIB_JIT_PROGRAM_LIVEENTRIES_H
#define ORC_RT_C_LIB_JIT_PROGRAM_LIVEENTRIES_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

typedef struct orc_rt_jit_LiveEntry {
  pid_t Tid;
  const char *Symbol; /* may be NULL: then Addr names the entry */
  uint64_t Addr;
  struct timespec Start; /* CLOCK_MONOTONIC */
  struct orc_rt_jit_LiveEntry *Prev, *Next;
} orc_rt_jit_LiveEntry;

/* Registers E (owned by the caller, typically on its stack) for this thread. */
void orc_rt_jit_LiveEntries_enter(orc_rt_jit_LiveEntry *E, const char *Symbol,
                                  uint64_t Addr);

/* Unregisters E. */
void orc_rt_jit_LiveEntries_leave(orc_rt_jit_LiveEntry *E);

/* Names an entry address, or returns NULL. */
typedef const char *(*orc_rt_jit_SymbolizeFn)(uint64_t Addr, void *Ctx);

/* Prints one line per live entry, oldest first; returns how many. */
size_t orc_rt_jit_LiveEntries_report(FILE *Out, orc_rt_jit_SymbolizeFn Sym,
                                     void *Ctx);

#include "orc-rt-c/Session.h"

/* orc_rt_Session_callManagedCode, with the call registered as a live entry
 * (Symbol, or Addr if Symbol is NULL) for exactly the span it runs. */
bool orc_rt_jit_LiveEntries_call(orc_rt_SessionRef S, const char *Symbol,
                                 uint64_t Addr, orc_rt_ManagedFn Fn, void *Ctx);
#endif
