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
 *               names the header of the JITDylib it belongs to, so dlclose
 *               runs that JITDylib's entries and program end runs all the rest
 *
 * Calls point one way: Bootstrap, Dlfcn -> JITDylibs.h -> AtExit.h. AtExit.c
 * knows JITDylibs only by their header addresses (as glibc's list knows DSO
 * handles) and never includes JITDylibs.h (scripts/check-includes.py); the
 * callers tell it whose code runs, and JITDylibs.c runs a JITDylib's handlers
 * at its last dlclose.
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
  void *DSO; /* runs at the last dlclose of the JITDylib with this header
                (NULL: at program end only) */
} orc_rt_platform_AtExit;

typedef struct {
  pthread_mutex_t Mutex; /* recursive; see the file comment */
  void *PlatformHeader;  /* the platform JITDylib's __dso_handle */
  orc_rt_platform_JITDylib *JITDylibs;
  void *ProgramHeader; /* header of the first JITDylib opened from outside */
  orc_rt_platform_AtExit *AtExits;
  size_t NumAtExits, CapAtExits;
  pthread_key_t DLErrorKey;     /* per-thread dlerror() message (malloc'd) */
  pthread_key_t AtExitOwnerKey; /* header of the JITDylib whose code runs on
                                   this thread */
  bool Bootstrapped;
} orc_rt_platform_State;

extern orc_rt_platform_State orc_rt_platform_TheState;

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
