/*===- lib/platform/Platform.h - ELFNix platform runtime internals --------===*/
/*
 * The ELF-on-*nix ORC platform runtime: the C archive that LLVM's
 * ELFNixPlatform controller JIT-links into the executor process
 * (llvm-jitlink -orc-runtime=, lli -lljit-platform=ExecutorNative
 * -orc-runtime=). See docs/Platform.md for the design and every entry point.
 *
 * The archive is JIT-linked, not loaded by ld.so, so it must not use TLS
 * itself (its own __thread variables would be routed through its own
 * __tls_get_addr), and it may only reference symbols the executor process
 * resolves: libc, pthreads, and the JIT-dispatch pair the controller
 * re-exports (__orc_rt_jit_dispatch, __orc_rt_jit_dispatch_ctx). lib/support
 * is compiled into the archive with hidden visibility.
 *
 * One State per JIT-linked copy of the runtime (one per ELFNixPlatform):
 *
 *   JITDylibs   one record per registered JITDylib, keyed by its header
 *               address (the JITDylib's __dso_handle) and by name
 *   AtExits     one list for the whole process image, newest last; each entry
 *               names the JITDylib it belongs to, so dlclose runs that
 *               JITDylib's entries and program end runs all the rest
 *
 * State.Mutex (recursive) guards both. It is never held while JIT'd code runs
 * (initializers, atexit handlers, main) or while the controller is called, so
 * that code may call back into dlopen/dlclose/atexit on any thread.
 */

#ifndef ORC_RT_C_LIB_PLATFORM_PLATFORM_H
#define ORC_RT_C_LIB_PLATFORM_PLATFORM_H

#include "orc-rt-c/Error.h"
#include "orc-rt-c/WrapperFunction.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Entry points the controller looks up or aliases keep default visibility. */
#define ORC_RT_PLATFORM_API __attribute__((visibility("default")))

typedef struct {
  uint64_t Start, End;
} orc_rt_platform_Range;

typedef struct orc_rt_platform_JITDylib {
  char *Name;
  void *Header;                 /* the JITDylib's __dso_handle */
  size_t RefCount;              /* open dlopen handles */
  size_t LinkedAgainstRefCount; /* initialized JITDylibs linking against it */
  orc_rt_platform_Range *Inits; /* init sections, in registration order */
  size_t NumInits, CapInits;
  size_t NumInitsRun;                     /* Inits[0, NumInitsRun) have run */
  struct orc_rt_platform_JITDylib **Deps; /* from the last dlopen */
  size_t NumDeps;
  struct orc_rt_platform_JITDylib *Next;
} orc_rt_platform_JITDylib;

typedef struct {
  void (*Fn)(void *);
  void *Arg;
  orc_rt_platform_JITDylib *JD; /* runs at this JITDylib's last dlclose */
} orc_rt_platform_AtExit;

typedef struct {
  pthread_mutex_t Mutex; /* recursive; see the file comment */
  void *PlatformHeader;  /* the platform JITDylib's __dso_handle */
  orc_rt_platform_JITDylib *JITDylibs;
  orc_rt_platform_JITDylib *ProgramJD; /* first JITDylib opened from outside */
  orc_rt_platform_AtExit *AtExits;
  size_t NumAtExits, CapAtExits;
  pthread_key_t DLErrorKey;   /* per-thread dlerror() message (malloc'd) */
  pthread_key_t CurrentJDKey; /* JITDylib whose code runs on this thread */
  bool Bootstrapped;
} orc_rt_platform_State;

extern orc_rt_platform_State orc_rt_platform_TheState;

/*---- JITDylibs.c: registry, initializers, reference-counted open/close ----*/
orc_rt_ErrorRef orc_rt_platform_registerJITDylib(const char *Name, size_t Len,
                                                 void *Header);
orc_rt_ErrorRef orc_rt_platform_deregisterJITDylib(void *Header);
orc_rt_ErrorRef orc_rt_platform_registerInits(void *Header,
                                              const orc_rt_platform_Range *R,
                                              size_t N);
orc_rt_ErrorRef orc_rt_platform_deregisterInits(void *Header,
                                                const orc_rt_platform_Range *R,
                                                size_t N);
/* Lookups; the caller holds State.Mutex. */
orc_rt_platform_JITDylib *orc_rt_platform_findByHeader(void *Header);
/* dlopen: runs new initializers of Name and its dependencies, increments its
 * open count; *Handle is the JITDylib's header. */
orc_rt_ErrorRef orc_rt_platform_open(const char *Name, void **Handle);
/* dlupdate: runs initializers added since the last open of Handle. */
orc_rt_ErrorRef orc_rt_platform_update(void *Handle);
/* dlclose: at the last close, runs the JITDylib's atexit handlers (newest
 * first) and releases its dependencies. */
orc_rt_ErrorRef orc_rt_platform_close(void *Handle);
/* Frees every record (platform shutdown). */
void orc_rt_platform_destroyJITDylibs(void);

/*---- AtExit.c: atexit / __cxa_atexit lists ----*/
/* Runs, newest first, the handlers of JD (every handler if JD is NULL). */
void orc_rt_platform_runAtExits(orc_rt_platform_JITDylib *JD);
/* Arms / disarms the process-exit hook that runs what is left at exit(). */
void orc_rt_platform_installExitHook(void);
/* The handle the runtime registers process-level handlers under
 * (LibcNonshared.c); platform shutdown finalizes it. */
void *orc_rt_platform_exitHookHandle(void);
void orc_rt_platform_removeExitHook(void);

/*---- Dlfcn.c ----*/
/* Records Err's message as this thread's dlerror() text; consumes Err. */
void orc_rt_platform_setDLError(orc_rt_ErrorRef Err);
/* The JITDylib whose code this thread runs (initializers, main), or NULL. */
orc_rt_platform_JITDylib *orc_rt_platform_currentJD(void);
void orc_rt_platform_setCurrentJD(orc_rt_platform_JITDylib *JD);

/*---- Controller.c: calls into the controller (JIT dispatch) ----*/
typedef struct {
  uint64_t Header;
  uint64_t *Deps;
  size_t NumDeps;
  bool Consumed; /* visited by the current open */
} orc_rt_platform_DepInfo;
/* __orc_rt_elfnix_push_initializers_tag: makes the controller materialize the
 * initializers of Header's JITDylib and its link order; returns every managed
 * JITDylib involved with its dependencies' headers. Free with freeDepInfo. */
orc_rt_ErrorRef orc_rt_platform_pushInitializers(void *Header,
                                                 orc_rt_platform_DepInfo **Info,
                                                 size_t *NumInfo);
void orc_rt_platform_freeDepInfo(orc_rt_platform_DepInfo *Info, size_t N);
/* __orc_rt_elfnix_symbol_lookup_tag: the address of Name in Header's
 * JITDylib. */
orc_rt_ErrorRef orc_rt_platform_lookupSymbol(void *Header, const char *Name,
                                             uint64_t *Addr);

/*---- ObjectSections.c: EH frames and thread-data sections ----*/
/* Looks up __register_frame / __deregister_frame once (bootstrap). */
void orc_rt_platform_findUnwinder(void);
orc_rt_ErrorRef orc_rt_platform_registerEHFrame(uint64_t Start);
void orc_rt_platform_deregisterEHFrame(uint64_t Start);
orc_rt_ErrorRef orc_rt_platform_registerThreadData(uint64_t Start,
                                                   uint64_t End);
void orc_rt_platform_deregisterThreadData(uint64_t Start);
/* The registered thread-data section holding Addr: *Start and *Size. */
bool orc_rt_platform_findThreadData(uint64_t Addr, uint64_t *Start,
                                    uint64_t *Size);
/* TLS.c: deletes the pthread keys handed out (platform shutdown). */
void orc_rt_platform_deleteTLSKeys(void);

#endif
