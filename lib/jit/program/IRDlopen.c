/*===- lib/jit/program/IRDlopen.c - dlopen and friends for LLVM IR modules ===*/
/* JIT'd code's dl* calls on LLVM IR files, as glibc's on shared objects,
 * built on the host JIT library's loader (orc-rt-c/Jit.h, made over the
 * program's LLJIT: host/JitOver.h). The loader does the module's life --
 * compile (or take from the cache), link into a JITDylib of its own, nested
 * group, stubs, constructors; at unload, destructors and the atexit handlers
 * it registered under its tokens, its group closed, its code freed once the
 * last token is back; at exit, the modules still loaded finalized in glibc's
 * _dl_fini order -- and this file what is dlopen's own:
 *
 *   a handle per file (by device and inode), with its reference count and
 *     flags: RTLD_GLOBAL shows its exports to modules loaded later and to
 *     dlsym(RTLD_DEFAULT) (else RTLD_LOCAL: hidden), RTLD_NODELETE keeps it,
 *     RTLD_NOLOAD only finds it;
 *   dlclose to zero of a module another one bound symbols from keeps it
 *     (glibc's reldeps) until that one goes, then unloads it after;
 *   dlerror's per-thread message, dlsym, dladdr and dlinfo on handles.
 *
 * Locks: Lock (recursive, as glibc's dl_load_lock) is held by dlopen and
 * dlclose across loading and unloading (which run constructors and
 * destructors that may dlopen / dlclose again on the same thread); SymLock
 * guards the list of handles and their flags for readers that must not wait
 * for a dlopen in progress (dlsym, dlinfo, exit's atexit handlers). The
 * loader's own locks are taken inside these, never around them. */

#include "jit/program/IRDlopen.h"
#include "jit/host/JitOver.h"
#include "jit/ir/Module.h"
#include "jit/modules/ModuleStubs.h"
#include "jit/program/LiveEntries.h"
#include "jit/program/ProgramRuntime.h"
#include "jit/program/RuntimeParts.h"
#include "jit/support/Diag.h"

#include <llvm-c/Orc.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What dlopen returns for an IR file: the loaded module and dlopen's
 * bookkeeping of it. Freed when it is unloaded. */
typedef struct Handle {
  orc_rt_JitModuleRef M;
  char *Path; /* as given to the dlopen that loaded it */
  dev_t Dev;
  ino_t Ino;
  unsigned Refs;
  bool Global, NoDelete;
  bool Finalizing; /* destructors running: hidden from dlopen / dlsym */
  struct Handle *Next;
} Handle;

static pthread_mutex_t Lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t SymLock = PTHREAD_MUTEX_INITIALIZER;

static orc_rt_SessionRef Sess;
static orc_rt_jit_Jit *Jit;
static const orc_rt_jit_Options *Opts;
static orc_rt_JitRef Loader; /* the first IR dlopen's; Lock and SymLock */
static bool LoaderGone;      /* under Lock and SymLock */
static Handle *Loaded;       /* newest first; under Lock and SymLock */

/* -trace-shutdown also traces modules' unloading. */
static void trace(const char *What, const char *Path) {
  if (!Opts || !Opts->TraceShutdown)
    return;
  fflush(stdout);
  fprintf(stderr, "mini-lli: dlclose: '%s': %s\n", Path, What);
  fflush(stderr);
}

/*---- dlerror ----*/

/* glibc's dlerror string stays valid until the next dlerror call on the
 * thread: one buffer for the pending message, one for the returned one. */
static _Thread_local char PendingErr[2048], ReturnedErr[2048];
static _Thread_local bool HavePending;

static void setError(const char *Fmt, ...)
    __attribute__((format(printf, 1, 2)));
static void setError(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  vsnprintf(PendingErr, sizeof(PendingErr), Fmt, Args);
  va_end(Args);
  /* One line, as glibc's: ORC follows "Symbols not found" with a line
   * about what could therefore not be materialized. */
  char *NL = strchr(PendingErr, '\n');
  if (NL)
    *NL = 0;
  HavePending = true;
}

/* The loader's errors put the cause first ("m.ll: Symbols not found: [ f ]"),
 * and setError keeps that line. */
static void setErrorFrom(const char *Path, orc_rt_ErrorRef Err) {
  const char *Msg = orc_rt_Error_getMessage(Err);
  /* Parser messages already start with the file name. */
  if (!strncmp(Msg, Path, strlen(Path)))
    setError("%s", Msg);
  else
    setError("%s: %s", Path, Msg);
  orc_rt_Error_consume(Err);
}

char *orc_rt_jit_dlerror(void) {
  if (!HavePending)
    return dlerror();
  HavePending = false;
  memcpy(ReturnedErr, PendingErr, sizeof(ReturnedErr));
  return ReturnedErr;
}

typedef enum { Kind_Native, Kind_IR, Kind_Error } FileKind;

static bool hasIRSuffix(const char *Path) {
  size_t N = strlen(Path);
  return N > 3 &&
         (!strcmp(Path + N - 3, ".ll") || !strcmp(Path + N - 3, ".bc"));
}

/* IR is recognised by content: bitcode by its magic (raw or wrapped), text
 * if the file is not ELF and its first 4 KiB hold no NUL byte. */
static FileKind classify(const char *Path, struct stat *St) {
  int FD = open(Path, O_RDONLY | O_CLOEXEC);
  if (FD < 0) {
    if (!hasIRSuffix(Path))
      return Kind_Native; /* the real dlopen searches and reports */
    setError("%s: cannot open module: %s", Path, strerror(errno));
    return Kind_Error;
  }
  unsigned char Head[4096];
  ssize_t N = read(FD, Head, sizeof(Head));
  int ReadErr = errno;
  bool Stat = !fstat(FD, St);
  close(FD);
  if (N < 0 || !Stat) {
    setError("%s: cannot read module: %s", Path,
             strerror(N < 0 ? ReadErr : errno));
    return Kind_Error;
  }
  if (N >= 4 && !memcmp(Head,
                        "\x7f"
                        "ELF",
                        4))
    return Kind_Native;
  if (N >= 4 &&
      (!memcmp(Head, "BC\xc0\xde", 4) || !memcmp(Head, "\xde\xc0\x17\x0b", 4)))
    return Kind_IR;
  if (memchr(Head, 0, (size_t)N))
    return hasIRSuffix(Path) ? (setError("%s: not an LLVM IR module (neither "
                                         "bitcode nor text)",
                                         Path),
                                Kind_Error)
                             : Kind_Native;
  return Kind_IR;
}

/*---- The loader over the program's JIT (host/JitOver.h) ----*/

static orc_rt_ErrorRef runPasses(LLVMModuleRef M, const char *Passes,
                                 void *Ctx) {
  (void)Ctx;
  LLVMTargetMachineRef TM = orc_rt_jit_Jit_createTargetMachine(Jit);
  orc_rt_ErrorRef Err = orc_rt_jit_runPasses(M, Passes, TM);
  if (TM)
    LLVMDisposeTargetMachine(TM);
  return Err;
}

static orc_rt_ErrorRef compileObjects(LLVMModuleRef M,
                                      orc_rt_jit_ObjectList *Out, void *Ctx) {
  (void)Ctx;
  return orc_rt_jit_Jit_compileObjects(Jit, M, Out);
}

static void warnCache(orc_rt_ErrorRef Err, void *Ctx) {
  (void)Ctx;
  fprintf(stderr, "mini-lli: warning: object cache: %s\n",
          orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
}

static orc_rt_ErrorRef addObjects(LLVMOrcJITDylibRef JD,
                                  const LLVMMemoryBufferRef *Objects, size_t N,
                                  void *Ctx) {
  (void)Ctx;
  return orc_rt_jit_Jit_addObjectsTo(Jit, JD, Objects, N);
}

static orc_rt_ErrorRef lookupIn(LLVMOrcJITDylibRef JD, const char *const *Names,
                                size_t N, uint64_t *Addrs, void *Ctx) {
  (void)Ctx;
  return orc_rt_jit_Jit_lookupIn(Jit, JD, Names, N, Addrs);
}

static char *takeSessionErrors(void *Ctx) {
  (void)Ctx;
  orc_rt_ErrorRef Err = orc_rt_jit_Jit_takeSessionErrors(Jit, NULL);
  char *Msg = Err ? strdup(orc_rt_Error_getMessage(Err)) : NULL;
  orc_rt_Error_consume(Err);
  return Msg;
}

/* A module's constructors, destructors and atexit handlers run as the
 * program's entries do: under a Session token, listed for -shutdown-timeout's
 * report (LiveEntries.h). */
static bool enter(const char *What, uint64_t Addr, void (*Body)(void *),
                  void *BodyCtx, void *Ctx) {
  (void)Ctx;
  return orc_rt_jit_LiveEntries_call(Sess, What, Addr, Body, BodyCtx);
}

/* JIT'd code's __cxa_atexit is the program runtime's (one list, as glibc's). */
static bool popHandler(void *Dso, orc_rt_jit_AtexitHandler *Out, void *Ctx) {
  (void)Ctx;
  orc_rt_jit_Handler H;
  if (!orc_rt_jit_Runtime_popHandlerOf(Dso, &H))
    return false;
  *Out = (orc_rt_jit_AtexitHandler){H.Fn, H.Arg, H.NoArg};
  return true;
}

/* The Session's shutdown frees the loader (after the drain, before the
 * program's JIT): the handles of the modules still loaded go with it. */
static void onLoaderGone(void *Ctx) {
  (void)Ctx;
  pthread_mutex_lock(&Lock);
  pthread_mutex_lock(&SymLock);
  LoaderGone = true;
  Handle *List = Loaded;
  Loaded = NULL;
  pthread_mutex_unlock(&SymLock);
  pthread_mutex_unlock(&Lock);
  while (List) {
    Handle *H = List;
    List = H->Next;
    free(H->Path);
    free(H);
  }
}

/* The handle of the load whose module is being linked (under Lock): no
 * JIT'd code runs between a load's start and its OnLinked, so loads that
 * constructors make nest after it. */
static Handle *Linking;

/* The loader linked the module of the load under way: its handle is listed
 * before the constructors run, so that a dlopen of the same file from one
 * of them returns it (glibc's link map has the object from before its
 * constructors: one copy, constructors run once). */
static void onLinked(orc_rt_JitModuleRef M, void *Ctx) {
  (void)Ctx;
  Handle *H = Linking;
  Linking = NULL;
  H->M = M;
  pthread_mutex_lock(&SymLock);
  H->Next = Loaded;
  Loaded = H;
  pthread_mutex_unlock(&SymLock);
}

/* Under Lock: made on the first IR dlopen (so that a program that loads
 * none does not wait for its JIT here). */
static orc_rt_ErrorRef makeLoader(void) {
  if (Loader)
    return NULL;
  /* -enable-cache-manager makes the directory lli's cache, whose files hold
   * one object and nothing else (LLICache.h): modules are not stored there. */
  orc_rt_jit_JitOwner Owner = {
      .LLJIT = orc_rt_jit_Jit_llJIT(Jit),
      .Lock = &Lock,
      .Fallback = orc_rt_jit_Jit_programDylib(Jit),
      .Compile = {.CodegenSettings = orc_rt_jit_Jit_codegenSettings(Jit),
                  .Passes = Opts->Passes,
                  .Dir = Opts->EnableCacheManager ? NULL : Opts->ObjectCacheDir,
                  .RunPasses = runPasses,
                  .Compile = compileObjects,
                  .Warn = warnCache},
      .AddObjects = addObjects,
      .Lookup = lookupIn,
      .TakeSessionErrors = takeSessionErrors,
      .Enter = enter,
      .PopHandler = popHandler,
      .OnLinked = onLinked,
      .OnGone = onLoaderGone};
  orc_rt_JitRef L;
  orc_rt_ErrorRef Err = orc_rt_jit_Jit_createOver(&L, Sess, &Owner);
  if (Err)
    return Err;
  pthread_mutex_lock(&SymLock); /* (dlsym reads it under SymLock only) */
  Loader = L;
  pthread_mutex_unlock(&SymLock);
  return NULL;
}

/*---- Handles ----*/

/* Under Lock or SymLock. */
static bool isOurs(void *Ptr) {
  for (Handle *H = Loaded; H; H = H->Next)
    if (H == Ptr)
      return true;
  return false;
}

static Handle *findLoaded(const struct stat *St) {
  for (Handle *H = Loaded; H; H = H->Next)
    if (!H->Finalizing && H->Dev == St->st_dev && H->Ino == St->st_ino)
      return H;
  return NULL;
}

static void unlist(Handle *H) {
  pthread_mutex_lock(&SymLock);
  for (Handle **P = &Loaded; *P; P = &(*P)->Next)
    if (*P == H) {
      *P = H->Next;
      break;
    }
  pthread_mutex_unlock(&SymLock);
}

/*---- Unloading ----*/

/* The module being unloaded on this thread, freed inside its unload (no
 * token was out): traced after the unload's own line, in the order things
 * happened. */
static _Thread_local char *FreedInUnload;
static _Thread_local bool InUnload;

static void tracedFreed(void *Path) {
  if (InUnload && !FreedInUnload) {
    FreedInUnload = Path;
    return;
  }
  trace("last token back; code and data freed", Path);
  free(Path);
}

/* Under Lock: runs H's destructors and handlers and denies new entries; the
 * code goes once the last token is back (at once if none is out). */
static void unload(Handle *H) {
  pthread_mutex_lock(&SymLock);
  H->Finalizing = true;
  pthread_mutex_unlock(&SymLock);
  char *Traced = Opts->TraceShutdown ? strdup(H->Path) : NULL;
  bool Outer = !InUnload;
  InUnload = true;
  orc_rt_JitModule_unload(H->M, Traced ? tracedFreed : NULL, Traced);
  InUnload = !Outer;
  trace("destructors done; new entries denied", H->Path);
  if (Outer && FreedInUnload) {
    char *Path = FreedInUnload;
    FreedInUnload = NULL;
    tracedFreed(Path);
  }
  unlist(H);
  free(H->Path);
  free(H);
}

__attribute__((noinline)) int orc_rt_jit_dlclose(void *Ptr) {
  /* A frame this thread left without returning (an exception, longjmp) still
   * holds its module's token: give it back now, or the module would stay
   * mapped until shutdown. JIT'd code calls this function directly, so its
   * caller resumes just above our return address; a frame still live on this
   * stack (dlclose called from inside a module) resumes above that. */
  orc_rt_jit_ModuleStubs_dropDeadFrames((uintptr_t)__builtin_frame_address(0) +
                                        2 * sizeof(void *));
  pthread_mutex_lock(&Lock);
  if (!isOurs(Ptr)) {
    pthread_mutex_unlock(&Lock);
    HavePending = false;
    return dlclose(Ptr);
  }
  Handle *H = Ptr;
  if (H->Finalizing || !H->Refs) {
    setError("%s: %s", H->Path,
             H->Finalizing ? "dlclose: the module is being unloaded"
                           : "shared object not open"); /* glibc's */
    pthread_mutex_unlock(&Lock);
    return -1;
  }
  if (--H->Refs || H->NoDelete) {
    pthread_mutex_unlock(&Lock);
    return 0;
  }
  /* As glibc's reldeps: a module whose symbols another loaded module bound
   * stays loaded (its data may be referenced from there) until that one is
   * unloaded; then it goes too, after it. */
  if (orc_rt_jit_JitModule_isNeeded(H->M)) {
    trace("count zero; kept loaded for a module that uses its symbols",
          H->Path);
    pthread_mutex_unlock(&Lock);
    return 0;
  }
  unload(H);
  for (bool Again = true; Again;) {
    Again = false;
    Handle *Oldest = NULL;
    for (Handle *N = Loaded; N; N = N->Next)
      if (!N->Refs && !N->NoDelete && !N->Finalizing &&
          !orc_rt_jit_JitModule_isNeeded(N->M))
        Oldest = N; /* the list is newest first: glibc's order */
    if (Oldest) {
      unload(Oldest);
      Again = true;
    }
  }
  pthread_mutex_unlock(&Lock);
  return 0;
}

/*---- Loading ----*/

/* Under Lock. */
static Handle *load(const char *Path, const struct stat *St) {
  Handle *H = calloc(1, sizeof(*H));
  char *Copy = H ? strdup(Path) : NULL;
  orc_rt_ErrorRef Err =
      Copy ? makeLoader() : orc_rt_Error_create("out of memory");
  if (!Err) {
    *H =
        (Handle){.Path = Copy, .Dev = St->st_dev, .Ino = St->st_ino, .Refs = 1};
    Linking = H;
    orc_rt_JitModuleRef M;
    Err = orc_rt_Jit_loadFile(Loader, Path, &M);
    Linking = NULL; /* (a failed load never linked) */
  }
  if (Err) {
    setErrorFrom(Path, Err);
    free(Copy);
    free(H);
    return NULL;
  }
  return H;
}

void *orc_rt_jit_dlopen(const char *Path, int Flags) {
  if (!Path) {
    HavePending = false;
    return dlopen(Path, Flags);
  }
  struct stat St;
  FileKind K = classify(Path, &St);
  if (K == Kind_Native) {
    HavePending = false;
    return dlopen(Path, Flags);
  }
  if (K == Kind_Error)
    return NULL;
  if (!(Flags & (RTLD_LAZY | RTLD_NOW))) {
    setError("%s: invalid mode for dlopen(): Invalid argument", Path);
    return NULL;
  }
  if (Opts->Engine == orc_rt_jit_Engine_MCJIT ||
      Opts->Engine == orc_rt_jit_Engine_Interpreter) {
    /* Modules get a JITDylib, stubs and a task group of their own: LLJIT's. */
    setError("%s: LLVM IR modules can be dlopen'ed only under -jit-kind=orc "
             "or orc-lazy",
             Path);
    return NULL;
  }
  pthread_mutex_lock(&Lock);
  if (LoaderGone) {
    setError("%s: cannot load a module after the program's JIT was freed",
             Path);
    pthread_mutex_unlock(&Lock);
    return NULL;
  }
  Handle *H = findLoaded(&St);
  if (H) {
    ++H->Refs;
  } else if (!(Flags & RTLD_NOLOAD)) {
    H = load(Path, &St);
  }
  if (H) {
    pthread_mutex_lock(&SymLock);
    H->Global |= (Flags & RTLD_GLOBAL) != 0; /* never demoted, as glibc */
    H->NoDelete |= (Flags & RTLD_NODELETE) != 0;
    pthread_mutex_unlock(&SymLock);
    if (H->Global)
      orc_rt_jit_JitModule_setVisible(H->M, true);
  }
  pthread_mutex_unlock(&Lock);
  return H;
}

void *orc_rt_jit_dlsym(void *Ptr, const char *Name) {
  uint64_t Addr;
  pthread_mutex_lock(&SymLock);
  if (Ptr == RTLD_DEFAULT && Loader && !LoaderGone &&
      orc_rt_jit_Jit_findGlobal(Loader, Name, &Addr)) {
    pthread_mutex_unlock(&SymLock);
    return (void *)(uintptr_t)Addr;
  }
  bool Ours = Ptr != RTLD_DEFAULT && Ptr != RTLD_NEXT && isOurs(Ptr);
  Handle *H = Ours ? Ptr : NULL;
  void *Found = NULL;
  orc_rt_ErrorRef Err =
      !H              ? NULL
      : H->Finalizing ? orc_rt_Error_create("the module is being unloaded")
                      : orc_rt_JitModule_lookup(H->M, Name, &Found);
  if (Err)
    setError("%s: undefined symbol: %s", H->Path, Name);
  orc_rt_Error_consume(Err);
  pthread_mutex_unlock(&SymLock);
  if (Ours)
    return Found;
  HavePending = false;
  return dlsym(Ptr, Name);
}

int orc_rt_jit_dladdr(const void *Addr, Dl_info *Info) {
  const char *Name;
  const orc_rt_jit_StubModule *M;
  if (orc_rt_jit_ModuleStubs_lookup((uintptr_t)Addr, &Name, &M)) {
    Info->dli_fname = M->Path;
    Info->dli_fbase = NULL; /* a module has no single base address */
    Info->dli_sname = Name;
    Info->dli_saddr = (void *)Addr;
    return 1;
  }
  return dladdr(Addr, Info);
}

int orc_rt_jit_dlinfo(void *Ptr, int Request, void *Arg) {
  pthread_mutex_lock(&SymLock);
  bool Ours = isOurs(Ptr);
  char *Path = Ours ? strdup(((Handle *)Ptr)->Path) : NULL;
  pthread_mutex_unlock(&SymLock);
  if (!Ours) {
    HavePending = false;
    return dlinfo(Ptr, Request, Arg);
  }
  int Ret = -1;
  if (!Path) {
    setError("dlinfo: out of memory");
  } else if (Request == RTLD_DI_ORIGIN) {
    char Dir[PATH_MAX];
    if (!realpath(Path, Dir)) {
      setError("%s: dlinfo: %s", Path, strerror(errno));
    } else {
      char *Slash = strrchr(Dir, '/');
      if (Slash)
        *(Slash == Dir ? Slash + 1 : Slash) = 0;
      strcpy(Arg, Dir);
      Ret = 0;
    }
  } else {
    setError("%s: dlinfo: request %d is not supported for an LLVM IR module "
             "(only RTLD_DI_ORIGIN)",
             Path, Request);
  }
  free(Path);
  return Ret;
}

size_t orc_rt_jit_Dlopen_reportLiveFrames(FILE *Out) {
  return orc_rt_jit_ModuleStubs_reportLiveFrames(Out);
}

/*---- Exit ----*/

bool orc_rt_jit_Dlopen_runHandler(const orc_rt_jit_Handler *H) {
  pthread_mutex_lock(&SymLock);
  orc_rt_JitRef L = LoaderGone ? NULL : Loader;
  pthread_mutex_unlock(&SymLock);
  orc_rt_jit_AtexitHandler A = {H->Fn, H->Arg, H->NoArg};
  return L && orc_rt_jit_Jit_runHandlerOf(L, H->Dso, &A);
}

void orc_rt_jit_Dlopen_attach(orc_rt_SessionRef S, orc_rt_jit_Jit *J,
                              const orc_rt_jit_Options *O) {
  Sess = S;
  Jit = J;
  Opts = O;
}
