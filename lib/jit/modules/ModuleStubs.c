/*===- lib/jit/modules/ModuleStubs.c - Token-taking entry stubs for loaded modules ===*/
/* Layout of a stub page (4096 bytes, read+execute once filled):
 *
 *   [0, 8)      address of its stubs' entry: moduleStubCall (register-only
 *               functions) or moduleStubEntry (any other), one kind a page
 *   [8, 16)     unused
 *   [16 + 16*i) slot i:  49 BB <imm64>     movabs $record_i, %r11
 *                        FF 25 <rel32>     jmp *page[0](%rip)
 *
 * Every slot of a page is written (with its record's address) when the page is
 * mapped, before it becomes executable; handing out a slot only fills its
 * record (plain memory, written before the stub's address is published to
 * anyone who could call it). %r11 is a scratch register in the SysV ABI,
 * unused for arguments. The register-only entry (moduleStubCall) takes the
 * token and calls the function inline (its C path for what its fast path does
 * not take); the general entry saves the argument registers, calls
 * ModuleStubs_enter (token, shadow stack, return-address swap), restores them
 * and jumps to the function, which returns into moduleStubReturn: it saves
 * the return registers, calls ModuleStubs_leave (token back, real return
 * address) and returns there.
 *
 * A front page's slots are 32 bytes:
 *                        49 BB <imm64>     movabs $record_i, %r11
 *                        4D 8B 1B          movq (%r11), %r11
 *                        41 FF 63 38       jmp *56(%r11)
 * (the front record's Target is the current version's stub's record, whose
 * Entry is its page's entry: the jump lands where the version's own slot
 * would have gone, with its record in %r11); page[0] is unused. */

#include "jit/modules/ModuleStubs.h"
#include "jit/support/ArgRegsAsm.h"
#include "jit/support/PtrSet.h"

#include "core/TaskGroup.h"
#include "orc-rt-c/Session.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "ModuleStubs.c: the stubs are written for x86-64"
#endif

#define PAGE 4096u
#define FIRST_SLOT 16u

/* A stub's record is never freed or reused, so a thread may read it at any
 * time. Retiring its module (retire, below) changes Module, FastIndex and
 * Group for good; every other field is written before the stub is published
 * or, like Target and Front, by a store that the readers' orders allow. */
typedef struct Record {
  uintptr_t Target;              /* 0: read by the entries */
  orc_rt_jit_StubModule *Module; /* written by retire under Lock */
  char *Name;
  bool FloatArgs; /* 24: read by the register-only C path */
  /* 28: the group's token slot index, UINT32_MAX in fallback mode */
  uint32_t FastIndex;
  orc_rt_TaskGroupRef Group; /* Module->Group, one load nearer */
  uintptr_t Self;            /* the stub's address */
  /* The front (its Record) a call denied here goes on through once Module
   * is Superseded; NULL: none (a front's own, or mini-lli's modules). */
  struct Record *Front;
  uintptr_t Entry; /* 56: its page's entry, read by the fronts */
  /* Where a call denied here goes on once Module is Superseded, if Front is
   * NULL (setOnward); 0: none. */
  uintptr_t Onward;
} Record;

_Static_assert(offsetof(Record, Target) == 0 &&
                   offsetof(Record, FloatArgs) == 24 &&
                   offsetof(Record, FastIndex) == 28 &&
                   offsetof(Record, Entry) == 56,
               "the entries read Target, FloatArgs and FastIndex, the fronts "
               "Target and Entry");

typedef struct StubPage {
  unsigned char *Code;
  Record *Records;
  unsigned Used, Slot, Slots; /* slots handed out, slot size, slots */
  uintptr_t Entry;
} StubPage;

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
/* Every page, by its code's address (pages are never freed): a stub's record
 * is found without walking the pages (a host that reloads a module makes
 * pages as it goes). */
static orc_rt_jit_PtrSet PageOf;
/* Where the next stub goes, by kind: general, register-only, front. */
enum { GeneralKind, RegsOnlyKind, FrontKind, NumKinds };
static StubPage *Filling[NumKinds];

void orc_rt_jit_moduleStubEntry(void);
void orc_rt_jit_moduleStubCall(void);
void orc_rt_jit_moduleStubReturn(void);

static StubPage *newPage(unsigned Kind) {
  uintptr_t Entry = Kind == GeneralKind ? (uintptr_t)orc_rt_jit_moduleStubEntry
                    : Kind == RegsOnlyKind
                        ? (uintptr_t)orc_rt_jit_moduleStubCall
                        : 0;
  unsigned Slot = Kind == FrontKind ? 32 : 16,
           Slots = (PAGE - FIRST_SLOT) / Slot;
  StubPage *P = calloc(1, sizeof(*P));
  Record *R = P ? calloc(Slots, sizeof(Record)) : NULL;
  void *Mem = R ? mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                : MAP_FAILED;
  if (Mem == MAP_FAILED) {
    free(R);
    free(P);
    return NULL;
  }
  unsigned char *C = Mem;
  memcpy(C, &Entry, 8);
  for (unsigned I = 0; I < Slots; ++I) {
    unsigned char *S = C + FIRST_SLOT + I * Slot;
    uintptr_t Rec = (uintptr_t)&R[I];
    S[0] = 0x49, S[1] = 0xBB;
    memcpy(S + 2, &Rec, 8);
    if (Kind == FrontKind) {
      static const unsigned char Jump[] = {0x4D, 0x8B, 0x1B,        /* mov */
                                           0x41, 0xFF, 0x63, 0x38}; /* jmp */
      memcpy(S + 10, Jump, sizeof(Jump));
      continue;
    }
    S[10] = 0xFF, S[11] = 0x25;
    int32_t Rel = -(int32_t)(FIRST_SLOT + I * Slot + Slot); /* to page[0] */
    memcpy(S + 12, &Rel, 4);
  }
  if (mprotect(Mem, PAGE, PROT_READ | PROT_EXEC) ||
      orc_rt_jit_PtrSet_put(&PageOf, Mem, P) < 0) {
    munmap(Mem, PAGE);
    free(R);
    free(P);
    return NULL;
  }
  P->Code = C;
  P->Records = R;
  P->Slot = Slot;
  P->Slots = Slots;
  P->Entry = Entry;
  return P;
}

/* A slot of Kind with its record filled from R (the name copied); its
 * address, or 0 if memory is exhausted. */
static uint64_t allocate(unsigned Kind, Record R) {
  if (!(R.Name = strdup(R.Name)))
    return 0;
  pthread_mutex_lock(&Lock);
  StubPage *P = Filling[Kind];
  if (!P || P->Used == P->Slots) {
    P = newPage(Kind);
    if (!P) {
      pthread_mutex_unlock(&Lock);
      free(R.Name);
      return 0;
    }
    Filling[Kind] = P;
  }
  unsigned I = P->Used++;
  uint64_t Addr = (uintptr_t)(P->Code + FIRST_SLOT + I * P->Slot);
  R.Entry = P->Entry;
  P->Records[I] = R;
  /* The record is published to callers with the stub's address (dlsym's
   * result, a symbol definition, a front's target), which happens after
   * this. Release: pairs with the acquire load of Self in push, the C path,
   * which is all a TSan build runs (its tokens are in fallback mode) and
   * where it must see the record and the group written (the entry paths'
   * loads are machine code TSan does not see; on x86 the address
   * dependency orders them). */
  __atomic_store_n(&P->Records[I].Self, Addr, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&Lock);
  return Addr;
}

uint64_t orc_rt_jit_ModuleStubs_create(orc_rt_jit_StubModule *M,
                                       const char *Name, uint64_t Target,
                                       bool RegsOnly, bool FloatArgs) {
  return allocate(RegsOnly ? RegsOnlyKind : GeneralKind,
                  (Record){.Target = (uintptr_t)Target,
                           .Module = M,
                           .Name = (char *)Name,
                           .FloatArgs = FloatArgs,
                           .FastIndex = M->Group->Tokens.FastIndex,
                           .Group = M->Group});
}

static Record *findRecordOfKind(uint64_t Addr, bool *Front) {
  Record *Found = NULL;
  pthread_mutex_lock(&Lock);
  StubPage *P = orc_rt_jit_PtrSet_get(
      &PageOf, (const void *)(uintptr_t)(Addr & ~(uint64_t)(PAGE - 1)));
  uintptr_t Base = P ? (uintptr_t)P->Code + FIRST_SLOT : 0;
  if (P && Addr >= Base && Addr < Base + P->Used * P->Slot &&
      (Addr - Base) % P->Slot == 0)
    Found = &P->Records[(Addr - Base) / P->Slot];
  *Front = Found && !P->Entry; /* (a front page has no entry) */
  pthread_mutex_unlock(&Lock);
  return Found;
}

static Record *findRecord(uint64_t Addr) {
  bool Front;
  return findRecordOfKind(Addr, &Front);
}

uint64_t orc_rt_jit_ModuleStubs_codeOf(uint64_t Addr) {
  bool Front;
  Record *R = findRecordOfKind(Addr, &Front);
  if (R && Front) /* a front's target is its stub's record */
    R = (Record *)__atomic_load_n(&R->Target, __ATOMIC_ACQUIRE);
  return R ? __atomic_load_n(&R->Target, __ATOMIC_ACQUIRE) : Addr;
}

uint64_t orc_rt_jit_ModuleStubs_createFront(orc_rt_jit_StubModule *M,
                                            const char *Name, uint64_t Target) {
  Record *To = findRecord(Target);
  if (!To)
    return 0;
  return allocate(FrontKind, (Record){.Target = (uintptr_t)To,
                                      .Module = M,
                                      .Name = (char *)Name,
                                      .FastIndex = UINT32_MAX});
}

void orc_rt_jit_ModuleStubs_setTarget(uint64_t Stub, uint64_t Target) {
  Record *R = findRecord(Stub);
  if (R)
    /* Release: pairs with the C paths' acquire load of Target (the code the
     * stub leads to is linked before this; on x86 the entries' plain loads,
     * after the address that published the stub, are ordered the same). */
    __atomic_store_n(&R->Target, (uintptr_t)Target, __ATOMIC_RELEASE);
}

/* A front's Target (the record of the stub it leads to) is read by its
 * slot's code (any thread, no lock) and by denied below: the release store
 * orders everything the new target's version set up (its stubs' records,
 * its code) before it. */
void orc_rt_jit_ModuleStubs_retarget(uint64_t Front, uint64_t Target) {
  Record *R = findRecord(Front), *To = findRecord(Target);
  if (R && To)
    __atomic_store_n(&R->Target, (uintptr_t)To, __ATOMIC_RELEASE);
}

uint64_t orc_rt_jit_ModuleStubs_frontTarget(uint64_t Front) {
  Record *R = findRecord(Front);
  Record *To =
      R ? (Record *)__atomic_load_n(&R->Target, __ATOMIC_ACQUIRE) : NULL;
  return To ? To->Self : 0;
}

/* Written before the module's Superseded mark (release), which denied reads
 * first (acquire). */
void orc_rt_jit_ModuleStubs_setFront(uint64_t Stub, uint64_t Front) {
  Record *R = findRecord(Stub), *F = findRecord(Front);
  if (R)
    __atomic_store_n(&R->Front, F, __ATOMIC_RELAXED);
}

/* Written, like Front, before the module's Superseded mark. */
void orc_rt_jit_ModuleStubs_setOnward(uint64_t Stub, uint64_t Addr) {
  Record *R = findRecord(Stub);
  if (R)
    __atomic_store_n(&R->Onward, (uintptr_t)Addr, __ATOMIC_RELAXED);
}

bool orc_rt_jit_ModuleStubs_lookup(uint64_t Addr, const char **Name,
                                   const orc_rt_jit_StubModule **M) {
  Record *R = findRecord(Addr);
  if (!R)
    return false;
  *Name = R->Name;
  *M = __atomic_load_n(&R->Module, __ATOMIC_ACQUIRE); /* see retire */
  return true;
}

/*---- Retiring a superseded module's stubs ----*/

/* A retired module waiting for its grace period. */
typedef struct Retired {
  orc_rt_jit_StubModule *M;
  Record **Records; /* its stubs', now pointing at another module */
  size_t N;
  struct Retired *Next;
} Retired;

static Retired *Limbo; /* under Lock */

static void freeRetired(Retired *R) {
  orc_rt_TokenSource_dispose(R->M->Tokens); /* the group, and its index */
  free(R->M->Path);
  free(R->M);
  free(R->Records);
  free(R);
}

void orc_rt_jit_ModuleStubs_retire(orc_rt_jit_StubModule *M,
                                   const uint64_t *Stubs, size_t N,
                                   orc_rt_jit_StubModule *Into) {
  Retired *R = calloc(1, sizeof(*R));
  Record **Recs = R && N ? calloc(N, sizeof(*Recs)) : NULL;
  if (!R || (N && !Recs)) {
    free(R); /* M stays, as every module's did before retiring */
    return;
  }
  R->M = M;
  R->Records = Recs;
  for (size_t I = 0; I < N; ++I) {
    Record *Rec = findRecord(Stubs[I]);
    if (Rec && Rec->Module == M)
      Recs[R->N++] = Rec;
  }
  pthread_mutex_lock(&Lock);
  for (size_t I = 0; I < R->N; ++I) {
    Record *Rec = Recs[I];
    /* Release: Into (its Superseded mark set before) is complete for
     * denied's acquire load. */
    __atomic_store_n(&Rec->Module, Into, __ATOMIC_RELEASE);
    /* The entry paths' slot check then fails: the C path. */
    __atomic_store_n(&Rec->FastIndex, UINT32_MAX, __ATOMIC_RELAXED);
    /* seq_cst: before reclaim's fence (and, without membarrier, the
     * store half of the store->load pair push's hazard pairs with). */
    __atomic_store_n(&Rec->Group, NULL, __ATOMIC_SEQ_CST);
  }
  R->Next = Limbo;
  Limbo = R;
  pthread_mutex_unlock(&Lock);
  orc_rt_jit_ModuleStubs_reclaim();
}

/*---- The per-thread shadow stack ----*/

/* One entry per live call through a stub on this thread. Sp is the caller's
 * stack pointer after the call returns: on the thread's own stack, outer calls
 * have larger values, so an entry whose Sp is not above the current one
 * belongs to a frame that is gone (left with longjmp or unwinding) and its
 * token is given back. That holds only while both are on the thread's own
 * stack: a frame on another stack (a coroutine's, entered with swapcontext;
 * a signal handler's sigaltstack) may be suspended, not gone, so its entry
 * is kept until its own return or the thread's end -- unless it lies on the
 * thread's alternate signal stack while the thread runs on its own
 * (leftOnAltStack) -- and a call made on another stack gives back nothing.
 * The entry
 * paths' inline code (moduleStubCall, moduleStubEntry, moduleStubReturn)
 * reads and writes entries too: the layout is theirs. */
typedef struct {
  uintptr_t Ret; /* 0: the general entry's caller's return address */
  uintptr_t Sp;  /* 8 */
  /* 16: the Record, tagged with NoToken if the call was entered during
   * shutdown under the caller's token; written before Top is bumped, read
   * by the report. */
  uintptr_t Rec;
  /* 24: leftOnAltStack's remembered verdict (also keeps entries 32 bytes: a
   * shift, not a multiply); the entry paths do not write it. */
  uintptr_t Judged;
} Entry;

#define NoToken ((uintptr_t)1)

_Static_assert(sizeof(Entry) == 32 && offsetof(Entry, Sp) == 8 &&
                   offsetof(Entry, Rec) == 16,
               "the entry paths write entries");

static Record *recordOf(const Entry *E) {
  return (Record *)(__atomic_load_n(&E->Rec, __ATOMIC_RELAXED) & ~NoToken);
}

/* A thread's shadow stack: Entries[0] is a sentinel whose Sp is above every
 * frame (so Top[-1] can always be read), live entries are [Entries + 1, Top).
 * Top and Limit are read by the entry paths through one thread-local (0 and
 * 0 until the thread's first entry, which the C path makes: Top < Limit then
 * fails). Entries moves only in grow, under Lock, on its own thread: the
 * entry paths keep no pointer into it across the call they guard. */
typedef struct Shadow {
  Entry *Top;   /* 0: written only by its thread; read by the report */
  Entry *Limit; /* 8 */
  /* 16: the record of the stub this thread entered last, stored by every
   * entry before it reads anything of the record but Entry (the hazard of
   * retire's grace period, below); read by reclaim under Lock. */
  uintptr_t Hazard;
  Entry *Entries;
  uintptr_t Lo, Hi; /* the thread's own stack */
  pid_t Tid;
  struct Shadow *Prev, *Next; /* in Threads, under Lock */
} Shadow;

_Static_assert(offsetof(Shadow, Top) == 0 && offsetof(Shadow, Limit) == 8 &&
                   offsetof(Shadow, Hazard) == 16,
               "the entry paths read Top and Limit and write Hazard");

/* This thread's; the entry paths reach it at a fixed %fs offset (local-exec:
 * ModuleStubs.c is linked into mini-lli, an executable). Another thread (the
 * report) reads it through Threads, under Lock, while this thread is
 * registered. */
__attribute__((visibility(
    "hidden"))) _Thread_local Shadow orc_rt_jit_ModuleStubs_thisThread;
#define My (&orc_rt_jit_ModuleStubs_thisThread)

static Shadow *Threads; /* guarded by Lock */
static pthread_key_t ExitKey;
static pthread_once_t KeyOnce = PTHREAD_ONCE_INIT;

/* Top is published with a release store (the report's acquire load then sees
 * the entries below it written); on x86 the entry paths' plain stores, in
 * program order, are the same. */
static void setTop(Shadow *S, Entry *T) {
  __atomic_store_n(&S->Top, T, __ATOMIC_RELEASE);
}

/* Lowers Top to T, whose slot is then left vacant: its Sp reads as above
 * every frame (as the sentinel's does). A signal handler that called through
 * a stub while an entry path was between writing its entry above Top and
 * bumping Top leaves its own values in that entry; with the slot left vacant
 * at the handler's last return, a second handler that comes after the bump
 * and before the entry path writes its values again sees an outer frame in
 * it, not a frame left by longjmp (which it would give back, taking the
 * interrupted call's token). The entry paths in assembly do the same. Only
 * this thread reads an entry's Sp: volatile is enough. */
#define Vacant UINTPTR_MAX
static void lowerTop(Shadow *S, Entry *T) {
  setTop(S, T);
  ((volatile Entry *)T)->Sp = Vacant;
}

static void releaseEntry(Entry *E) {
  if (!(E->Rec & NoToken))
    orc_rt_TaskGroup_releaseToken(recordOf(E)->Group);
}

/* At thread exit: tokens of frames never returned from (the thread ended
 * inside a module, e.g. pthread_exit) go back; then the stack goes. */
static void threadExit(void *Arg) {
  Shadow *S = Arg;
  for (Entry *T = S->Top; T - 1 > S->Entries;) {
    releaseEntry(--T);
    setTop(S, T);
  }
  pthread_mutex_lock(&Lock);
  if (S->Prev)
    S->Prev->Next = S->Next;
  else
    Threads = S->Next;
  if (S->Next)
    S->Next->Prev = S->Prev;
  free(S->Entries);
  *S = (Shadow){0};
  pthread_mutex_unlock(&Lock);
}

static void makeKey(void) { pthread_key_create(&ExitKey, threadExit); }

/* The calling thread's stack, [*Lo, *Hi); everything if it cannot be told
 * (then a frame on another stack is taken for a gone one, as before). */
static void ownStack(uintptr_t *Lo, uintptr_t *Hi) {
  *Lo = 0;
  *Hi = UINTPTR_MAX;
  pthread_attr_t A;
  if (pthread_getattr_np(pthread_self(), &A))
    return;
  void *Addr;
  size_t Size;
  if (!pthread_attr_getstack(&A, &Addr, &Size)) {
    *Lo = (uintptr_t)Addr;
    *Hi = (uintptr_t)Addr + Size;
  }
  pthread_attr_destroy(&A);
}

static bool onOwnStack(const Shadow *S, uintptr_t Sp) {
  return Sp >= S->Lo && Sp < S->Hi;
}

static _Noreturn void fatal(const char *Fmt, const char *A, const char *B) {
  fflush(stdout);
  fprintf(stderr, Fmt, A, B);
  fflush(stderr);
  _exit(1);
}

/* A thread's first entry and a shadow stack's growth allocate and take
 * locks (Lock, malloc's, glibc's in pthread_getattr_np): a signal handler
 * that left them by siglongjmp (a timeout's way) would leave the lock held,
 * and the thread's next entry would wait for it for ever. Signals wait for
 * their end (rare: once per thread, and per doubling). */
static void blockSignals(sigset_t *Old) {
  sigset_t All;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, Old);
}

static __attribute__((noinline)) void newShadow(Shadow *S) {
  sigset_t Old;
  blockSignals(&Old);
  pthread_once(&KeyOnce, makeKey);
  size_t Cap = 16;
  Entry *E = calloc(Cap, sizeof(Entry));
  if (!E || pthread_setspecific(ExitKey, S))
    fatal("mini-lli: error: %s%s\n",
          "out of memory entering a dlopen'ed module", "");
  E[0].Sp = UINTPTR_MAX;
  ownStack(&S->Lo, &S->Hi);
  pthread_mutex_lock(&Lock);
  S->Entries = E;
  S->Limit = E + Cap;
  S->Tid = gettid();
  S->Prev = NULL;
  S->Next = Threads;
  if (Threads)
    Threads->Prev = S;
  Threads = S;
  setTop(S, E + 1);
  pthread_mutex_unlock(&Lock);
  pthread_sigmask(SIG_SETMASK, &Old, NULL);
}

static __attribute__((noinline)) void grow(Shadow *S) {
  size_t Cap = 2 * (size_t)(S->Limit - S->Entries);
  sigset_t Old;
  blockSignals(&Old);
  pthread_mutex_lock(&Lock); /* the report reads Entries under Lock */
  size_t Used = (size_t)(S->Top - S->Entries);
  Entry *N = realloc(S->Entries, Cap * sizeof(Entry));
  if (N) {
    S->Entries = N;
    S->Limit = N + Cap;
    setTop(S, N + Used);
  }
  pthread_mutex_unlock(&Lock);
  pthread_sigmask(SIG_SETMASK, &Old, NULL);
  if (!N)
    fatal("mini-lli: error: %s%s\n",
          "out of memory entering a dlopen'ed module", "");
}

/* Removes the entries [From, Top) but those Keep says to keep, which move
 * down to From in their order (a frame's entry is found by its place only
 * from the top: what is above it stays above it); gives back the tokens of
 * the others, innermost first, as their returns would have: a group whose
 * completion frees another's bookkeeping (a host version's frees its tier-0
 * code's) completes after the groups of the frames inside it. A removed
 * entry is marked in Judged (Dropped: even, never a verdict's tag) until it
 * is overwritten. */
#define Dropped ((uintptr_t)2)
static void compact(Shadow *S, Entry *From,
                    bool (*Keep)(const Shadow *S, Entry *E, uintptr_t Sp),
                    uintptr_t Sp) {
  Entry *T = S->Top;
  for (Entry *E = T; E-- > From;) {
    if (Keep(S, E, Sp)) {
      if (E->Judged == Dropped) /* (left by an entry removed before) */
        E->Judged = 0;
      continue;
    }
    E->Judged = Dropped;
    releaseEntry(E);
  }
  Entry *To = From;
  for (Entry *E = From; E < T; ++E)
    if (E->Judged != Dropped)
      *To++ = *E;
  lowerTop(S, To);
}

/* E, a frame on another stack, judged from a call on the thread's own
 * stack: it was left on the thread's alternate signal stack -- a handler
 * there that left by siglongjmp, or by longjmp from a function it called --
 * if E lies on that stack and the thread is not running on it (sigaltstack
 * says so; a call from the thread's own stack cannot be on it, unless a
 * handler switched away with swapcontext, which this takes for leaving). A
 * frame suspended on a stack of its own (a coroutine's) is not. The verdict
 * "not left" is remembered in the entry (Judged, a tag of its Sp and record
 * that a fresh entry does not carry by chance), so that a coroutine
 * suspended inside a module, judged at every C-path call its thread makes,
 * costs one sigaltstack call, not one per call; "left" is decided afresh
 * each time (the entry is then given back). */
static bool leftOnAltStack(Entry *E) {
  uintptr_t Tag = ((E->Sp ^ E->Rec) * (uintptr_t)0x9E3779B97F4A7C15u) | 1;
  if (E->Judged == Tag)
    return false;
  stack_t Alt;
  if (!sigaltstack(NULL, &Alt) && !(Alt.ss_flags & (SS_DISABLE | SS_ONSTACK)) &&
      E->Sp > (uintptr_t)Alt.ss_sp &&
      E->Sp <= (uintptr_t)Alt.ss_sp + Alt.ss_size)
    return true;
  E->Judged = Tag;
  return false;
}

/* Of a frame on another stack, or of any from a call on another stack: 1 to
 * keep it, 0 to give it back; -1 for a frame on the thread's own stack
 * judged from a call on it (the rules below decide). Kept: any, from a call
 * on another stack; a frame on another stack, unless it was left on the
 * alternate signal stack. */
static int foreign(const Shadow *S, Entry *E, uintptr_t Sp) {
  if (!onOwnStack(S, Sp))
    return 1;
  if (onOwnStack(S, E->Sp))
    return -1;
  return !leftOnAltStack(E);
}

/* The return addresses a stub leaves on the stack while the function it
 * entered runs (the asm below): the general entry's swapped return address,
 * and where the register-only entry's call returns in its fast and its C
 * path. */
void orc_rt_jit_moduleStubCallReturns(void);
void orc_rt_jit_moduleStubCallSlowReturns(void);

/* E's frame is certainly gone: what its stub keeps on the stack while the
 * function runs is not there any more -- the general entry's swapped return
 * address at Sp - 8; the register-only entry's call's return address at
 * Sp - 24 (fast path), or its record at Sp - 32 and its call's return
 * address at Sp - 232 (C path) -- so the stack there has been reused since
 * a longjmp or an exception left the frame. A live frame always has them (a
 * function does not write its caller's frame), also while suspended on a
 * stack of its own; a gone one whose stack was not yet reused still has
 * them, and counts as live until it is. Reads this thread's own stack words,
 * which may be other frames' (not instrumented). */
__attribute__((no_sanitize("address"))) static bool frameGone(const Entry *E) {
  const volatile uintptr_t *Sp = (const volatile uintptr_t *)E->Sp;
  return Sp[-1] != (uintptr_t)orc_rt_jit_moduleStubReturn &&
         Sp[-3] != (uintptr_t)orc_rt_jit_moduleStubCallReturns &&
         !(Sp[-4] == (E->Rec & ~NoToken) &&
           Sp[-29] == (uintptr_t)orc_rt_jit_moduleStubCallSlowReturns);
}

/* Kept by a call through a stub whose caller resumes at Sp, of the frames
 * not above Sp (dropDead's walk): a frame on another stack (foreign); one below Sp
 * whose stub's words are still in place (it may be suspended on a stack
 * that is part of this one -- a coroutine's, a signal handler's alternate
 * stack in a local array -- while the call runs on another part, or gone
 * with its stack not yet reused). A frame whose caller resumed at Sp itself
 * is gone: the call is made from where it was. */
static bool keepOnCall(const Shadow *S, Entry *E, uintptr_t Sp) {
  int F = foreign(S, E, Sp);
  return F >= 0 ? F : E->Sp < Sp && !frameGone(E);
}

/* Kept by the return of a call whose caller resumes at Sp, of the frames
 * entered after it: a frame on another stack (foreign), or above Sp (suspended on
 * another part of this stack: the returning call is not inside it). Those
 * below Sp are gone, whatever stack they were on in this one: the returning
 * frame held them. */
static bool keepOnReturn(const Shadow *S, Entry *E, uintptr_t Sp) {
  int F = foreign(S, E, Sp);
  return F >= 0 ? F : E->Sp > Sp;
}

/* Kept by a thread that leaves module code at Sp (dlclose, unload,
 * shutdown: cold paths): a frame on another stack (foreign), or one whose caller
 * resumes above Sp and whose stub's words are still in place. Frames below
 * Sp count as gone here even with their words in place (left by a longjmp
 * from deeper than the stack has been reused since): a frame suspended on a
 * stack that is part of this one is taken for gone too, so unloading its
 * module from another part of the stack, or shutting down, does not wait for
 * it. */
static bool keepLeaving(const Shadow *S, Entry *E, uintptr_t Sp) {
  int F = foreign(S, E, Sp);
  return F >= 0 ? F : E->Sp > Sp && !frameGone(E);
}

/* Gives back the tokens of frames on the thread's own stack not above Sp
 * that are gone (keepOnCall), if Sp is on it; entries of frames on other
 * stacks stay. The first entry above Sp, or the sentinel, stops the walk. */
static void dropDead(Shadow *S, uintptr_t Sp) {
  Entry *From = S->Top;
  while (From - 1 > S->Entries &&
         (From[-1].Sp <= Sp || !onOwnStack(S, From[-1].Sp)))
    --From;
  if (onOwnStack(S, Sp) && From < S->Top)
    compact(S, From, keepOnCall, Sp);
}

void orc_rt_jit_ModuleStubs_dropDeadFrames(uintptr_t Sp) {
  Shadow *S = My;
  if (S->Entries && onOwnStack(S, Sp) && S->Top > S->Entries + 1)
    compact(S, S->Entries + 1, keepLeaving, Sp);
}

/* R's token was denied. Superseded by a reload: the call goes on to the
 * front's current target (returned), unless the reload removed the function
 * (the front still names this stub): a stale call. Superseded by a tier-up:
 * on to R's Onward (the function's front, now leading to tier 1). Closed by Session
 * shutdown: the code is freed only after the Session's drain, which waits
 * for the caller's token, so the call may go on under it (0 returned).
 * Closed by dlclose or unload: the code is (or soon will be) gone. */
static __attribute__((noinline, cold)) uintptr_t denied(Record *R) {
  /* Retired or not, the module read here stays while this thread's hazard
   * names R (see retire). */
  const orc_rt_jit_StubModule *M =
      __atomic_load_n(&R->Module, __ATOMIC_ACQUIRE);
  /* Acquire: pairs with the release store of the mark, made before the
   * group was closed (which is what denied us), after R->Front and the
   * front's new Target were stored; a retired module's mark was set before
   * it was published (retire's release store of Module). */
  if (__atomic_load_n(&M->Superseded, __ATOMIC_ACQUIRE)) {
    Record *F = __atomic_load_n(&R->Front, __ATOMIC_RELAXED);
    Record *To =
        F ? (Record *)__atomic_load_n(&F->Target, __ATOMIC_ACQUIRE) : NULL;
    if (To && To != R) /* its stub: the call enters it as from the front */
      return To->Self;
    uintptr_t On = __atomic_load_n(&R->Onward, __ATOMIC_RELAXED);
    if (!F && On) /* another kind of front, which leads to the new code */
      return On;
  }
  bool ByShutdown = __atomic_load_n(&M->ClosedByShutdown, __ATOMIC_ACQUIRE);
  /* A caller inside managed code or inside another module holds a token
   * that the Session's drain waits for. */
  if (ByShutdown &&
      (orc_rt_Session_current() || (My->Entries && My->Top > My->Entries + 1)))
    return 0;
  if (M->OnStale) {
    M->OnStale(R->Name, M->Path, M->StaleCtx);
    /* The handler must not return: where would the call go? */
    fflush(stdout);
    fprintf(stderr,
            "orc-rt-c: error: the stale-call handler returned from the call "
            "to '%s' in module '%s'\n",
            R->Name, M->Path);
    abort();
  }
  if (!ByShutdown)
    fatal("mini-lli: error: call to '%s' in module '%s', which has been "
          "unloaded (dlclose)\n",
          R->Name, M->Path);
  fatal("mini-lli: error: call to '%s' in module '%s' after shutdown was "
        "requested, from outside JIT'd code\n",
        R->Name, M->Path);
}

/* Makes E, the entry above Top, the live entry of a call: written, Top
 * bumped past it, written again. A signal handler that calls through a stub
 * before the bump writes the same entry (it is above Top) and leaves its own
 * call's values there when it returns, its Sp vacant (lowerTop: a second
 * handler after the bump leaves the entry alone); the second write, made
 * once the entry is live and so out of a handler's reach, puts this call's
 * back. The entry paths in assembly below write again only if the entry's Sp
 * changed (a handler's call's Sp is never this call's: its frames are below
 * this one's, or on another stack). Volatile and atomic: the compiler must not
 * take the second write for a redundant one. */
static void publish(Shadow *S, Entry *E, uintptr_t Ret, uintptr_t Sp,
                    uintptr_t Rec) {
  volatile Entry *V = E;
  for (int Pass = 0; Pass < 2; ++Pass) {
    V->Ret = Ret;
    V->Sp = Sp;
    /* Relaxed: the report reads Rec on another thread (recordOf). */
    __atomic_store_n(&E->Rec, Rec, __ATOMIC_RELAXED);
    if (!Pass)
      setTop(S, E + 1);
  }
}

/* The C path of an entry (the entry paths' fast path did not take it: the
 * thread's first entry, a full stack, frames left by longjmp to give back,
 * fallback token mode, a denied token): takes R's token (see denied) and
 * pushes an entry for a call whose caller resumes with stack pointer Sp at
 * Ret. Returns 0, or where a call denied at a superseded version goes
 * instead: then, if Always, an entry without a token is pushed (the
 * register-only path pops one at its return), else none. */
static uintptr_t push(Record *R, uintptr_t Sp, uintptr_t Ret, bool Always) {
  (void)__atomic_load_n(&R->Self, __ATOMIC_ACQUIRE); /* see allocate */
  Shadow *S = My;
  /* Registered (under Lock) before R's group is read: a reclaim that did not
   * see this thread retired R before (so R->Group reads NULL below), one
   * after reads its hazard. */
  if (!S->Entries)
    newShadow(S);
  /* The hazard again, seq_cst, then the group, seq_cst: the reader's half
   * of retire's grace period where no membarrier orders the entry path's
   * plain store (fallback mode, which is all a TSan build runs). Either
   * reclaim's load of the hazard sees R, or this load sees the NULL that
   * retire stored before its fence. */
  __atomic_store_n(&S->Hazard, (uintptr_t)R, __ATOMIC_SEQ_CST);
  orc_rt_TaskGroupRef G = __atomic_load_n(&R->Group, __ATOMIC_SEQ_CST);
  bool Token = G && orc_rt_TaskGroup_acquireToken(G); /* NULL: retired */
  uintptr_t To = 0;
  if (__builtin_expect(!Token, 0)) {
    To = denied(R);
    if (To && !Always)
      return To;
  }
  dropDead(S, Sp);
  if (S->Top == S->Limit)
    grow(S);
  Entry *E = S->Top;
  uintptr_t Rec = (uintptr_t)R | (Token ? 0 : NoToken);
  publish(S, E, Ret, Sp, Rec);
  return To;
}

/* A call returned through a stub whose entry is not on the shadow stack:
 * a rule above took a live frame for a gone one. Its token went back early
 * and a general entry's return address is lost: nothing sound is left to
 * do. */
static __attribute__((noinline, cold, noreturn)) void lost(uintptr_t Sp) {
  fflush(stdout);
  fprintf(stderr,
          "orc-rt-c: internal error: a call through a module stub returned "
          "(to stack pointer %#lx) after its frame was counted as gone\n",
          (unsigned long)Sp);
  abort();
}

/* Pops the entry of the call whose caller resumes at Sp (giving back the
 * tokens of dead frames above it first, keeping those of frames on other
 * stacks), gives its token back and returns it. */
static Entry pop(uintptr_t Sp) {
  Shadow *S = My;
  Entry *T = S->Top, *Ours = T - 1;
  while (Ours > S->Entries && Ours->Sp != Sp) /* (found: it is live) */
    --Ours;
  if (Ours == S->Entries) /* (the sentinel: see lost) */
    lost(Sp);
  Entry E = *Ours;
  /* Above ours: frames left by longjmp (on this stack, below ours) and
   * frames suspended on other stacks or other parts of this one. */
  Entry *Above = Ours + 1;
  if (Above < T)
    compact(S, Above, keepOnReturn, Sp);
  T = S->Top;
  memmove(Ours, Ours + 1, (size_t)(T - Ours - 1) * sizeof(Entry));
  lowerTop(S, T - 1);
  /* May complete the module's group (and so schedule its unloading): the
   * module's code is not on this stack any more. */
  releaseEntry(&E);
  return E;
}

/* The general entry: called with the stub's record and the address of the
 * caller's return-address slot, which it swaps for the return path's;
 * returns the function to jump to. */
__attribute__((used, visibility("hidden"))) uintptr_t
orc_rt_jit_ModuleStubs_enter(Record *R, uintptr_t *RetSlot) {
  uintptr_t To = push(R, (uintptr_t)(RetSlot + 1), *RetSlot, false);
  if (To) /* to the current version's stub, with the caller's frame as is */
    return To;
  *RetSlot = (uintptr_t)orc_rt_jit_moduleStubReturn;
  return __atomic_load_n(&R->Target, __ATOMIC_ACQUIRE); /* see setTarget */
}

/* The register-only entry's C path: the stub calls the function itself. */
__attribute__((used, visibility("hidden"))) uintptr_t
orc_rt_jit_ModuleStubs_enterCall(Record *R, uintptr_t Sp) {
  uintptr_t To = push(R, Sp, 0, true);
  return To ? To : __atomic_load_n(&R->Target, __ATOMIC_ACQUIRE);
}

/* The register-only return's C path (the fast path found a frame left by
 * longjmp above its own, or a count it did not expect). */
__attribute__((used, visibility("hidden"))) void
orc_rt_jit_ModuleStubs_leaveCall(uintptr_t Sp) {
  pop(Sp);
}

/* Called by the general return path with the caller's stack pointer; gives
 * the token back and returns the address to return to. */
__attribute__((used, visibility("hidden"))) uintptr_t
orc_rt_jit_ModuleStubs_leave(uintptr_t Sp) {
  return pop(Sp).Ret;
}

size_t orc_rt_jit_ModuleStubs_reportLiveFrames(FILE *Out) {
  size_t N = 0;
  pthread_mutex_lock(&Lock);
  for (Shadow *S = Threads; S; S = S->Next) {
    /* Acquire: pairs with setTop's release (and, for the entry paths' plain
     * stores, with x86's store order): the entries below Top are written. */
    Entry *Top = __atomic_load_n(&S->Top, __ATOMIC_ACQUIRE);
    for (Entry *E = S->Entries + 1; E < Top; ++E) {
      Record *R = recordOf(E);
      if (!R || R->Module->Unlisted)
        continue;
      ++N;
      fprintf(Out, "  thread %d: inside '%s' of module '%s' (dlopen)\n",
              (int)S->Tid, R->Name, R->Module->Path);
    }
  }
  pthread_mutex_unlock(&Lock);
  return N;
}

/*---- The grace period ----*/

#ifndef MEMBARRIER_CMD_PRIVATE_EXPEDITED
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#endif

/* A full barrier in every thread of the process: membarrier, which the
 * runtime registered if the kernel offers it (its token fast path relies on
 * it too). If it did not, this fails and does nothing: every token is then in
 * fallback mode, so every entry takes the C path, whose seq_cst hazard store
 * and group load pair with retire's seq_cst group store and reclaim's seq_cst
 * hazard loads without a fence (the store-buffering pattern, all seq_cst:
 * one of the two loads sees the other side's store). That is also all a TSan
 * build sees. */
static void fenceEveryThread(void) {
  (void)syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

/* Under Lock, after a fence that followed R's retirement: no registered
 * thread but the caller has its hazard on one of R's records. The caller is
 * not between an entry's hazard store and its token (it is here), so its own
 * hazard does not count. */
static bool unused(const Retired *R) {
  for (Shadow *S = Threads; S; S = S->Next) {
    if (S == My)
      continue;
    /* seq_cst: pairs with push's seq_cst store (see retire). */
    uintptr_t H = __atomic_load_n(&S->Hazard, __ATOMIC_SEQ_CST);
    for (size_t I = 0; I < R->N; ++I)
      if (H == (uintptr_t)R->Records[I])
        return false;
  }
  return true;
}

/* Under Lock: no thread but the caller is registered. Then no fence is
 * needed: a thread registers (under Lock) before the C path reads a record's
 * group, and the entry paths' fast path needs a registered thread, so every
 * other thread reads the retired fields. */
static bool alone(void) {
  for (Shadow *S = Threads; S; S = S->Next)
    if (S != My)
      return false;
  return true;
}

void orc_rt_jit_ModuleStubs_reclaim(void) {
  /* Only modules retired before the fence: one retired during it may have
   * readers the fence did not order. */
  pthread_mutex_lock(&Lock);
  Retired *Mine = Limbo;
  Limbo = NULL;
  bool Alone = alone();
  pthread_mutex_unlock(&Lock);
  if (!Mine)
    return;
  if (Alone) {
    while (Mine) {
      Retired *Next = Mine->Next;
      freeRetired(Mine);
      Mine = Next;
    }
    return;
  }
  /* Pairs with the entries' hazard store: a thread whose store preceded the
   * barrier this puts in it has its hazard seen below; one whose store
   * follows it reads the retired fields afterwards (FastIndex UINT32_MAX:
   * the C path; Group NULL: denied). */
  fenceEveryThread();
  Retired *Free = NULL;
  pthread_mutex_lock(&Lock);
  while (Mine) {
    Retired *R = Mine;
    Mine = R->Next;
    Retired **To = unused(R) ? &Free : &Limbo;
    R->Next = *To;
    *To = R;
  }
  pthread_mutex_unlock(&Lock);
  while (Free) {
    Retired *Next = Free->Next;
    freeRetired(Free);
    Free = Next;
  }
}

size_t orc_rt_jit_ModuleStubs_numRetiring(void) {
  size_t N = 0;
  pthread_mutex_lock(&Lock);
  for (Retired *R = Limbo; R; R = R->Next)
    ++N;
  pthread_mutex_unlock(&Lock);
  return N;
}

/*---- The general entry and return path (x86-64 SysV) ----*/

/* This thread's shadow stack's Top and Limit, for the entry paths. */
#define TOP "%fs:orc_rt_jit_ModuleStubs_thisThread@tpoff"
#define LIMIT "%fs:orc_rt_jit_ModuleStubs_thisThread@tpoff+8"
#define HAZARD "%fs:orc_rt_jit_ModuleStubs_thisThread@tpoff+16"

/* The general entry, for any signature: %r11 = record; the stack is the
 * caller's, [rsp] its return address; every argument register may be live,
 * %rax (a variadic call's vector count) and %r10 (static chain) included.
 * Fast path (the register-only entry's, below, with %rax and %r10 pushed
 * for scratch and popped before the jump): the slot, the shadow entry (with
 * the caller's return address in Ret), the token, Top += 1, the return
 * address swapped for moduleStubReturn's, a jump to the function with the
 * caller's registers and stack as they came. Anything the fast path does
 * not take goes, untouched, to the C path: it saves what may carry arguments
 * (rdi rsi rdx rcx r8 r9 rax r10, xmm0-7), calls ModuleStubs_enter (which
 * does the same in C), restores, jumps.
 * Return: the stack is the caller's again (the function popped its return
 * address). Fast path: if the top entry is ours ((Top-1)->Sp == %rsp), holds
 * a token and the group's slot exists on this thread, Top -= 1 (the slot
 * left vacant: lowerTop) and the release of orc_rt_TaskGroup_releaseToken on
 * this thread's slot (as in the register-only return; scratch: %rcx %rsi %rdi
 * %r11), then a jump to the entry's Ret. Else the C path: reserves a slot
 * for the real return address, saves the return registers (rax rdx xmm0
 * xmm1; x87 results stay on the x87 stack, which the C code here does not
 * touch), calls ModuleStubs_leave, restores, returns. No CFI: an exception
 * cannot unwind through a general stub (docs/Design.md). */
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl orc_rt_jit_moduleStubEntry\n"
    ".hidden orc_rt_jit_moduleStubEntry\n"
    ".type orc_rt_jit_moduleStubEntry,@function\n"
    "orc_rt_jit_moduleStubEntry:\n"
    "  endbr64\n"
    /* 0. the hazard (see retire): before FastIndex is read */
    "  movq %r11, " HAZARD "\n"
    "  pushq %rax\n"
    "  pushq %r10\n"
    "  pushq %rcx\n"
    /* 1. the slot: %rax */
    "  movl 28(%r11), %eax\n"
    "  movq orc_rt_abi_ThisThread@gottpoff(%rip), %r10\n"
    "  cmpl %fs:8(%r10), %eax\n"
    "  jae 3f\n"
    "  shlq $4, %rax\n"
    "  addq %fs:(%r10), %rax\n"
    /* 2. the entry: %r10 */
    "  movq " TOP ", %r10\n"
    "  cmpq " LIMIT ", %r10\n"
    "  jae 3f\n"
    "  leaq 32(%rsp), %rcx\n"
    "  cmpq %rcx, -24(%r10)\n"
    "  jbe 3f\n"
    "  movq %rcx, 8(%r10)\n"
    "  movq %r11, 16(%r10)\n"
    "  movq 24(%rsp), %rcx\n"
    "  movq %rcx, (%r10)\n"
    /* 3. the token */
    "  addq $1, (%rax)\n"
    "  cmpq $0, 8(%rax)\n"
    "  jne 1f\n"
    /* 4. live; its entry written again if a signal handler left its values
     * there (see publish and the register-only entry); the return address
     * swapped; the jump */
    "  addq $32, %r10\n"
    "  movq %r10, " TOP "\n"
    "  leaq 32(%rsp), %rcx\n"
    "  cmpq %rcx, -24(%r10)\n"
    "  jne 6f\n"
    "2:\n"
    "  leaq orc_rt_jit_moduleStubReturn(%rip), %r10\n"
    "  movq %r10, 24(%rsp)\n"
    "  popq %rcx\n"
    "  popq %r10\n"
    "  popq %rax\n"
    "  jmp *(%r11)\n"
    /* 4's entry, overwritten by a handler: written again */
    "6:\n"
    "  movq %rcx, -24(%r10)\n"
    "  movq %r11, -16(%r10)\n"
    "  movq 24(%rsp), %rcx\n"
    "  movq %rcx, -32(%r10)\n"
    "  jmp 2b\n"
    /* the acquire saw Closed: undo, then the C path */
    "1:\n"
    "  subq $1, (%rax)\n"
    "3:\n"
    "  popq %rcx\n"
    "  popq %r10\n"
    "  popq %rax\n"
    /* the C path */
    "  pushq %rbp\n"
    "  movq %rsp, %rbp\n" ORC_RT_JIT_SAVE_ARG_REGS "  movq %r11, %rdi\n"
    "  leaq 8(%rbp), %rsi\n"
    "  call orc_rt_jit_ModuleStubs_enter\n"
    "  movq %rax, %r11\n" ORC_RT_JIT_RESTORE_ARG_REGS "  movq %rbp, %rsp\n"
    "  popq %rbp\n"
    "  jmp *%r11\n"
    ".size orc_rt_jit_moduleStubEntry, .-orc_rt_jit_moduleStubEntry\n"
    "\n"
    ".p2align 4\n"
    ".globl orc_rt_jit_moduleStubReturn\n"
    ".hidden orc_rt_jit_moduleStubReturn\n"
    ".type orc_rt_jit_moduleStubReturn,@function\n"
    "orc_rt_jit_moduleStubReturn:\n"
    "  endbr64\n"
    "  movq " TOP ", %r11\n"
    "  cmpq %rsp, -24(%r11)\n"
    "  jne 1f\n"
    "  movq -16(%r11), %rsi\n"
    "  testq $1, %rsi\n"
    "  jnz 1f\n"
    "  movl 28(%rsi), %esi\n"
    "  movq orc_rt_abi_ThisThread@gottpoff(%rip), %rdi\n"
    "  cmpl %fs:8(%rdi), %esi\n"
    "  jae 1f\n"
    "  shlq $4, %rsi\n"
    "  addq %fs:(%rdi), %rsi\n"
    "  movq -32(%r11), %rcx\n"
    "  subq $32, %r11\n"
    "  movq %r11, " TOP "\n"
    "  movq $-1, 8(%r11)\n" /* vacant (see lowerTop) */
    "  subq $1, (%rsi)\n"
    "  cmpq $0, 8(%rsi)\n"
    "  jne 2f\n"
    "  jmp *%rcx\n"
    /* the release saw Closed: re-count */
    "2:\n"
    "  subq $64, %rsp\n"
    "  movq %rax, 0(%rsp)\n"
    "  movq %rdx, 8(%rsp)\n"
    "  movq %rcx, 16(%rsp)\n"
    "  movups %xmm0, 32(%rsp)\n"
    "  movups %xmm1, 48(%rsp)\n"
    "  movq %rsi, %rdi\n"
    "  call *orc_rt_abi_TokenSlot_releaserSawClosed@GOTPCREL(%rip)\n"
    "  movq 0(%rsp), %rax\n"
    "  movq 8(%rsp), %rdx\n"
    "  movq 16(%rsp), %rcx\n"
    "  movups 32(%rsp), %xmm0\n"
    "  movups 48(%rsp), %xmm1\n"
    "  addq $64, %rsp\n"
    "  jmp *%rcx\n"
    /* the C path */
    "1:\n"
    "  pushq $0\n"
    "  subq $56, %rsp\n"
    "  movq %rax, 0(%rsp)\n"
    "  movq %rdx, 8(%rsp)\n"
    "  movups %xmm0, 16(%rsp)\n"
    "  movups %xmm1, 32(%rsp)\n"
    "  leaq 64(%rsp), %rdi\n"
    "  call orc_rt_jit_ModuleStubs_leave\n"
    "  movq %rax, 56(%rsp)\n"
    "  movq 0(%rsp), %rax\n"
    "  movq 8(%rsp), %rdx\n"
    "  movups 16(%rsp), %xmm0\n"
    "  movups 32(%rsp), %xmm1\n"
    "  addq $56, %rsp\n"
    "  ret\n"
    ".size orc_rt_jit_moduleStubReturn, .-orc_rt_jit_moduleStubReturn\n"
    "\n"
    ".p2align 4\n"
    ".type orc_rt_jit_moduleStubCallSlow,@function\n"
    "orc_rt_jit_moduleStubCallSlow:\n"
    "  .cfi_startproc\n"
    "  pushq %rbp\n"
    "  .cfi_def_cfa_offset 16\n"
    "  .cfi_offset %rbp, -16\n"
    "  movq %rsp, %rbp\n"
    "  .cfi_def_cfa_register %rbp\n"
    "  subq $208, %rsp\n"
    "  movq %r11, 192(%rsp)\n"
    "  movq %rdi, 0(%rsp)\n"
    "  movq %rsi, 8(%rsp)\n"
    "  movq %rdx, 16(%rsp)\n"
    "  movq %rcx, 24(%rsp)\n"
    "  movq %r8, 32(%rsp)\n"
    "  movq %r9, 40(%rsp)\n"
    "  movq %rax, 48(%rsp)\n"
    "  movq %r10, 56(%rsp)\n"
    "  testb $1, 24(%r11)\n" /* FloatArgs */
    "  jz 1f\n"
    "  movaps %xmm0, 64(%rsp)\n"
    "  movaps %xmm1, 80(%rsp)\n"
    "  movaps %xmm2, 96(%rsp)\n"
    "  movaps %xmm3, 112(%rsp)\n"
    "  movaps %xmm4, 128(%rsp)\n"
    "  movaps %xmm5, 144(%rsp)\n"
    "  movaps %xmm6, 160(%rsp)\n"
    "  movaps %xmm7, 176(%rsp)\n"
    "1:\n"
    "  movq %r11, %rdi\n"
    "  leaq 16(%rbp), %rsi\n"
    "  call orc_rt_jit_ModuleStubs_enterCall\n"
    "  movq %rax, 200(%rsp)\n"
    "  movq 192(%rsp), %r11\n"
    "  testb $1, 24(%r11)\n"
    "  jz 2f\n"
    "  movaps 64(%rsp), %xmm0\n"
    "  movaps 80(%rsp), %xmm1\n"
    "  movaps 96(%rsp), %xmm2\n"
    "  movaps 112(%rsp), %xmm3\n"
    "  movaps 128(%rsp), %xmm4\n"
    "  movaps 144(%rsp), %xmm5\n"
    "  movaps 160(%rsp), %xmm6\n"
    "  movaps 176(%rsp), %xmm7\n"
    "2:\n"
    "  movq 0(%rsp), %rdi\n"
    "  movq 8(%rsp), %rsi\n"
    "  movq 16(%rsp), %rdx\n"
    "  movq 24(%rsp), %rcx\n"
    "  movq 32(%rsp), %r8\n"
    "  movq 40(%rsp), %r9\n"
    "  movq 48(%rsp), %rax\n"
    "  movq 56(%rsp), %r10\n"
    "  call *200(%rsp)\n"
    ".globl orc_rt_jit_moduleStubCallSlowReturns\n"
    ".hidden orc_rt_jit_moduleStubCallSlowReturns\n"
    "orc_rt_jit_moduleStubCallSlowReturns:\n"
    "  movq %rax, 0(%rsp)\n"
    "  movq %rdx, 8(%rsp)\n"
    "  movaps %xmm0, 64(%rsp)\n"
    "  movaps %xmm1, 80(%rsp)\n"
    "  leaq 16(%rbp), %rdi\n"
    "  call orc_rt_jit_ModuleStubs_leaveCall\n"
    "  movq 0(%rsp), %rax\n"
    "  movq 8(%rsp), %rdx\n"
    "  movaps 64(%rsp), %xmm0\n"
    "  movaps 80(%rsp), %xmm1\n"
    "  leave\n"
    "  .cfi_def_cfa %rsp, 8\n"
    "  ret\n"
    "  .cfi_endproc\n"
    ".size orc_rt_jit_moduleStubCallSlow, .-orc_rt_jit_moduleStubCallSlow\n");

/*---- The register-only entry's fast path ----*/

/* What the fast path reads of the runtime's token ABI
 * (orc-rt-c/EntryFastPath.h): this thread's slot array and its length, and
 * a slot's Count and Closed. */
_Static_assert(offsetof(orc_rt_abi_ThreadState, Slots) == 0 &&
                   offsetof(orc_rt_abi_ThreadState, Cap) == 8 &&
                   sizeof(orc_rt_abi_TokenSlot) == 16 &&
                   offsetof(orc_rt_abi_TokenSlot, Count) == 0 &&
                   offsetof(orc_rt_abi_TokenSlot, Closed) == 8,
               "the register-only entry inlines the token fast path");

/* %r11 = record, kept to the call; the caller's registers carry the
 * arguments (at most six integer and eight SSE ones, no static chain, not
 * variadic: %rax and %r10 are free). The entry, with every check before the
 * first irrevocable step, so that any miss hands the untouched call to the C
 * path (moduleStubCallSlow):
 *
 *   0. the hazard: the record, stored in this thread's Shadow before
 *      anything but its Entry is read (retire's grace period: a module's
 *      group and index are freed only once no thread's hazard names one of
 *      its records after a membarrier, which orders this plain store);
 *   1. the group's slot on this thread: FastIndex < ThisThread.Cap (fails in
 *      fallback token mode, where FastIndex is UINT32_MAX, on a retired
 *      stub, and on a thread without slots yet); kept in the frame;
 *   2. a free shadow entry (Top < Limit: fails on the thread's first entry)
 *      and no frame left by longjmp on top ((Top-1)->Sp > Sp); the entry's
 *      Sp and record, written above Top (not yet live);
 *   3. the token, the protocol of orc_rt_abi_acquireFast: Count += 1 (one
 *      add to memory, not locked: only this thread writes its Count), then
 *      load Closed. Here the instruction order is the program order the
 *      protocol needs (no compiler to reorder it); it pairs with the
 *      membarrier in TokenCounter_close (docs/TokenFastPath.md, "Why a token
 *      cannot be granted after close"). Closed set: Count is put back and
 *      the C path takes the call; its acquire sees the same mark (set while
 *      the group holds its index, which it does while this thread's hazard
 *      names the record; once retired, the record's group reads NULL: denied)
 *      and re-counts after the undo, as a denied acquire must;
 *   4. Top += 1: the frame is live (and in the report); the call.
 *
 * The return: if the top entry is ours ((Top-1)->Sp == Sp; else frames left
 * by longjmp are above it and the C path, leaveCall, pops and releases),
 * Top -= 1, the slot left vacant (lowerTop), then the release of
 * orc_rt_TaskGroup_releaseToken on this thread's slot (kept in the frame: the
 * slot array never moves): Count -= 1 (its store is a release store on x86:
 * the module's work is ordered before the token's return), then load Closed;
 * set, the runtime re-counts (orc_rt_abi_TokenSlot_releaserSawClosed; pairs
 * with the membarrier in close, "Why close cannot miss a live token"). After
 * the Count store nothing of the module is touched: the release may complete
 * its group. The return registers (%rax %rdx %xmm0 %xmm1) are saved around
 * the C calls.
 *
 * Per call: 10 stores (the hazard, the slot in the frame, the entry's two,
 * Count twice, Top twice, the vacant mark, the return address), no locked
 * instruction, no call out of line. The 8-byte frame (the slot) aligns the
 * call; the CFI describes it, so an exception unwinds through (leaving the
 * frame's token to be given back as for longjmp). A signal handler may call
 * through a stub anywhere in another entry: one between steps 2 and 4 writes
 * the entry above Top too and leaves its own call's values there, which step
 * 4 finds (the entry's Sp is not this call's) and writes over once the entry
 * is live (see publish); the handler's last return left the entry vacant
 * (lowerTop), so a second handler between step 4's bump and those writes
 * takes it for an outer frame's. What is still not async-signal-safe: one
 * between steps 0 and 3 replaces the hazard (a reclaim on another thread
 * may then free the group whose slot step 3 counts in); and a thread's first
 * entry, or one that grows the shadow stack, allocates under Lock (the C
 * path). */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl orc_rt_jit_moduleStubCall\n"
        ".hidden orc_rt_jit_moduleStubCall\n"
        ".type orc_rt_jit_moduleStubCall,@function\n"
        "orc_rt_jit_moduleStubCall:\n"
        "  .cfi_startproc\n"
        "  endbr64\n"
        /* 0. the hazard (see retire): before FastIndex is read */
        "  movq %r11, " HAZARD "\n"
        "  subq $8, %rsp\n"
        "  .cfi_adjust_cfa_offset 8\n"
        /* 1. the slot: %rax */
        "  movl 28(%r11), %eax\n"
        "  movq orc_rt_abi_ThisThread@gottpoff(%rip), %r10\n"
        "  cmpl %fs:8(%r10), %eax\n"
        "  jae 8f\n"
        "  shlq $4, %rax\n"
        "  addq %fs:(%r10), %rax\n"
        "  movq %rax, (%rsp)\n"
        /* 2. the entry: %r10 */
        "  movq " TOP ", %r10\n"
        "  cmpq " LIMIT ", %r10\n"
        "  jae 8f\n"
        "  leaq 16(%rsp), %rax\n"
        "  cmpq %rax, -24(%r10)\n"
        "  jbe 8f\n"
        "  movq %rax, 8(%r10)\n"
        "  movq %r11, 16(%r10)\n"
        /* 3. the token */
        "  movq (%rsp), %rax\n"
        "  addq $1, (%rax)\n"
        "  cmpq $0, 8(%rax)\n"
        "  jne 7f\n"
        /* 4. live; its entry written again if a signal handler that called
         * through a stub since 2 left its values there (its Sp is never
         * this call's: see publish); the call */
        "  addq $32, %r10\n"
        "  movq %r10, " TOP "\n"
        "  leaq 16(%rsp), %rax\n"
        "  cmpq %rax, -24(%r10)\n"
        "  jne 6f\n"
        "2:\n"
        "  call *(%r11)\n"
        /* the return (its address: see frameGone) */
        ".globl orc_rt_jit_moduleStubCallReturns\n"
        ".hidden orc_rt_jit_moduleStubCallReturns\n"
        "orc_rt_jit_moduleStubCallReturns:\n"
        "  movq " TOP ", %r11\n"
        "  leaq 16(%rsp), %rcx\n"
        "  cmpq %rcx, -24(%r11)\n"
        "  jne 5f\n"
        "  movq (%rsp), %rsi\n"
        "  subq $32, %r11\n"
        "  movq %r11, " TOP "\n"
        "  movq $-1, 8(%r11)\n" /* vacant (see lowerTop) */
        "  subq $1, (%rsi)\n"
        "  cmpq $0, 8(%rsi)\n"
        "  jne 4f\n"
        "  addq $8, %rsp\n"
        "  .cfi_remember_state\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  ret\n"
        "  .cfi_restore_state\n"
        /* the return's C path: pop (and dead frames above) and release */
        "5:\n"
        "  leaq 16(%rsp), %rdi\n"
        "  leaq orc_rt_jit_ModuleStubs_leaveCall(%rip), %r11\n"
        "  jmp 3f\n"
        /* the release saw Closed: re-count */
        "4:\n"
        "  movq %rsi, %rdi\n"
        "  movq orc_rt_abi_TokenSlot_releaserSawClosed@GOTPCREL(%rip), %r11\n"
        "3:\n"
        "  subq $48, %rsp\n"
        "  .cfi_adjust_cfa_offset 48\n"
        "  movq %rax, 0(%rsp)\n"
        "  movq %rdx, 8(%rsp)\n"
        "  movups %xmm0, 16(%rsp)\n"
        "  movups %xmm1, 32(%rsp)\n"
        "  call *%r11\n"
        "  movq 0(%rsp), %rax\n"
        "  movq 8(%rsp), %rdx\n"
        "  movups 16(%rsp), %xmm0\n"
        "  movups 32(%rsp), %xmm1\n"
        "  addq $56, %rsp\n"
        "  .cfi_adjust_cfa_offset -56\n"
        "  ret\n"
        "  .cfi_adjust_cfa_offset 8\n"
        /* 4's entry, overwritten by a handler: written again */
        "6:\n"
        "  movq %rax, -24(%r10)\n"
        "  movq %r11, -16(%r10)\n"
        "  jmp 2b\n"
        /* the acquire saw Closed: undo, then the C path */
        "7:\n"
        "  subq $1, (%rax)\n"
        /* the C path, with the caller's stack and arguments untouched */
        "8:\n"
        "  addq $8, %rsp\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  jmp orc_rt_jit_moduleStubCallSlow\n"
        "  .cfi_endproc\n"
        ".size orc_rt_jit_moduleStubCall, .-orc_rt_jit_moduleStubCall\n");

#undef TOP
#undef LIMIT
#undef HAZARD
