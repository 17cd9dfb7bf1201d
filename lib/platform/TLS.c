/*===- lib/platform/TLS.c - Thread-local variables of JIT'd code ----------===*/
/*
 * General-dynamic TLS. For every TLS variable JIT'd code uses, the controller
 * builds a TLSInfoEntry {pthread key, address of the variable in its object's
 * thread-data template} and renames the code's __tls_get_addr calls to
 * ___orc_rt_elfnix_tls_get_addr (TLSGetAddr.S), which saves every register
 * the caller might hold live and calls __orc_rt_elfnix_tls_get_addr_impl.
 * (JITLink lowers only general-dynamic __tls_get_addr calls on x86-64; TLS
 * descriptors, -mtls-dialect=gnu2, are refused by JITLink itself.)
 *
 * The key's per-thread value lists this thread's copies of the templates
 * (ObjectSections.c) it has touched: the first access to a template from a
 * thread copies it (initial .tdata values, zeroed .tbss); later ones find the
 * copy. The key's destructor frees a thread's copies when the thread exits.
 * The destructor is code in this archive, so platform shutdown deletes every
 * key handed out (pthread_key_delete) before the archive's memory goes away:
 * a thread that outlives the platform then leaks its copies instead of
 * calling into freed memory.
 */

#include "Platform.h"

#include "orc-rt-c/SPS.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  unsigned long Key;
  unsigned long DataAddress;
} TLSInfoEntry;

typedef struct {
  uint64_t Start, Size; /* the template */
  char *Copy;
} Instance;

typedef struct {
  Instance *Items;
  size_t N, Cap;
} ThreadCopies;

static void freeThreadCopies(void *P) {
  ThreadCopies *T = P;
  for (size_t I = 0; I < T->N; ++I)
    free(T->Items[I].Copy);
  free(T->Items);
  free(T);
}

static pthread_mutex_t KeysMutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t *Keys;
static size_t NumKeys, CapKeys;

ORC_RT_PLATFORM_API void *__orc_rt_elfnix_tls_get_addr_impl(TLSInfoEntry *E) {
  pthread_key_t Key = (pthread_key_t)E->Key;
  uint64_t Addr = E->DataAddress;
  ThreadCopies *T = pthread_getspecific(Key);
  if (T)
    for (size_t I = 0; I < T->N; ++I)
      if (Addr - T->Items[I].Start < T->Items[I].Size)
        return T->Items[I].Copy + (Addr - T->Items[I].Start);

  uint64_t Start, Size;
  if (!orc_rt_platform_findThreadData(Addr, &Start, &Size)) {
    fprintf(stderr,
            "orc-rt-c platform: no thread-data section holds TLS "
            "address %#lx\n",
            (unsigned long)Addr);
    return NULL;
  }
  if (!T) {
    T = calloc(1, sizeof(*T));
    if (!T || pthread_setspecific(Key, T) != 0) {
      free(T);
      fprintf(stderr, "orc-rt-c platform: out of memory for thread data\n");
      return NULL;
    }
  }
  if (T->N == T->Cap) {
    size_t Cap = T->Cap ? T->Cap * 2 : 4;
    Instance *New = realloc(T->Items, Cap * sizeof(*New));
    if (!New) {
      fprintf(stderr, "orc-rt-c platform: out of memory for thread data\n");
      return NULL;
    }
    T->Items = New;
    T->Cap = Cap;
  }
  char *Copy = malloc(Size ? Size : 1);
  if (!Copy) {
    fprintf(stderr, "orc-rt-c platform: out of memory for thread data\n");
    return NULL;
  }
  memcpy(Copy, (const void *)(uintptr_t)Start, Size);
  T->Items[T->N].Start = Start;
  T->Items[T->N].Size = Size;
  T->Items[T->N].Copy = Copy;
  ++T->N;
  return Copy + (Addr - Start);
}

/* __orc_rt_elfnix_create_pthread_key: () -> SPSExpected<uint64_t>. */
ORC_RT_PLATFORM_API orc_rt_CWrapperFunctionBuffer
__orc_rt_elfnix_create_pthread_key(const char *ArgData, size_t ArgSize) {
  (void)ArgData;
  if (ArgSize != 0)
    return orc_rt_CWrapperFunctionBuffer_fromErrorMessage(
        "__orc_rt_elfnix_create_pthread_key: unexpected arguments");
  pthread_key_t Key;
  int E = pthread_key_create(&Key, freeThreadCopies);
  if (E != 0)
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_createf("pthread_key_create failed: %s", strerror(E)));
  pthread_mutex_lock(&KeysMutex);
  if (NumKeys == CapKeys) {
    size_t Cap = CapKeys ? CapKeys * 2 : 8;
    pthread_key_t *New = realloc(Keys, Cap * sizeof(*New));
    if (!New) {
      pthread_mutex_unlock(&KeysMutex);
      pthread_key_delete(Key);
      return orc_rt_SPS_expectedErrorResult(
          orc_rt_Error_create("out of memory creating a pthread key"));
    }
    Keys = New;
    CapKeys = Cap;
  }
  Keys[NumKeys++] = Key;
  pthread_mutex_unlock(&KeysMutex);
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendExpectedValueHead(&W);
  orc_rt_SPSWriter_appendU64(&W, (uint64_t)Key);
  return orc_rt_SPSWriter_finish(&W);
}

void orc_rt_platform_deleteTLSKeys(void) {
  pthread_mutex_lock(&KeysMutex);
  for (size_t I = 0; I < NumKeys; ++I) {
    /* This thread's copies can still be freed here; other threads' leak. */
    ThreadCopies *T = pthread_getspecific(Keys[I]);
    if (T)
      freeThreadCopies(T);
    pthread_key_delete(Keys[I]);
  }
  free(Keys);
  Keys = NULL;
  NumKeys = CapKeys = 0;
  pthread_mutex_unlock(&KeysMutex);
}
