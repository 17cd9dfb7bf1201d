/*===- lib/jit/program/LiveEntries.c - Which threads are inside JIT'd code ===*/

#include "jit/program/LiveEntries.h"

#include <inttypes.h>
#include <pthread.h>
#include <unistd.h>

/* LeakSanitizer (ASan builds): allocations made by the JIT'd program are the
 * program's business, and its globals (the roots) vanish with the JIT's memory
 * at shutdown, so they are ignored while a thread is inside JIT'd code. */
__attribute__((weak)) void __lsan_disable(void);
__attribute__((weak)) void __lsan_enable(void);

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static orc_rt_jit_LiveEntry *Oldest, *Newest;

void orc_rt_jit_LiveEntries_enter(orc_rt_jit_LiveEntry *E, const char *Symbol,
                                  uint64_t Addr) {
  E->Tid = gettid();
  E->Symbol = Symbol;
  E->Addr = Addr;
  clock_gettime(CLOCK_MONOTONIC, &E->Start);
  if (__lsan_disable)
    __lsan_disable();
  pthread_mutex_lock(&Lock);
  E->Next = NULL;
  E->Prev = Newest;
  if (Newest)
    Newest->Next = E;
  else
    Oldest = E;
  Newest = E;
  pthread_mutex_unlock(&Lock);
}

void orc_rt_jit_LiveEntries_leave(orc_rt_jit_LiveEntry *E) {
  pthread_mutex_lock(&Lock);
  if (E->Prev)
    E->Prev->Next = E->Next;
  else
    Oldest = E->Next;
  if (E->Next)
    E->Next->Prev = E->Prev;
  else
    Newest = E->Prev;
  pthread_mutex_unlock(&Lock);
  if (__lsan_enable)
    __lsan_enable();
}

size_t orc_rt_jit_LiveEntries_report(FILE *Out, orc_rt_jit_SymbolizeFn Sym,
                                     void *Ctx) {
  struct timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now);
  size_t N = 0;
  pthread_mutex_lock(&Lock);
  for (orc_rt_jit_LiveEntry *E = Oldest; E; E = E->Next, ++N) {
    double Secs = (double)(Now.tv_sec - E->Start.tv_sec) +
                  (double)(Now.tv_nsec - E->Start.tv_nsec) / 1e9;
    const char *Name = E->Symbol ? E->Symbol : Sym ? Sym(E->Addr, Ctx) : NULL;
    if (Name)
      fprintf(Out, "  thread %d: entered through '%s', inside for %.1f s\n",
              (int)E->Tid, Name, Secs);
    else
      fprintf(Out,
              "  thread %d: entered through 0x%" PRIx64
              " (unnamed), inside for %.1f s\n",
              (int)E->Tid, E->Addr, Secs);
  }
  pthread_mutex_unlock(&Lock);
  return N;
}

typedef struct {
  const char *Symbol;
  uint64_t Addr;
  orc_rt_ManagedFn Fn;
  void *Ctx;
} Call;

static void runRegistered(void *Arg) {
  Call *C = Arg;
  orc_rt_jit_LiveEntry E;
  orc_rt_jit_LiveEntries_enter(&E, C->Symbol, C->Addr);
  C->Fn(C->Ctx);
  orc_rt_jit_LiveEntries_leave(&E);
}

bool orc_rt_jit_LiveEntries_call(orc_rt_SessionRef S, const char *Symbol,
                                 uint64_t Addr, orc_rt_ManagedFn Fn,
                                 void *Ctx) {
  Call C = {Symbol, Addr, Fn, Ctx};
  return orc_rt_Session_callManagedCode(S, runRegistered, &C);
}
