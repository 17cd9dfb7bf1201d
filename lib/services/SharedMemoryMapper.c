/*===- lib/services/SharedMemoryMapper.c - Shared-memory mapper -----------===*/
/*
 * The executor half of llvm-jitlink -use-memmgr=shared: reserve creates a POSIX
 * shared-memory object, maps it here (PROT_NONE until initialize) and returns
 * its name; the controller maps the same object, writes the content, then asks
 * initialize to set protections and run the finalize actions. Deinitialize runs
 * an allocation's dealloc actions; release deinitializes a reservation's
 * allocations and unmaps it (deferred to shutdown while JIT'd code is in use,
 * as in MemoryManager.c).
 *
 * Lock guards the reservation lists; never held while running actions.
 */

#include "services/SharedMemoryMapper.h"
#include "services/AllocAction.h"
#include "services/ServiceWire.h"
#include "support/FaultInjection.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  uint64_t Base;
  orc_rt_internal_WFCallList Deallocs;
} Allocation;

typedef struct Reservation {
  uint64_t Base, Size;
  Allocation *Allocs;
  size_t NumAllocs;
  orc_rt_internal_CodeRanges Code; /* segments made executable */
  struct Reservation *Next;
} Reservation;

typedef struct {
  orc_rt_ExecutorServicesRef ES;
  pthread_mutex_t Lock;
  unsigned long Count; /* names created so far */
  Reservation *Live, *Deferred;
} SharedMemoryMapper;

/* The live mappers, for the instance a request names. */
static orc_rt_internal_InstanceSet Instances =
    ORC_RT_INTERNAL_INSTANCE_SET_INIT;

static orc_rt_ErrorRef destroyReservation(orc_rt_ExecutorServicesRef ES,
                                          Reservation *Rv,
                                          orc_rt_internal_CallMode Mode) {
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = Rv->NumAllocs; I-- > 0;)
    Err = orc_rt_Error_join(Err, orc_rt_internal_runDeallocActions(
                                     ES, &Rv->Allocs[I].Deallocs, Mode));
  if (munmap((void *)(uintptr_t)Rv->Base, (size_t)Rv->Size) != 0)
    Err = orc_rt_Error_join(Err, orc_rt_Error_create(strerror(errno)));
  free(Rv->Allocs);
  orc_rt_internal_CodeRanges_clear(&Rv->Code);
  free(Rv);
  return Err;
}

/* Instance shutdown (after the drain, or when create fails): the dealloc
 * actions run directly. */
static void shutdownInstance(void *Instance) {
  SharedMemoryMapper *SM = Instance;
  pthread_mutex_lock(&SM->Lock);
  Reservation *L[2] = {SM->Deferred, SM->Live};
  SM->Deferred = SM->Live = NULL;
  pthread_mutex_unlock(&SM->Lock);
  for (int K = 0; K < 2; ++K)
    for (Reservation *Rv = L[K], *N; Rv; Rv = N) {
      N = Rv->Next;
      orc_rt_Session_reportError(
          orc_rt_ExecutorServices_getSession(SM->ES),
          destroyReservation(SM->ES, Rv, orc_rt_internal_CallMode_AfterDrain));
    }
  pthread_mutex_destroy(&SM->Lock);
  free(SM);
}

static bool isCode(void *Instance, uint64_t Addr) {
  SharedMemoryMapper *SM = Instance;
  bool Found = false;
  pthread_mutex_lock(&SM->Lock);
  for (int K = 0; K < 2 && !Found; ++K)
    for (Reservation *Rv = K ? SM->Deferred : SM->Live; Rv && !Found;
         Rv = Rv->Next)
      Found = orc_rt_internal_CodeRanges_contain(&Rv->Code, Addr);
  pthread_mutex_unlock(&SM->Lock);
  return Found;
}

static SharedMemoryMapper *readInstance(orc_rt_SPSReader *R) {
  return orc_rt_internal_readInstance(R, &Instances);
}

/*---- Reserve: Expected<Tuple<Addr, String>>(Addr Inst, u64 Size) ----*/

static orc_rt_CWrapperFunctionBuffer reserveWrapper(const char *Data,
                                                    size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  SharedMemoryMapper *SM = readInstance(&R);
  uint64_t Bytes;
  if (!SM || !orc_rt_SPSReader_readU64(&R, &Bytes))
    return orc_rt_internal_badArgs();
  if (Bytes == 0 || Bytes > SIZE_MAX / 2)
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_create(strerror(EINVAL)));
  pthread_mutex_lock(&SM->Lock);
  unsigned long N = ++SM->Count;
  pthread_mutex_unlock(&SM->Lock);
  char Name[64];
  snprintf(Name, sizeof(Name), "/orc_rt_c_%ld_%lu", (long)getpid(), N);
  int FD = shm_open(Name, O_RDWR | O_CREAT | O_EXCL, 0700);
  if (FD < 0)
    return orc_rt_SPS_expectedErrorResult(orc_rt_Error_create(strerror(errno)));
  void *P = MAP_FAILED;
  int EC = 0;
  if (ftruncate(FD, (off_t)Bytes) != 0)
    EC = errno;
  else if ((P = orc_rt_internal_mmap(NULL, (size_t)Bytes, PROT_NONE, MAP_SHARED,
                                     FD, 0)) == MAP_FAILED)
    EC = errno;
  close(FD);
  Reservation *Rv = EC ? NULL : orc_rt_internal_calloc(1, sizeof(*Rv));
  if (!Rv) {
    /* The controller never learns the name: unlink it here. */
    shm_unlink(Name);
    if (P != MAP_FAILED)
      munmap(P, (size_t)Bytes);
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_create(strerror(EC ? EC : ENOMEM)));
  }
  Rv->Base = (uint64_t)(uintptr_t)P;
  Rv->Size = Bytes;
  pthread_mutex_lock(&SM->Lock);
  Rv->Next = SM->Live;
  SM->Live = Rv;
  pthread_mutex_unlock(&SM->Lock);
  orc_rt_SPSWriter W;
  orc_rt_SPSWriter_init(&W);
  orc_rt_SPSWriter_appendExpectedValueHead(&W);
  orc_rt_SPSWriter_appendAddr(&W, Rv->Base);
  orc_rt_SPSWriter_appendString(&W, Name);
  return orc_rt_SPSWriter_finish(&W);
}

/*---- Initialize: Expected<Addr>(Addr Inst, Addr Reservation, ----*/
/*----             SharedMemoryFinalizeRequest)                ----*/

static Reservation *findLive(SharedMemoryMapper *SM, uint64_t Base) {
  for (Reservation *Rv = SM->Live; Rv; Rv = Rv->Next)
    if (Rv->Base == Base)
      return Rv;
  return NULL;
}

static orc_rt_CWrapperFunctionBuffer initializeWrapper(const char *Data,
                                                       size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  SharedMemoryMapper *SM = readInstance(&R);
  uint64_t Base, N;
  /* A segment is u8 + addr + size = 17 bytes. */
  if (!SM || !orc_rt_SPSReader_readAddr(&R, &Base) ||
      !orc_rt_SPSReader_readCount(&R, &N, 17))
    return orc_rt_internal_badArgs();
  const char *SegData;
  if (!orc_rt_SPSReader_readRaw(&R, (size_t)N * 17, &SegData))
    return orc_rt_internal_badArgs();
  orc_rt_internal_WFCallList Fin, Dealloc;
  if (!orc_rt_internal_readActions(&R, &Fin, &Dealloc))
    return orc_rt_internal_badArgs();

  pthread_mutex_lock(&SM->Lock);
  Reservation *Rv = findLive(SM, Base);
  uint64_t RvSize = Rv ? Rv->Size : 0;
  pthread_mutex_unlock(&SM->Lock);
  orc_rt_ErrorRef Err = NULL;
  if (!Rv)
    Err = orc_rt_Error_createf("Initialize: 0x%llx is not a reservation",
                               (unsigned long long)Base);

  uint64_t MinAddr = ~0ULL;
  orc_rt_SPSReader SR;
  orc_rt_SPSReader_init(&SR, SegData, (size_t)N * 17);
  for (uint64_t I = 0; I < N && !Err; ++I) {
    uint8_t RAG;
    uint64_t Addr, SegSize;
    orc_rt_SPSReader_readU8(&SR, &RAG);
    orc_rt_SPSReader_readAddr(&SR, &Addr);
    orc_rt_SPSReader_readU64(&SR, &SegSize);
    if (Addr < Base || Addr - Base > RvSize ||
        SegSize > RvSize - (Addr - Base)) {
      Err = orc_rt_Error_createf(
          "Initialize: segment 0x%llx -- 0x%llx is outside "
          "reservation 0x%llx",
          (unsigned long long)Addr, (unsigned long long)(Addr + SegSize),
          (unsigned long long)Base);
      break;
    }
    MinAddr = Addr < MinAddr ? Addr : MinAddr;
    /* The controller reuses a reservation's ranges after deinitialize: what
     * was code there is not necessarily code now. */
    pthread_mutex_lock(&SM->Lock);
    if ((Rv = findLive(SM, Base)))
      orc_rt_internal_CodeRanges_remove(&Rv->Code, Addr, SegSize);
    pthread_mutex_unlock(&SM->Lock);
    int Prot = ((RAG & 1) ? PROT_READ : 0) | ((RAG & 2) ? PROT_WRITE : 0) |
               ((RAG & 4) ? PROT_EXEC : 0);
    if (SegSize && orc_rt_internal_mprotect((void *)(uintptr_t)Addr,
                                            (size_t)SegSize, Prot) != 0)
      Err = orc_rt_Error_create(strerror(errno));
    else if ((RAG & 4) && SegSize) {
      __builtin___clear_cache((char *)(uintptr_t)Addr,
                              (char *)(uintptr_t)(Addr + SegSize));
      /* For isCode, before the actions (they may call into it). */
      pthread_mutex_lock(&SM->Lock);
      Rv = findLive(SM, Base);
      if (Rv)
        orc_rt_internal_CodeRanges_add(&Rv->Code, Addr, SegSize);
      pthread_mutex_unlock(&SM->Lock);
    }
  }
  orc_rt_internal_WFCallList Deallocs = {NULL, 0};
  if (!Err)
    Err = orc_rt_internal_runFinalizeActions(SM->ES, &Fin, &Dealloc, &Deallocs);
  orc_rt_internal_freeViewLists(&Fin, &Dealloc);
  if (Err)
    return orc_rt_SPS_expectedErrorResult(Err);

  pthread_mutex_lock(&SM->Lock);
  Rv = findLive(SM, Base);
  Allocation *A =
      Rv ? orc_rt_internal_realloc(Rv->Allocs, (Rv->NumAllocs + 1) * sizeof(*A))
         : NULL;
  if (A) {
    Rv->Allocs = A;
    Rv->Allocs[Rv->NumAllocs++] = (Allocation){MinAddr, Deallocs};
  }
  pthread_mutex_unlock(&SM->Lock);
  if (!A)
    return orc_rt_SPS_expectedErrorResult(orc_rt_Error_join(
        orc_rt_Error_create(
            "Initialize: reservation released or out of memory"),
        orc_rt_internal_runDeallocActions(
            SM->ES, &Deallocs, orc_rt_internal_CallMode_UnderToken)));
  return orc_rt_SPS_expectedAddrResult(MinAddr);
}

/*---- Deinitialize / Release: Error(Addr Inst, Sequence<Addr>) ----*/

static orc_rt_CWrapperFunctionBuffer deinitializeWrapper(const char *Data,
                                                         size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  SharedMemoryMapper *SM = readInstance(&R);
  uint64_t *Bases = NULL;
  size_t N;
  if (!SM || !orc_rt_internal_readAddrs(&R, &Bases, &N)) {
    free(Bases);
    return orc_rt_internal_badArgs();
  }
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = N; I-- > 0;) {
    orc_rt_internal_WFCallList D = {NULL, 0};
    pthread_mutex_lock(&SM->Lock);
    for (Reservation *Rv = SM->Live; Rv; Rv = Rv->Next)
      for (size_t J = 0; J < Rv->NumAllocs; ++J)
        if (Rv->Allocs[J].Base == Bases[I]) {
          D = Rv->Allocs[J].Deallocs;
          Rv->Allocs[J] = Rv->Allocs[--Rv->NumAllocs];
          break;
        }
    pthread_mutex_unlock(&SM->Lock);
    Err = orc_rt_Error_join(
        Err, orc_rt_internal_runDeallocActions(
                 SM->ES, &D, orc_rt_internal_CallMode_UnderToken));
  }
  free(Bases);
  return orc_rt_SPS_errorResult(Err);
}

static orc_rt_CWrapperFunctionBuffer releaseWrapper(const char *Data,
                                                    size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  SharedMemoryMapper *SM = readInstance(&R);
  uint64_t *Bases = NULL;
  size_t N;
  if (!SM || !orc_rt_internal_readAddrs(&R, &Bases, &N)) {
    free(Bases);
    return orc_rt_internal_badArgs();
  }
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; I < N; ++I) {
    pthread_mutex_lock(&SM->Lock);
    Reservation **P = &SM->Live;
    while (*P && (*P)->Base != Bases[I])
      P = &(*P)->Next;
    Reservation *Rv = *P;
    bool Defer = false;
    if (Rv) {
      *P = Rv->Next;
      Defer = orc_rt_internal_ExecutorServices_isCodeInUse(SM->ES);
      if (Defer) {
        Rv->Next = SM->Deferred;
        SM->Deferred = Rv;
      }
    }
    pthread_mutex_unlock(&SM->Lock);
    if (!Rv)
      Err = orc_rt_Error_join(
          Err, orc_rt_Error_createf("Release: 0x%llx is not a reservation",
                                    (unsigned long long)Bases[I]));
    else if (!Defer)
      Err = orc_rt_Error_join(
          Err,
          destroyReservation(SM->ES, Rv, orc_rt_internal_CallMode_UnderToken));
  }
  free(Bases);
  return orc_rt_SPS_errorResult(Err);
}

/*---- The service ----*/

static const orc_rt_internal_ServiceFn Functions[] = {
    {"__llvm_orc_ExecutorSharedMemoryMapperService_Reserve", reserveWrapper},
    {"__llvm_orc_ExecutorSharedMemoryMapperService_Initialize",
     initializeWrapper},
    {"__llvm_orc_ExecutorSharedMemoryMapperService_Deinitialize",
     deinitializeWrapper},
    {"__llvm_orc_ExecutorSharedMemoryMapperService_Release", releaseWrapper},
};

static const orc_rt_internal_InstanceVTable InstanceVT = {
    &Instances, shutdownInstance, isCode};

orc_rt_ErrorRef
orc_rt_internal_addSharedMemoryMapper(orc_rt_ExecutorServicesRef ES) {
  SharedMemoryMapper *SM = orc_rt_internal_calloc(1, sizeof(*SM));
  if (!SM)
    return orc_rt_Error_create("out of memory creating executor services");
  SM->ES = ES;
  pthread_mutex_init(&SM->Lock, NULL);
  orc_rt_ErrorRef Err = orc_rt_internal_ExecutorServices_addInstance(
      ES, "__llvm_orc_ExecutorSharedMemoryMapperService_Instance", &InstanceVT,
      SM);
  return Err ? Err
             : orc_rt_internal_ExecutorServices_addFunctions(
                   ES, Functions, sizeof(Functions) / sizeof(Functions[0]));
}
