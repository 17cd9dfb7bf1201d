/*===- lib/platform/JITDylibs.c - JITDylib registry and dlopen state ------===*/
/*
 * What the controller tells us about JITDylibs (register / deregister, init
 * sections) and what dlopen / dlupdate / dlclose do with it:
 *
 *   open(JD)    ask the controller to materialize JD's initializers (it
 *               answers with every managed JITDylib involved and its link
 *               order), initialize each dependency first (depth first, each
 *               JITDylib once per call), then run JD's initializers that have
 *               not run yet, in the order the controller registered them;
 *               ++RefCount.
 *   close(JD)   --RefCount; when neither open handles nor initialized
 *               dependents remain: run JD's atexit / __cxa_atexit handlers
 *               newest first, forget which initializers ran (a later open
 *               runs them again, as after a real unload), and release its
 *               dependencies the same way.
 *
 * State.Mutex is dropped around initializers, handlers and controller calls
 * (Platform.h). A record is freed only when the controller deregisters its
 * JITDylib, which it does while releasing that JITDylib's memory, when none
 * of its code can be running (Session rule); so a pointer to a record stays
 * valid across those windows.
 */

#include "JITDylibs.h"
#include "AtExit.h"

#include <stdlib.h>
#include <string.h>

orc_rt_platform_JITDylib *orc_rt_platform_findByHeader(void *Header) {
  for (orc_rt_platform_JITDylib *JD = orc_rt_platform_TheState.JITDylibs; JD;
       JD = JD->Next)
    if (JD->Header == Header)
      return JD;
  return NULL;
}

static orc_rt_platform_JITDylib *findByName(const char *Name, size_t Len) {
  for (orc_rt_platform_JITDylib *JD = orc_rt_platform_TheState.JITDylibs; JD;
       JD = JD->Next)
    if (strlen(JD->Name) == Len && memcmp(JD->Name, Name, Len) == 0)
      return JD;
  return NULL;
}

static void lock(void) { pthread_mutex_lock(&orc_rt_platform_TheState.Mutex); }
static void unlock(void) {
  pthread_mutex_unlock(&orc_rt_platform_TheState.Mutex);
}

orc_rt_ErrorRef orc_rt_platform_registerJITDylib(const char *Name, size_t Len,
                                                 void *Header) {
  orc_rt_ErrorRef Err = NULL;
  lock();
  if (orc_rt_platform_findByHeader(Header))
    Err = orc_rt_Error_createf("duplicate JITDylib registration for header %p "
                               "(name = %.*s)",
                               Header, (int)Len, Name);
  else if (findByName(Name, Len))
    Err = orc_rt_Error_createf("duplicate JITDylib registration for name %.*s "
                               "(header = %p)",
                               (int)Len, Name, Header);
  if (Err) {
    unlock();
    return Err;
  }
  orc_rt_platform_JITDylib *JD = calloc(1, sizeof(*JD));
  char *Copy = malloc(Len + 1);
  if (!JD || !Copy) {
    free(JD);
    free(Copy);
    unlock();
    return orc_rt_Error_create("out of memory registering a JITDylib");
  }
  memcpy(Copy, Name, Len);
  Copy[Len] = '\0';
  JD->Name = Copy;
  JD->Header = Header;
  JD->Next = orc_rt_platform_TheState.JITDylibs;
  orc_rt_platform_TheState.JITDylibs = JD;
  unlock();
  return NULL;
}

static void freeJD(orc_rt_platform_JITDylib *JD) {
  free(JD->Name);
  free(JD->Inits);
  free(JD->Deps);
  free(JD);
}

orc_rt_ErrorRef orc_rt_platform_deregisterJITDylib(void *Header) {
  lock();
  orc_rt_platform_JITDylib **P = &orc_rt_platform_TheState.JITDylibs;
  while (*P && (*P)->Header != Header)
    P = &(*P)->Next;
  if (!*P) {
    unlock();
    return orc_rt_Error_createf(
        "attempted to deregister unrecognized JITDylib header %p", Header);
  }
  orc_rt_platform_JITDylib *JD = *P;
  *P = JD->Next;
  /* Handlers still registered for it can no longer run at its dlclose; they
   * run at program end with the rest (or are dropped with the process). */
  orc_rt_platform_orphanAtExits(Header);
  if (orc_rt_platform_TheState.ProgramHeader == Header)
    orc_rt_platform_TheState.ProgramHeader = NULL;
  for (orc_rt_platform_JITDylib *O = orc_rt_platform_TheState.JITDylibs; O;
       O = O->Next)
    for (size_t I = 0; I < O->NumDeps; ++I)
      if (O->Deps[I] == JD)
        O->Deps[I] = NULL;
  unlock();
  freeJD(JD);
  return NULL;
}

orc_rt_ErrorRef orc_rt_platform_registerInits(void *Header,
                                              const orc_rt_platform_Range *R,
                                              size_t N) {
  lock();
  orc_rt_platform_JITDylib *JD = orc_rt_platform_findByHeader(Header);
  if (!JD) {
    unlock();
    return orc_rt_Error_createf(
        "could not register init sections for unrecognized header %p", Header);
  }
  if (JD->NumInits + N > JD->CapInits) {
    size_t Cap = JD->CapInits ? JD->CapInits * 2 : 8;
    while (Cap < JD->NumInits + N)
      Cap *= 2;
    orc_rt_platform_Range *New = realloc(JD->Inits, Cap * sizeof(*New));
    if (!New) {
      unlock();
      return orc_rt_Error_create("out of memory registering init sections");
    }
    JD->Inits = New;
    JD->CapInits = Cap;
  }
  for (size_t I = 0; I < N; ++I)
    if (R[I].End > R[I].Start)
      JD->Inits[JD->NumInits++] = R[I];
  unlock();
  return NULL;
}

orc_rt_ErrorRef orc_rt_platform_deregisterInits(void *Header,
                                                const orc_rt_platform_Range *R,
                                                size_t N) {
  lock();
  orc_rt_platform_JITDylib *JD = orc_rt_platform_findByHeader(Header);
  if (!JD) {
    unlock();
    return orc_rt_Error_createf(
        "could not deregister init sections for unrecognized header %p",
        Header);
  }
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < JD->NumInits; ++J)
      if (JD->Inits[J].Start == R[I].Start && JD->Inits[J].End == R[I].End) {
        memmove(&JD->Inits[J], &JD->Inits[J + 1],
                (JD->NumInits - J - 1) * sizeof(*JD->Inits));
        --JD->NumInits;
        if (J < JD->NumInitsRun)
          --JD->NumInitsRun;
        break;
      }
  unlock();
  return NULL;
}

/* Runs JD's initializers that have not run yet. Called and returns with the
 * mutex held; drops it while JIT'd code runs. Sections registered while they
 * run are picked up by the loop. */
static void runInits(orc_rt_platform_JITDylib *JD) {
  void *Prev = orc_rt_platform_atExitOwner();
  orc_rt_platform_setAtExitOwner(JD->Header);
  while (JD->NumInitsRun < JD->NumInits) {
    orc_rt_platform_Range R = JD->Inits[JD->NumInitsRun++];
    unlock();
    typedef void (*InitFn)(void);
    for (uint64_t P = R.Start; P + sizeof(InitFn) <= R.End;
         P += sizeof(InitFn)) {
      InitFn F = *(InitFn *)(uintptr_t)P;
      if (F && (uintptr_t)F != (uintptr_t)-1) /* .ctors sentinels */
        F();
    }
    lock();
  }
  orc_rt_platform_setAtExitOwner(Prev);
}

static bool referenced(const orc_rt_platform_JITDylib *JD) {
  return JD->RefCount || JD->LinkedAgainstRefCount;
}

static void deinitialize(orc_rt_platform_JITDylib *JD);

static void releaseDeps(orc_rt_platform_JITDylib **Deps, size_t N) {
  for (size_t I = 0; I < N; ++I) {
    orc_rt_platform_JITDylib *D = Deps[I];
    if (!D || D->LinkedAgainstRefCount == 0)
      continue;
    if (--D->LinkedAgainstRefCount == 0 && !referenced(D))
      deinitialize(D);
  }
}

/* The last reference to JD went away. Mutex held. */
static void deinitialize(orc_rt_platform_JITDylib *JD) {
  unlock();
  orc_rt_platform_runAtExits(JD->Header);
  lock();
  if (referenced(JD)) /* reopened by a handler */
    return;
  JD->NumInitsRun = 0;
  orc_rt_platform_JITDylib **Deps = JD->Deps;
  size_t N = JD->NumDeps;
  JD->Deps = NULL;
  JD->NumDeps = 0;
  releaseDeps(Deps, N);
  free(Deps);
}

static orc_rt_platform_DepInfo *takeInfo(orc_rt_platform_DepInfo *Info,
                                         size_t NumInfo, void *Header) {
  for (size_t I = 0; I < NumInfo; ++I)
    if (Info[I].Header == (uint64_t)(uintptr_t)Header && !Info[I].Consumed) {
      Info[I].Consumed = true;
      return &Info[I];
    }
  return NULL;
}

/* Initializes JD and, first, the dependencies the controller listed for it.
 * Each listed JITDylib is visited once per open (its entry is consumed), so
 * cycles in the link order terminate. Mutex held. */
static orc_rt_ErrorRef initialize(orc_rt_platform_JITDylib *JD,
                                  orc_rt_platform_DepInfo *Info,
                                  size_t NumInfo) {
  orc_rt_platform_DepInfo *DI = takeInfo(Info, NumInfo, JD->Header);
  if (!DI) /* not listed: nothing new to initialize */
    return NULL;
  const uint64_t *DepHeaders = DI->Deps;
  size_t NumDeps = DI->NumDeps;

  orc_rt_platform_JITDylib **NewDeps =
      calloc(NumDeps ? NumDeps : 1, sizeof(*NewDeps));
  if (!NewDeps) {
    return orc_rt_Error_create("out of memory initializing a JITDylib");
  }
  size_t N = 0;
  for (size_t I = 0; I < NumDeps; ++I) {
    orc_rt_platform_JITDylib *D =
        orc_rt_platform_findByHeader((void *)(uintptr_t)DepHeaders[I]);
    if (!D) {
      orc_rt_ErrorRef Err = orc_rt_Error_createf(
          "unrecognized dependency header %p while initializing %s",
          (void *)(uintptr_t)DepHeaders[I], JD->Name);
      releaseDeps(NewDeps, N);
      free(NewDeps);
      return Err;
    }
    ++D->LinkedAgainstRefCount;
    NewDeps[N++] = D;
    orc_rt_ErrorRef Err = initialize(D, Info, NumInfo);
    if (Err) {
      releaseDeps(NewDeps, N);
      free(NewDeps);
      return Err;
    }
  }
  runInits(JD);

  orc_rt_platform_JITDylib **OldDeps = JD->Deps;
  size_t NumOld = JD->NumDeps;
  JD->Deps = NewDeps;
  JD->NumDeps = N;
  releaseDeps(OldDeps, NumOld);
  free(OldDeps);
  return NULL;
}

static orc_rt_ErrorRef openJD(orc_rt_platform_JITDylib *JD) {
  orc_rt_platform_DepInfo *Info = NULL;
  size_t NumInfo = 0;
  void *Header = JD->Header;
  unlock();
  orc_rt_ErrorRef Err =
      orc_rt_platform_pushInitializers(Header, &Info, &NumInfo);
  lock();
  if (Err)
    return Err;
  Err = initialize(JD, Info, NumInfo);
  orc_rt_platform_freeDepInfo(Info, NumInfo);
  return Err;
}

orc_rt_ErrorRef orc_rt_platform_open(const char *Name, void **Handle) {
  lock();
  orc_rt_platform_JITDylib *JD = findByName(Name, strlen(Name));
  if (!JD) {
    unlock();
    return orc_rt_Error_createf("no registered JITDylib for path %s", Name);
  }
  /* Hold a reference across the initializers so a handler that closes JD
   * cannot deinitialize it half way. */
  ++JD->RefCount;
  orc_rt_ErrorRef Err = openJD(JD);
  if (Err) {
    --JD->RefCount;
    if (!referenced(JD))
      deinitialize(JD);
  }
  if (!Err) {
    *Handle = JD->Header;
    if (!orc_rt_platform_TheState.ProgramHeader &&
        JD->Header != orc_rt_platform_TheState.PlatformHeader)
      orc_rt_platform_TheState.ProgramHeader = JD->Header;
  }
  unlock();
  return Err;
}

/* The open JITDylib Handle names, or NULL and *Err saying why Op cannot
 * use it. Mutex held. */
static orc_rt_platform_JITDylib *findOpen(void *Handle, const char *Op,
                                          orc_rt_ErrorRef *Err) {
  orc_rt_platform_JITDylib *JD = orc_rt_platform_findByHeader(Handle);
  if (!JD)
    *Err = orc_rt_Error_createf("invalid JITDylib handle %p", Handle);
  else if (!JD->RefCount)
    *Err = orc_rt_Error_createf("%s of %s, which is not open", Op, JD->Name);
  return *Err ? NULL : JD;
}

orc_rt_ErrorRef orc_rt_platform_update(void *Handle) {
  orc_rt_ErrorRef Err = NULL;
  lock();
  orc_rt_platform_JITDylib *JD = findOpen(Handle, "dlupdate", &Err);
  if (JD)
    Err = openJD(JD);
  unlock();
  return Err;
}

orc_rt_ErrorRef orc_rt_platform_close(void *Handle) {
  orc_rt_ErrorRef Err = NULL;
  lock();
  orc_rt_platform_JITDylib *JD = findOpen(Handle, "dlclose", &Err);
  if (JD && --JD->RefCount == 0 && !referenced(JD))
    deinitialize(JD);
  unlock();
  return Err;
}

void orc_rt_platform_destroyJITDylibs(void) {
  lock();
  orc_rt_platform_JITDylib *JD = orc_rt_platform_TheState.JITDylibs;
  orc_rt_platform_TheState.JITDylibs = NULL;
  orc_rt_platform_TheState.ProgramHeader = NULL;
  unlock();
  while (JD) {
    orc_rt_platform_JITDylib *Next = JD->Next;
    freeJD(JD);
    JD = Next;
  }
}
