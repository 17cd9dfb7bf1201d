/*===- lib/platform/ObjectSections.c - Per-object EH frames and TLS data --===*/
/*
 * __orc_rt_elfnix_register_object_sections(SPSTuple<SPSExecutorAddrRange,
 * SPSExecutorAddrRange>) gives, per linked object, its .eh_frame range and its
 * thread-data range (.tdata with .tbss merged in by the controller); either
 * may be empty. EH frames go to the unwinder: libgcc_s's __register_frame,
 * looked up at run time (loading libgcc_s.so.1 if the executor has not, as a
 * C executor such as orc-executor may not) so the archive links in any
 * executor. Thread-data ranges are kept, sorted, as the templates TLS.c copies
 * for each thread.
 */

#include "Platform.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef void (*FrameFn)(const void *);

static FrameFn lookupUnwinder(const char *Name) {
  void *F = dlsym(RTLD_DEFAULT, Name);
  if (!F) {
    /* Kept open for the life of the process: registered frames live in it. */
    void *H = dlopen("libgcc_s.so.1", RTLD_LAZY | RTLD_GLOBAL);
    if (H)
      F = dlsym(H, Name);
  }
  return (FrameFn)(uintptr_t)F;
}

/* Set at bootstrap (single-threaded: the first allocation action). */
static FrameFn RegisterFrame, DeregisterFrame;

void orc_rt_platform_findUnwinder(void) {
  RegisterFrame = lookupUnwinder("__register_frame");
  DeregisterFrame = lookupUnwinder("__deregister_frame");
}

orc_rt_ErrorRef orc_rt_platform_registerEHFrame(uint64_t Start) {
  if (!RegisterFrame || !DeregisterFrame)
    return orc_rt_Error_create(
        "cannot register EH frames: no __register_frame in the executor "
        "(libgcc_s.so.1 not found)");
  RegisterFrame((const void *)(uintptr_t)Start);
  return NULL;
}

void orc_rt_platform_deregisterEHFrame(uint64_t Start) {
  if (DeregisterFrame)
    DeregisterFrame((const void *)(uintptr_t)Start);
}

/*---- Thread-data templates ----*/

static pthread_mutex_t ThreadDataMutex = PTHREAD_MUTEX_INITIALIZER;
static orc_rt_platform_Range *ThreadData; /* sorted by Start, disjoint */
static size_t NumThreadData, CapThreadData;

orc_rt_ErrorRef orc_rt_platform_registerThreadData(uint64_t Start,
                                                   uint64_t End) {
  pthread_mutex_lock(&ThreadDataMutex);
  size_t I = 0;
  while (I < NumThreadData && ThreadData[I].Start < Start)
    ++I;
  if ((I > 0 && ThreadData[I - 1].End > Start) ||
      (I < NumThreadData && ThreadData[I].Start < End)) {
    pthread_mutex_unlock(&ThreadDataMutex);
    return orc_rt_Error_createf("overlapping thread-data sections at %#llx",
                                (unsigned long long)Start);
  }
  if (NumThreadData == CapThreadData) {
    size_t Cap = CapThreadData ? CapThreadData * 2 : 8;
    orc_rt_platform_Range *New = realloc(ThreadData, Cap * sizeof(*New));
    if (!New) {
      pthread_mutex_unlock(&ThreadDataMutex);
      return orc_rt_Error_create("out of memory registering thread data");
    }
    ThreadData = New;
    CapThreadData = Cap;
  }
  memmove(&ThreadData[I + 1], &ThreadData[I],
          (NumThreadData - I) * sizeof(*ThreadData));
  ThreadData[I].Start = Start;
  ThreadData[I].End = End;
  ++NumThreadData;
  pthread_mutex_unlock(&ThreadDataMutex);
  return NULL;
}

void orc_rt_platform_deregisterThreadData(uint64_t Start) {
  pthread_mutex_lock(&ThreadDataMutex);
  for (size_t I = 0; I < NumThreadData; ++I)
    if (ThreadData[I].Start == Start) {
      memmove(&ThreadData[I], &ThreadData[I + 1],
              (NumThreadData - I - 1) * sizeof(*ThreadData));
      --NumThreadData;
      break;
    }
  if (NumThreadData == 0) {
    free(ThreadData);
    ThreadData = NULL;
    CapThreadData = 0;
  }
  pthread_mutex_unlock(&ThreadDataMutex);
}

bool orc_rt_platform_findThreadData(uint64_t Addr, uint64_t *Start,
                                    uint64_t *Size) {
  bool Found = false;
  pthread_mutex_lock(&ThreadDataMutex);
  for (size_t I = 0; I < NumThreadData && ThreadData[I].Start <= Addr; ++I)
    if (Addr < ThreadData[I].End) {
      *Start = ThreadData[I].Start;
      *Size = ThreadData[I].End - ThreadData[I].Start;
      Found = true;
      break;
    }
  pthread_mutex_unlock(&ThreadDataMutex);
  return Found;
}
