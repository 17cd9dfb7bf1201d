/*===- lib/jit/ModuleStubs.c - Token-taking entry stubs for loaded modules ===*/
/* Layout of a stub page (4096 bytes, read+execute once filled):
 *
 *   [0, 8)      address of the common entry (moduleStubEntry below)
 *   [8, 16)     unused
 *   [16 + 16*i) slot i:  49 BB <imm64>     movabs $record_i, %r11
 *                        FF 25 <rel32>     jmp *page[0](%rip)
 *
 * Every slot of a page is written (with its record's address) when the page is
 * mapped, before it becomes executable; handing out a slot only fills its
 * record (plain memory, written before the stub's address is published to
 * anyone who could call it). %r11 is a scratch register in the SysV ABI,
 * unused for arguments. The common entry saves the argument registers, calls
 * enterStub (token, shadow stack, return-address swap), restores them and
 * jumps to the function; the function returns into moduleStubReturn, which
 * saves the return registers, calls leaveStub (token back, real return
 * address) and returns there. */

#include "jit/ModuleStubs.h"

#include "orc-rt-c/Session.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#error "ModuleStubs.c: the stubs are written for x86-64"
#endif

#define PAGE 4096u
#define SLOT 16u
#define FIRST_SLOT 16u
#define SLOTS_PER_PAGE ((PAGE - FIRST_SLOT) / SLOT)

typedef struct {
  uintptr_t Target;
  orc_rt_jit_StubModule *Module;
  char *Name;
  bool RegsOnly;             /* offset 24: read by the common entry */
  bool FloatArgs;            /* offset 25: read by the register-only entry */
  orc_rt_TaskGroupRef Group; /* Module->Group, one load nearer */
} Record;

_Static_assert(offsetof(Record, RegsOnly) == 24 &&
                   offsetof(Record, FloatArgs) == 25,
               "the entries read RegsOnly and FloatArgs");

typedef struct StubPage {
  unsigned char *Code;
  Record *Records;
  unsigned Used;
  struct StubPage *Next;
} StubPage;

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static StubPage *Pages; /* newest first; never freed */

void orc_rt_jit_moduleStubEntry(void);
void orc_rt_jit_moduleStubReturn(void);

static StubPage *newPage(void) {
  StubPage *P = calloc(1, sizeof(*P));
  Record *R = P ? calloc(SLOTS_PER_PAGE, sizeof(Record)) : NULL;
  void *Mem = R ? mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                : MAP_FAILED;
  if (Mem == MAP_FAILED) {
    free(R);
    free(P);
    return NULL;
  }
  unsigned char *C = Mem;
  uintptr_t Entry = (uintptr_t)orc_rt_jit_moduleStubEntry;
  memcpy(C, &Entry, 8);
  for (unsigned I = 0; I < SLOTS_PER_PAGE; ++I) {
    unsigned char *S = C + FIRST_SLOT + I * SLOT;
    uintptr_t Rec = (uintptr_t)&R[I];
    S[0] = 0x49, S[1] = 0xBB;
    memcpy(S + 2, &Rec, 8);
    S[10] = 0xFF, S[11] = 0x25;
    int32_t Rel = -(int32_t)(FIRST_SLOT + I * SLOT + SLOT); /* to page[0] */
    memcpy(S + 12, &Rel, 4);
  }
  if (mprotect(Mem, PAGE, PROT_READ | PROT_EXEC)) {
    munmap(Mem, PAGE);
    free(R);
    free(P);
    return NULL;
  }
  P->Code = C;
  P->Records = R;
  return P;
}

uint64_t orc_rt_jit_ModuleStubs_create(orc_rt_jit_StubModule *M,
                                       const char *Name, uint64_t Target,
                                       bool RegsOnly, bool FloatArgs) {
  char *Copy = strdup(Name);
  if (!Copy)
    return 0;
  pthread_mutex_lock(&Lock);
  if (!Pages || Pages->Used == SLOTS_PER_PAGE) {
    StubPage *P = newPage();
    if (!P) {
      pthread_mutex_unlock(&Lock);
      free(Copy);
      return 0;
    }
    P->Next = Pages;
    Pages = P;
  }
  unsigned I = Pages->Used++;
  Record *R = &Pages->Records[I];
  *R = (Record){(uintptr_t)Target, M, Copy, RegsOnly, FloatArgs, M->Group};
  uint64_t Addr = (uintptr_t)(Pages->Code + FIRST_SLOT + I * SLOT);
  pthread_mutex_unlock(&Lock);
  /* The record is published to callers with the stub's address (dlsym's
   * result, a symbol definition), which happens after this unlock. */
  return Addr;
}

static Record *findRecord(uint64_t Addr) {
  Record *Found = NULL;
  pthread_mutex_lock(&Lock);
  for (StubPage *P = Pages; P; P = P->Next) {
    uintptr_t Base = (uintptr_t)P->Code + FIRST_SLOT;
    if (Addr >= Base && Addr < Base + P->Used * SLOT &&
        (Addr - Base) % SLOT == 0) {
      Found = &P->Records[(Addr - Base) / SLOT];
      break;
    }
  }
  pthread_mutex_unlock(&Lock);
  return Found;
}

void orc_rt_jit_ModuleStubs_setTarget(uint64_t Stub, uint64_t Target) {
  Record *R = findRecord(Stub);
  if (R)
    R->Target = (uintptr_t)Target;
}

bool orc_rt_jit_ModuleStubs_lookup(uint64_t Addr, const char **Name,
                                   const orc_rt_jit_StubModule **M) {
  Record *R = findRecord(Addr);
  if (!R)
    return false;
  *Name = R->Name;
  *M = R->Module;
  return true;
}

/*---- The per-thread shadow stack ----*/

/* One entry per live call through a stub on this thread. Sp is the caller's
 * stack pointer after the call returns: outer calls have larger values, so an
 * entry whose Sp is not above the current one belongs to a frame that is gone
 * (left with longjmp or unwinding) and its token is given back. */
typedef struct {
  uintptr_t Ret, Sp;
  Record *Rec; /* written relaxed-atomically: the report reads it */
  bool Token;  /* false: entered during shutdown under the caller's token */
} Entry;

typedef struct Shadow {
  pid_t Tid;
  atomic_size_t Depth; /* read by the report on another thread */
  size_t Cap;
  Entry *Entries;
  struct Shadow *Prev, *Next;
} Shadow;

static _Thread_local Shadow *My;
static Shadow *Threads; /* guarded by Lock */
static pthread_key_t ExitKey;
static pthread_once_t KeyOnce = PTHREAD_ONCE_INIT;

static void releaseEntry(Entry *E) {
  if (E->Token)
    orc_rt_TaskGroup_releaseToken(E->Rec->Group);
}

/* At thread exit: tokens of frames never returned from (the thread ended
 * inside a module, e.g. pthread_exit) go back; then the record goes. */
static void threadExit(void *Arg) {
  Shadow *S = Arg;
  size_t D = atomic_load_explicit(&S->Depth, memory_order_relaxed);
  while (D)
    releaseEntry(&S->Entries[--D]);
  pthread_mutex_lock(&Lock);
  if (S->Prev)
    S->Prev->Next = S->Next;
  else
    Threads = S->Next;
  if (S->Next)
    S->Next->Prev = S->Prev;
  pthread_mutex_unlock(&Lock);
  free(S->Entries);
  free(S);
  My = NULL;
}

static void makeKey(void) { pthread_key_create(&ExitKey, threadExit); }

static _Noreturn void fatal(const char *Fmt, const char *A, const char *B) {
  fflush(stdout);
  fprintf(stderr, Fmt, A, B);
  fflush(stderr);
  _exit(1);
}

static __attribute__((noinline)) Shadow *newShadow(void) {
  pthread_once(&KeyOnce, makeKey);
  Shadow *S = calloc(1, sizeof(*S));
  if (!S || pthread_setspecific(ExitKey, S))
    fatal("mini-lli: error: %s%s\n",
          "out of memory entering a dlopen'ed module", "");
  S->Tid = gettid();
  pthread_mutex_lock(&Lock);
  S->Next = Threads;
  if (Threads)
    Threads->Prev = S;
  Threads = S;
  pthread_mutex_unlock(&Lock);
  My = S;
  return S;
}

static __attribute__((noinline)) void grow(Shadow *S) {
  size_t Cap = S->Cap ? 2 * S->Cap : 16;
  pthread_mutex_lock(&Lock); /* the report reads Entries under Lock */
  Entry *N = realloc(S->Entries, Cap * sizeof(Entry));
  if (N) {
    S->Entries = N;
    S->Cap = Cap;
  }
  pthread_mutex_unlock(&Lock);
  if (!N)
    fatal("mini-lli: error: %s%s\n",
          "out of memory entering a dlopen'ed module", "");
}

/* Gives back the tokens of frames below Sp that are gone. */
static void dropDead(Shadow *S, uintptr_t Sp) {
  size_t D = atomic_load_explicit(&S->Depth, memory_order_relaxed);
  while (D && S->Entries[D - 1].Sp <= Sp) {
    releaseEntry(&S->Entries[--D]);
    atomic_store_explicit(&S->Depth, D, memory_order_relaxed);
  }
}

void orc_rt_jit_ModuleStubs_dropDeadFrames(void) {
  if (My)
    dropDead(My, (uintptr_t)__builtin_frame_address(0));
}

/* R's token was denied. Closed by Session shutdown: the code is freed only
 * after the Session's drain, which waits for the caller's token, so the call
 * may go on under it. Closed by dlclose: the code is (or soon will be) gone. */
static __attribute__((noinline, cold)) void denied(Record *R) {
  if (!__atomic_load_n(&R->Module->ClosedByShutdown, __ATOMIC_ACQUIRE))
    fatal("mini-lli: error: call to '%s' in module '%s', which has been "
          "unloaded (dlclose)\n",
          R->Name, R->Module->Path);
  if (!orc_rt_Session_current())
    fatal("mini-lli: error: call to '%s' in module '%s' after shutdown was "
          "requested, from outside JIT'd code\n",
          R->Name, R->Module->Path);
}

/* Pushes a shadow entry for a call whose caller resumes with stack pointer
 * Sp, on the slow path: the thread's first entry, a full stack, or frames
 * left by longjmp to give back first. */
static __attribute__((noinline)) void pushSlow(Record *R, uintptr_t Sp,
                                               uintptr_t Ret, bool Token) {
  Shadow *S = My ? My : newShadow();
  size_t D = atomic_load_explicit(&S->Depth, memory_order_relaxed);
  if (D && S->Entries[D - 1].Sp <= Sp) {
    dropDead(S, Sp);
    D = atomic_load_explicit(&S->Depth, memory_order_relaxed);
  }
  if (D == S->Cap)
    grow(S);
  Entry *E = &S->Entries[D];
  E->Ret = Ret;
  E->Sp = Sp;
  __atomic_store_n(&E->Rec, R, __ATOMIC_RELAXED);
  E->Token = Token;
  atomic_store_explicit(&S->Depth, D + 1, memory_order_relaxed);
}

/* Takes R's token (or ends the program, see denied) and pushes a shadow
 * entry. The hot path touches only this thread's shadow stack. */
static inline void push(Record *R, uintptr_t Sp, uintptr_t Ret) {
  bool Token = orc_rt_TaskGroup_acquireToken(R->Group);
  if (__builtin_expect(!Token, 0))
    denied(R);
  Shadow *S = My;
  size_t D;
  if (__builtin_expect(!S ||
                           (D = atomic_load_explicit(
                                &S->Depth, memory_order_relaxed)) == S->Cap ||
                           (D && S->Entries[D - 1].Sp <= Sp),
                       0)) {
    pushSlow(R, Sp, Ret, Token);
    return;
  }
  Entry *E = &S->Entries[D];
  E->Ret = Ret;
  E->Sp = Sp;
  __atomic_store_n(&E->Rec, R, __ATOMIC_RELAXED);
  E->Token = Token;
  atomic_store_explicit(&S->Depth, D + 1, memory_order_relaxed);
}

/* Pops the shadow entry of the call whose caller resumes at Sp (giving back
 * the tokens of dead frames above it first) and returns it. */
static __attribute__((noinline)) Entry pop(uintptr_t Sp) {
  Shadow *S = My;
  size_t D = atomic_load_explicit(&S->Depth, memory_order_relaxed);
  while (S->Entries[D - 1].Sp < Sp) { /* frames left by longjmp below us */
    releaseEntry(&S->Entries[--D]);
    atomic_store_explicit(&S->Depth, D, memory_order_relaxed);
  }
  Entry E = S->Entries[--D];
  atomic_store_explicit(&S->Depth, D, memory_order_relaxed);
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
  push(R, (uintptr_t)(RetSlot + 1), *RetSlot);
  *RetSlot = (uintptr_t)orc_rt_jit_moduleStubReturn;
  return R->Target;
}

/* The register-only entry: the stub calls the function itself. */
__attribute__((used, visibility("hidden"))) uintptr_t
orc_rt_jit_ModuleStubs_enterCall(Record *R, uintptr_t Sp) {
  push(R, Sp, 0);
  return R->Target;
}

__attribute__((used, visibility("hidden"))) void
orc_rt_jit_ModuleStubs_leaveCall(uintptr_t Sp) {
  Shadow *S = My;
  size_t D = atomic_load_explicit(&S->Depth, memory_order_relaxed);
  Entry *E = &S->Entries[D - 1];
  if (__builtin_expect(E->Sp != Sp, 0)) { /* dead frames above it */
    pop(Sp);
    return;
  }
  atomic_store_explicit(&S->Depth, D - 1, memory_order_relaxed);
  if (E->Token) /* may complete the group: the module's frame is gone */
    orc_rt_TaskGroup_releaseToken(E->Rec->Group);
}

/* Called by the return path with the caller's stack pointer; gives the
 * token back and returns the address to return to. */
__attribute__((used, visibility("hidden"))) uintptr_t
orc_rt_jit_ModuleStubs_leave(uintptr_t Sp) {
  return pop(Sp).Ret;
}

size_t orc_rt_jit_ModuleStubs_reportLiveFrames(FILE *Out) {
  size_t N = 0;
  pthread_mutex_lock(&Lock);
  for (Shadow *S = Threads; S; S = S->Next) {
    size_t D = atomic_load_explicit(&S->Depth, memory_order_relaxed);
    for (size_t I = 0; I < D && I < S->Cap; ++I, ++N) {
      Record *R = __atomic_load_n(&S->Entries[I].Rec, __ATOMIC_RELAXED);
      fprintf(Out, "  thread %d: inside '%s' of module '%s' (dlopen)\n",
              (int)S->Tid, R->Name, R->Module->Path);
    }
  }
  pthread_mutex_unlock(&Lock);
  return N;
}

/*---- The common entry and return path (x86-64 SysV) ----*/

/* Entry: %r11 = record; the stack is the caller's, [rsp] its return address.
 * Saves what may carry arguments (rdi rsi rdx rcx r8 r9, rax = vector count
 * of a variadic call, r10 = static chain, xmm0-7), calls enter (which swaps
 * the return address for moduleStubReturn's), restores, jumps.
 * Return: the stack is the caller's again (the function popped its return
 * address); reserves a slot for the real return address, saves the return
 * registers (rax rdx xmm0 xmm1; x87 results stay on the x87 stack, which the
 * C code here does not touch), calls leave, restores, returns. */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl orc_rt_jit_moduleStubEntry\n"
        ".hidden orc_rt_jit_moduleStubEntry\n"
        ".type orc_rt_jit_moduleStubEntry,@function\n"
        "orc_rt_jit_moduleStubEntry:\n"
        "  endbr64\n"
        "  testb $1, 24(%r11)\n" /* RegsOnly */
        "  jnz orc_rt_jit_moduleStubCall\n"
        "  pushq %rbp\n"
        "  movq %rsp, %rbp\n"
        "  subq $192, %rsp\n"
        "  movq %rdi, 0(%rsp)\n"
        "  movq %rsi, 8(%rsp)\n"
        "  movq %rdx, 16(%rsp)\n"
        "  movq %rcx, 24(%rsp)\n"
        "  movq %r8, 32(%rsp)\n"
        "  movq %r9, 40(%rsp)\n"
        "  movq %rax, 48(%rsp)\n"
        "  movq %r10, 56(%rsp)\n"
        "  movaps %xmm0, 64(%rsp)\n"
        "  movaps %xmm1, 80(%rsp)\n"
        "  movaps %xmm2, 96(%rsp)\n"
        "  movaps %xmm3, 112(%rsp)\n"
        "  movaps %xmm4, 128(%rsp)\n"
        "  movaps %xmm5, 144(%rsp)\n"
        "  movaps %xmm6, 160(%rsp)\n"
        "  movaps %xmm7, 176(%rsp)\n"
        "  movq %r11, %rdi\n"
        "  leaq 8(%rbp), %rsi\n"
        "  call orc_rt_jit_ModuleStubs_enter\n"
        "  movq %rax, %r11\n"
        "  movq 0(%rsp), %rdi\n"
        "  movq 8(%rsp), %rsi\n"
        "  movq 16(%rsp), %rdx\n"
        "  movq 24(%rsp), %rcx\n"
        "  movq 32(%rsp), %r8\n"
        "  movq 40(%rsp), %r9\n"
        "  movq 48(%rsp), %rax\n"
        "  movq 56(%rsp), %r10\n"
        "  movaps 64(%rsp), %xmm0\n"
        "  movaps 80(%rsp), %xmm1\n"
        "  movaps 96(%rsp), %xmm2\n"
        "  movaps 112(%rsp), %xmm3\n"
        "  movaps 128(%rsp), %xmm4\n"
        "  movaps 144(%rsp), %xmm5\n"
        "  movaps 160(%rsp), %xmm6\n"
        "  movaps 176(%rsp), %xmm7\n"
        "  movq %rbp, %rsp\n"
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
        ".type orc_rt_jit_moduleStubCall,@function\n"
        "orc_rt_jit_moduleStubCall:\n"
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
        "  testb $1, 25(%r11)\n" /* FloatArgs */
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
        "  testb $1, 25(%r11)\n"
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
        ".size orc_rt_jit_moduleStubCall, .-orc_rt_jit_moduleStubCall\n");
