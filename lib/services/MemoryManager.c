/*===- lib/services/MemoryManager.c - SimpleExecutorMemoryManager ---------===*/
/*
 * Slabs (reserve) hold regions (initialize). A region records the dealloc
 * actions of its finalize actions; deinitialize runs them, release runs those
 * of every region of a slab and unmaps it. A release that arrives while any
 * JIT'd code is in use (orc_rt_internal_ExecutorServices_isCodeInUse) moves
 * the slab to a deferred list instead; the instance's shutdown (after the
 * managed-code drain) releases those and every slab left.
 *
 * Lock guards the slab lists and region tables; it is never held while running
 * an action, copying segment content or changing protections. An initialize
 * claims its range with a Pending region first, so a concurrent overlapping
 * initialize fails and a concurrent release of the slab is noticed when the
 * region is committed.
 */

#include "services/MemoryManager.h"
#include "services/AllocAction.h"
#include "services/ServiceWire.h"
#include "support/FaultInjection.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  uint64_t Start, End;
  bool Pending; /* initialize in progress */
  orc_rt_internal_WFCallList Deallocs;
  orc_rt_internal_CodeRanges Code; /* its segments made executable */
} Region;

typedef struct Slab {
  uint64_t Base, Size; /* Size as requested: the range regions must lie in */
  size_t MappedSize;   /* page-rounded */
  Region *Regions;
  size_t NumRegions;
  struct Slab *Next;
} Slab;

typedef struct {
  orc_rt_ExecutorServicesRef ES;
  pthread_mutex_t Lock;
  Slab *Slabs; /* reserved, not released */
  Slab *
      Deferred; /* released while JIT'd code was in use: unmapped at shutdown */
} MemoryManager;

/* The live memory managers, for the instance a request names. */
static orc_rt_internal_InstanceSet Instances =
    ORC_RT_INTERNAL_INSTANCE_SET_INIT;

static size_t pageSize(void) {
  long P = sysconf(_SC_PAGESIZE);
  return P > 0 ? (size_t)P : 4096;
}

/* Runs the dealloc actions of every region of Sl (in reverse order overall),
 * unmaps it and frees it. */
static orc_rt_ErrorRef destroySlab(orc_rt_ExecutorServicesRef ES, Slab *Sl,
                                   orc_rt_internal_CallMode Mode) {
  /* Newest region first, each region's actions newest first: the reverse of
   * the order they were finalized in. Nothing is allocated on the way, so
   * running out of memory cannot skip a dealloc action. */
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = Sl->NumRegions; I-- > 0;)
    Err = orc_rt_Error_join(Err, orc_rt_internal_runDeallocActions(
                                     ES, &Sl->Regions[I].Deallocs, Mode));
  for (size_t I = 0; I < Sl->NumRegions; ++I)
    orc_rt_internal_CodeRanges_clear(&Sl->Regions[I].Code);
  if (munmap((void *)(uintptr_t)Sl->Base, Sl->MappedSize) != 0)
    Err = orc_rt_Error_join(Err, orc_rt_Error_create(strerror(errno)));
  free(Sl->Regions);
  free(Sl);
  return Err;
}

/* Instance shutdown (after the drain, or when create fails). */
static void shutdownInstance(void *Instance) {
  MemoryManager *MM = Instance;
  pthread_mutex_lock(&MM->Lock);
  Slab *L[2] = {MM->Deferred, MM->Slabs};
  MM->Deferred = MM->Slabs = NULL;
  pthread_mutex_unlock(&MM->Lock);
  /* After the drain: no JIT'd code runs, and tokens are no longer granted, so
   * the dealloc actions run directly. */
  for (int K = 0; K < 2; ++K)
    for (Slab *Sl = L[K], *N; Sl; Sl = N) {
      N = Sl->Next;
      orc_rt_Session_reportError(
          orc_rt_ExecutorServices_getSession(MM->ES),
          destroySlab(MM->ES, Sl, orc_rt_internal_CallMode_AfterDrain));
    }
  pthread_mutex_destroy(&MM->Lock);
  free(MM);
}

static bool isCode(void *Instance, uint64_t Addr) {
  MemoryManager *MM = Instance;
  bool Found = false;
  pthread_mutex_lock(&MM->Lock);
  for (int K = 0; K < 2 && !Found; ++K)
    for (Slab *Sl = K ? MM->Deferred : MM->Slabs; Sl && !Found; Sl = Sl->Next)
      if (Addr >= Sl->Base && Addr - Sl->Base < Sl->MappedSize)
        for (size_t I = 0; I < Sl->NumRegions && !Found; ++I)
          Found =
              orc_rt_internal_CodeRanges_contain(&Sl->Regions[I].Code, Addr);
  pthread_mutex_unlock(&MM->Lock);
  return Found;
}

/* Lock held. The live slab containing [Start, End), or NULL. */
static Slab *findSlab(MemoryManager *MM, uint64_t Start, uint64_t End) {
  for (Slab *Sl = MM->Slabs; Sl; Sl = Sl->Next)
    if (Start >= Sl->Base && End >= Start && End - Sl->Base <= Sl->Size &&
        Start - Sl->Base < Sl->Size)
      return Sl;
  return NULL;
}

static MemoryManager *readInstance(orc_rt_SPSReader *R) {
  return orc_rt_internal_readInstance(R, &Instances);
}

/*---- reserve: Expected<Addr>(Addr Inst, u64 Size) ----*/

static orc_rt_CWrapperFunctionBuffer reserveWrapper(const char *Data,
                                                    size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  MemoryManager *MM = readInstance(&R);
  uint64_t Bytes;
  if (!MM || !orc_rt_SPSReader_readU64(&R, &Bytes))
    return orc_rt_internal_badArgs();
  if (Bytes == 0)
    return orc_rt_SPS_expectedAddrResult(0); /* lli relies on reserve(0) = 0 */
  size_t PS = pageSize();
  if (Bytes > SIZE_MAX - PS)
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_create(strerror(ENOMEM)));
  size_t Mapped = (size_t)((Bytes + PS - 1) / PS * PS);
  void *P = orc_rt_internal_mmap(NULL, Mapped, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (P == MAP_FAILED)
    return orc_rt_SPS_expectedErrorResult(orc_rt_Error_create(strerror(errno)));
  Slab *Sl = orc_rt_internal_calloc(1, sizeof(*Sl));
  if (!Sl) {
    munmap(P, Mapped);
    return orc_rt_SPS_expectedErrorResult(
        orc_rt_Error_create(strerror(ENOMEM)));
  }
  Sl->Base = (uint64_t)(uintptr_t)P;
  Sl->Size = Bytes;
  Sl->MappedSize = Mapped;
  pthread_mutex_lock(&MM->Lock);
  Sl->Next = MM->Slabs;
  MM->Slabs = Sl;
  pthread_mutex_unlock(&MM->Lock);
  return orc_rt_SPS_expectedAddrResult(Sl->Base);
}

/*---- initialize: Expected<Addr>(Addr Inst, FinalizeRequest) ----*/

typedef struct {
  uint8_t RAG;
  uint64_t Addr, Size;
  const char *Content;
  size_t ContentSize;
} Segment;

static int toProt(uint8_t RAG) {
  return ((RAG & 1) ? PROT_READ : 0) | ((RAG & 2) ? PROT_WRITE : 0) |
         ((RAG & 4) ? PROT_EXEC : 0);
}

/* mprotect over the pages touching [Addr, Addr+Size). */
static int protect(uint64_t Addr, uint64_t Size, int Prot) {
  if (Size == 0)
    return 0;
  uint64_t PS = pageSize();
  uint64_t Start = Addr / PS * PS, End = (Addr + Size + PS - 1) / PS * PS;
  return orc_rt_internal_mprotect((void *)(uintptr_t)Start,
                                  (size_t)(End - Start), Prot);
}

/* Lock held. Claims [Start, End) in Sl, or returns the
 * reference's overlap error. */
static orc_rt_ErrorRef claimRegion(Slab *Sl, uint64_t Start, uint64_t End) {
  for (size_t I = 0; I < Sl->NumRegions; ++I) {
    Region *Rg = &Sl->Regions[I];
    if (Rg->Start < End && Start < Rg->End)
      return orc_rt_Error_createf(
          "In initialize, region 0x%llx -- 0x%llx overlaps %s region 0x%llx -- "
          "0x%llx",
          (unsigned long long)Start, (unsigned long long)End,
          Rg->Start <= Start ? "previous" : "following",
          (unsigned long long)Rg->Start, (unsigned long long)Rg->End);
  }
  Region *N =
      orc_rt_internal_realloc(Sl->Regions, (Sl->NumRegions + 1) * sizeof(*N));
  if (!N)
    return orc_rt_Error_create("out of memory in initialize");
  Sl->Regions = N;
  Sl->Regions[Sl->NumRegions++] =
      (Region){Start, End, true, {NULL, 0}, {NULL, 0}};
  return NULL;
}

/* Lock held. The region of the live slab containing Start that
 * starts at Start. */
static Region *findRegion(MemoryManager *MM, uint64_t Start, Slab **Out) {
  Slab *Sl = findSlab(MM, Start, Start);
  if (Out)
    *Out = Sl;
  if (!Sl)
    return NULL;
  for (size_t I = 0; I < Sl->NumRegions; ++I)
    if (Sl->Regions[I].Start == Start)
      return &Sl->Regions[I];
  return NULL;
}

static void dropRegion(MemoryManager *MM, uint64_t Start) {
  pthread_mutex_lock(&MM->Lock);
  Slab *Sl;
  Region *Rg = findRegion(MM, Start, &Sl);
  if (Rg && Rg->Pending) {
    orc_rt_internal_CodeRanges_clear(&Rg->Code);
    *Rg = Sl->Regions[--Sl->NumRegions];
  }
  pthread_mutex_unlock(&MM->Lock);
}

/* Records (or, with Forget, drops) the executable segments of the pending
 * region at Start, for isCode. Segments that cannot be recorded are found
 * through the process map instead. */
static void recordCode(MemoryManager *MM, uint64_t Start, const Segment *Segs,
                       size_t NumSegs, bool Forget) {
  pthread_mutex_lock(&MM->Lock);
  Region *Rg = findRegion(MM, Start, NULL);
  if (Rg && Forget)
    orc_rt_internal_CodeRanges_clear(&Rg->Code);
  for (size_t I = 0; Rg && !Forget && I < NumSegs; ++I)
    if ((Segs[I].RAG & 4) && Segs[I].Size)
      orc_rt_internal_CodeRanges_add(&Rg->Code, Segs[I].Addr, Segs[I].Size);
  pthread_mutex_unlock(&MM->Lock);
}

static orc_rt_ErrorRef initialize(MemoryManager *MM, Segment *Segs,
                                  size_t NumSegs,
                                  orc_rt_internal_WFCallList *Fin,
                                  orc_rt_internal_WFCallList *DeallocViews,
                                  uint64_t *Key) {
  if (NumSegs == 0)
    return orc_rt_Error_create(Fin->Size
                                   ? "Finalization actions attached to empty "
                                     "finalization request"
                                   : "Finalization request is empty");
  uint64_t Start = Segs[0].Addr, End = Segs[0].Addr;
  for (size_t I = 0; I < NumSegs; ++I) {
    Segment *S = &Segs[I];
    if (S->Size < S->ContentSize)
      return orc_rt_Error_createf(
          "Segment 0x%llx content size (0x%llx bytes) exceeds "
          "segment size (0x%llx bytes)",
          (unsigned long long)S->Addr, (unsigned long long)S->ContentSize,
          (unsigned long long)S->Size);
    if (S->Addr + S->Size < S->Addr)
      return orc_rt_Error_createf("Segment 0x%llx size 0x%llx wraps around",
                                  (unsigned long long)S->Addr,
                                  (unsigned long long)S->Size);
    Start = S->Addr < Start ? S->Addr : Start;
    End = S->Addr + S->Size > End ? S->Addr + S->Size : End;
  }

  pthread_mutex_lock(&MM->Lock);
  Slab *Sl = findSlab(MM, Start, End);
  orc_rt_ErrorRef Err =
      Sl ? claimRegion(Sl, Start, End)
         : orc_rt_Error_createf(
               "In initialize, range 0x%llx -- 0x%llx is not part of any "
               "reserved address range",
               (unsigned long long)Start, (unsigned long long)End);
  pthread_mutex_unlock(&MM->Lock);
  if (Err)
    return Err;

  /* The range is ours now; write it without the lock. */
  size_t Done = 0;
  for (; Done < NumSegs && !Err; ++Done) {
    Segment *S = &Segs[Done];
    char *Mem = (char *)(uintptr_t)S->Addr;
    if (protect(S->Addr, S->Size, PROT_READ | PROT_WRITE) != 0) {
      Err = orc_rt_Error_create(strerror(errno));
      break;
    }
    if (S->ContentSize)
      memcpy(Mem, S->Content, S->ContentSize);
    memset(Mem + S->ContentSize, 0, (size_t)(S->Size - S->ContentSize));
    if (protect(S->Addr, S->Size, toProt(S->RAG)) != 0)
      Err = orc_rt_Error_create(strerror(errno));
    else if (S->RAG & 4)
      __builtin___clear_cache(Mem, Mem + S->Size);
  }

  orc_rt_internal_WFCallList Deallocs = {NULL, 0};
  if (!Err) {
    /* Before the actions: they may call code in these very segments. */
    recordCode(MM, Start, Segs, NumSegs, false);
    Err = orc_rt_internal_runFinalizeActions(MM->ES, Fin, DeallocViews,
                                             &Deallocs);
  }
  if (Err) {
    recordCode(MM, Start, Segs, NumSegs, true);
    for (size_t I = 0; I < Done; ++I)
      protect(Segs[I].Addr, Segs[I].Size, PROT_READ | PROT_WRITE);
    dropRegion(MM, Start);
    return Err;
  }

  pthread_mutex_lock(&MM->Lock);
  Region *Rg = findRegion(MM, Start, NULL);
  if (Rg && Rg->Pending) {
    Rg->Pending = false;
    Rg->Deallocs = Deallocs;
  }
  pthread_mutex_unlock(&MM->Lock);
  if (!Rg)
    return orc_rt_Error_join(
        orc_rt_Error_createf(
            "In initialize, range 0x%llx -- 0x%llx was released while "
            "being initialized",
            (unsigned long long)Start, (unsigned long long)End),
        orc_rt_internal_runDeallocActions(MM->ES, &Deallocs,
                                          orc_rt_internal_CallMode_UnderToken));
  *Key = Start;
  return NULL;
}

static orc_rt_CWrapperFunctionBuffer initializeWrapper(const char *Data,
                                                       size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  MemoryManager *MM = readInstance(&R);
  uint64_t N;
  /* A segment is at least u8 + addr + size + empty content = 25 bytes. */
  if (!MM || !orc_rt_SPSReader_readCount(&R, &N, 25))
    return orc_rt_internal_badArgs();
  Segment *Segs = orc_rt_internal_calloc(N ? (size_t)N : 1, sizeof(Segment));
  if (!Segs)
    return orc_rt_SPS_expectedErrorResult(orc_rt_Error_create("out of memory"));
  for (uint64_t I = 0; I < N; ++I) {
    Segment *S = &Segs[I];
    orc_rt_SPSReader_readU8(&R, &S->RAG);
    orc_rt_SPSReader_readAddr(&R, &S->Addr);
    orc_rt_SPSReader_readU64(&R, &S->Size);
    orc_rt_SPSReader_readBytes(&R, &S->Content, &S->ContentSize);
  }
  orc_rt_internal_WFCallList Fin, Dealloc;
  if (R.Failed || !orc_rt_internal_readActions(&R, &Fin, &Dealloc)) {
    free(Segs);
    return orc_rt_internal_badArgs();
  }
  uint64_t Key = 0;
  orc_rt_ErrorRef Err = initialize(MM, Segs, (size_t)N, &Fin, &Dealloc, &Key);
  orc_rt_internal_freeViewLists(&Fin, &Dealloc);
  free(Segs);
  return Err ? orc_rt_SPS_expectedErrorResult(Err)
             : orc_rt_SPS_expectedAddrResult(Key);
}

/*---- deinitialize / release: Error(Addr Inst, Sequence<Addr>) ----*/

static orc_rt_CWrapperFunctionBuffer deinitializeWrapper(const char *Data,
                                                         size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  MemoryManager *MM = readInstance(&R);
  uint64_t *Keys = NULL;
  size_t N;
  if (!MM || !orc_rt_internal_readAddrs(&R, &Keys, &N)) {
    free(Keys);
    return orc_rt_internal_badArgs();
  }
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = N; I-- > 0;) {
    orc_rt_internal_WFCallList D = {NULL, 0};
    orc_rt_ErrorRef E = NULL;
    pthread_mutex_lock(&MM->Lock);
    Slab *Sl;
    Region *Rg = findRegion(MM, Keys[I], &Sl);
    if (!Sl)
      E = orc_rt_Error_createf(
          "In deinitialize, address 0x%llx is not part of any "
          "reserved address range",
          (unsigned long long)Keys[I]);
    else if (!Rg || Rg->Pending)
      E = orc_rt_Error_createf(
          "In deinitialize, address 0x%llx does not correspond to "
          "the start of any initialized region",
          (unsigned long long)Keys[I]);
    else {
      /* The region stays; a second deinitialize finds nothing to run. */
      D = Rg->Deallocs;
      Rg->Deallocs = (orc_rt_internal_WFCallList){NULL, 0};
    }
    pthread_mutex_unlock(&MM->Lock);
    if (!E)
      E = orc_rt_internal_runDeallocActions(
          MM->ES, &D, orc_rt_internal_CallMode_UnderToken);
    Err = orc_rt_Error_join(Err, E);
  }
  free(Keys);
  return orc_rt_SPS_errorResult(Err);
}

static orc_rt_CWrapperFunctionBuffer releaseWrapper(const char *Data,
                                                    size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  MemoryManager *MM = readInstance(&R);
  uint64_t *Bases = NULL;
  size_t N;
  if (!MM || !orc_rt_internal_readAddrs(&R, &Bases, &N)) {
    free(Bases);
    return orc_rt_internal_badArgs();
  }
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = N; I-- > 0;) {
    pthread_mutex_lock(&MM->Lock);
    Slab **P = &MM->Slabs;
    while (*P && (*P)->Base != Bases[I])
      P = &(*P)->Next;
    Slab *Sl = *P;
    bool Defer = false;
    if (Sl) {
      *P = Sl->Next;
      /* JIT'd code may still run from this slab: keep it mapped
       * until the drain. */
      Defer = orc_rt_internal_ExecutorServices_isCodeInUse(MM->ES);
      if (Defer) {
        /* Appended, so shutdown destroys deferred slabs in the order release
         * asked for them (newest first): a newer slab's dealloc actions may
         * call code in an older one (an ORC platform runtime's deregister
         * functions), which must still be mapped then. */
        Slab **Tail = &MM->Deferred;
        while (*Tail)
          Tail = &(*Tail)->Next;
        Sl->Next = NULL;
        *Tail = Sl;
      }
    }
    pthread_mutex_unlock(&MM->Lock);
    if (!Sl)
      Err = orc_rt_Error_join(
          Err,
          orc_rt_Error_createf("In release, 0x%llx is not part of any reserved "
                               "address range",
                               (unsigned long long)Bases[I]));
    else if (!Defer)
      Err = orc_rt_Error_join(
          Err, destroySlab(MM->ES, Sl, orc_rt_internal_CallMode_UnderToken));
  }
  free(Bases);
  return orc_rt_SPS_errorResult(Err);
}

/*---- The service ----*/

static const orc_rt_internal_ServiceFn Functions[] = {
    {"__llvm_orc_SimpleExecutorMemoryManager_reserve_wrapper", reserveWrapper},
    {"__llvm_orc_SimpleExecutorMemoryManager_initialize_wrapper",
     initializeWrapper},
    {"__llvm_orc_SimpleExecutorMemoryManager_deinitialize_wrapper",
     deinitializeWrapper},
    {"__llvm_orc_SimpleExecutorMemoryManager_release_wrapper", releaseWrapper},
};

static const orc_rt_internal_InstanceVTable InstanceVT = {
    &Instances, shutdownInstance, isCode};

orc_rt_ErrorRef
orc_rt_internal_addMemoryManager(orc_rt_ExecutorServicesRef ES) {
  MemoryManager *MM = orc_rt_internal_calloc(1, sizeof(*MM));
  if (!MM)
    return orc_rt_Error_create("out of memory creating executor services");
  MM->ES = ES;
  pthread_mutex_init(&MM->Lock, NULL);
  orc_rt_ErrorRef Err = orc_rt_internal_ExecutorServices_addInstance(
      ES, "__llvm_orc_SimpleExecutorMemoryManager_Instance", &InstanceVT, MM);
  return Err ? Err
             : orc_rt_internal_ExecutorServices_addFunctions(
                   ES, Functions, sizeof(Functions) / sizeof(Functions[0]));
}
