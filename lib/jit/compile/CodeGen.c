/*===- lib/jit/compile/CodeGen.c - Compiling a module on several threads --===*/

#include "jit/compile/CodeGen.h"
#include "jit/ir/PreemptibleDeclarations.h"
#include "jit/ir/SplitSupport.h"
#include "jit/support/LibcPthread.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Comdat.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Below this many instructions per part, cutting costs more than it saves
 * (the bitcode copy and a context per part are paid up front). */
#define MIN_PART_INSTRUCTIONS 20000
#define MAX_PARTS 64

void orc_rt_jit_ObjectList_dispose(orc_rt_jit_ObjectList *L) {
  for (size_t I = 0; I < L->Size; ++I)
    LLVMDisposeMemoryBuffer(L->Items[I]);
  free(L->Items);
  L->Items = NULL;
  L->Size = 0;
}

static orc_rt_ErrorRef emit(LLVMTargetMachineRef TM, LLVMModuleRef M,
                            LLVMMemoryBufferRef *Obj) {
  if (!TM)
    return orc_rt_Error_create("cannot create a target machine");
  char *Msg = NULL;
  orc_rt_ErrorRef E = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(TM, M, LLVMObjectFile, &Msg, Obj)) {
    E = orc_rt_Error_createf("cannot compile the module: %s",
                             Msg ? Msg : "unknown error");
    *Obj = NULL;
  } else {
    /* The object is named for its module, as ORC names an IR module's unit:
     * link errors then say where ("In b.ll, duplicate definition of ..."),
     * not "In , ...". */
    size_t Len;
    const char *Name = LLVMGetModuleIdentifier(M, &Len);
    LLVMMemoryBufferRef Named =
        Len ? LLVMCreateMemoryBufferWithMemoryRangeCopy(
                  LLVMGetBufferStart(*Obj), LLVMGetBufferSize(*Obj), Name)
            : NULL;
    if (Named) {
      LLVMDisposeMemoryBuffer(*Obj);
      *Obj = Named;
    }
  }
  LLVMDisposeMessage(Msg);
  return E;
}

/*---- Cutting ----*/

static size_t countInstructions(LLVMValueRef F) {
  size_t N = 0;
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB;
       BB = LLVMGetNextBasicBlock(BB))
    for (LLVMValueRef I = LLVMGetFirstInstruction(BB); I;
         I = LLVMGetNextInstruction(I))
      ++N;
  return N;
}

/* A body that some part compiles (not a declaration, an intrinsic, or an
 * available_externally copy, which no part emits). */
static bool isCutBody(LLVMValueRef F) {
  return !LLVMIsDeclaration(F) &&
         LLVMGetLinkage(F) != LLVMAvailableExternallyLinkage;
}

typedef struct {
  LLVMValueRef F;
  size_t Index;
} FnIndex;

static int compareFn(const void *A, const void *B) {
  uintptr_t X = (uintptr_t)((const FnIndex *)A)->F;
  uintptr_t Y = (uintptr_t)((const FnIndex *)B)->F;
  return X < Y ? -1 : X > Y;
}

static const FnIndex *findFn(const FnIndex *Fns, size_t N, LLVMValueRef F) {
  FnIndex Key = {F, 0};
  return bsearch(&Key, Fns, N, sizeof(Key), compareFn);
}

/* Functions named in V (an alias's aliasee that is not simply a function: a
 * constant expression over functions and variables) go to part 0, with the
 * alias and the variables. */
static void pinFunctionsIn(LLVMValueRef V, const FnIndex *Fns, size_t NumFns,
                           uint8_t *Part, unsigned Depth) {
  const FnIndex *Found = LLVMIsAFunction(V) ? findFn(Fns, NumFns, V) : NULL;
  if (Found)
    Part[Found->Index] = 0;
  else if (Depth < 4 && LLVMIsAConstantExpr(V))
    for (int K = 0, N = LLVMGetNumOperands(V); K < N; ++K)
      pinFunctionsIn(LLVMGetOperand(V, K), Fns, NumFns, Part, Depth + 1);
}

/* Chooses a part for every function (Part[i] for the i-th function of M) and
 * every alias (AliasPart[i] for the i-th alias): greedy least-loaded in module
 * order, which keeps related code together and ends within one function of
 * even. An alias of a function goes where the function goes; any other alias
 * goes to part 0 with what it names. */
static bool assignParts(LLVMModuleRef M, unsigned NumParts, bool DataApart,
                        size_t NumFns, const size_t *Weight, uint8_t *Part,
                        uint8_t **AliasPart) {
  /* Parts other than 0 first read the module back from bitcode: count that
   * as a head start of about 1/20 of the work. */
  size_t Load[MAX_PARTS] = {0}, Total = 0;
  for (size_t K = 0; K < NumFns; ++K)
    Total += Weight[K];
  for (unsigned K = 1; K < NumParts; ++K)
    Load[K] = Total / 20;
  size_t I = 0, NumAliases = 0;
  FnIndex *Fns = malloc((NumFns ? NumFns : 1) * sizeof(*Fns));
  for (LLVMValueRef A = LLVMGetFirstGlobalAlias(M); A;
       A = LLVMGetNextGlobalAlias(A))
    ++NumAliases;
  *AliasPart = calloc(NumAliases ? NumAliases : 1, 1);
  if (!Fns || !*AliasPart) {
    free(Fns);
    return false;
  }
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F), ++I) {
    Fns[I] = (FnIndex){F, I};
    Part[I] = 0;
    if (!isCutBody(F))
      continue;
    bool Pinned = LLVMGetComdat(F) || orc_rt_jit_hasBlockAddress(F);
    unsigned Best = DataApart && !Pinned ? 1 : 0;
    for (unsigned K = Best + 1; !Pinned && K < NumParts; ++K)
      if (Load[K] < Load[Best])
        Best = K;
    Part[I] = (uint8_t)Best;
    Load[Best] += Weight[I];
  }
  qsort(Fns, NumFns, sizeof(*Fns), compareFn);
  I = 0;
  for (LLVMValueRef A = LLVMGetFirstGlobalAlias(M); A;
       A = LLVMGetNextGlobalAlias(A), ++I) {
    LLVMValueRef Aliasee = LLVMAliasGetAliasee(A);
    const FnIndex *Found =
        LLVMIsAFunction(Aliasee) ? findFn(Fns, NumFns, Aliasee) : NULL;
    if (Found)
      (*AliasPart)[I] = Part[Found->Index];
    else
      pinFunctionsIn(Aliasee, Fns, NumFns, Part, 0);
  }
  free(Fns);
  return true;
}

/* Replaces alias A in a part that does not define it: its uses go to a
 * declaration of the same name (part 0 defines it), and A itself, which the
 * C API cannot delete, becomes an unused internal alias of a byte. */
static void retireAlias(LLVMModuleRef M, LLVMValueRef A, LLVMValueRef Byte) {
  LLVMTypeRef VT = LLVMGlobalGetValueType(A);
  LLVMValueRef D = LLVMGetTypeKind(VT) == LLVMFunctionTypeKind
                       ? LLVMAddFunction(M, "", VT)
                       : LLVMAddGlobal(M, VT, "");
  LLVMReplaceAllUsesWith(A, D);
  size_t Len;
  const char *Name = LLVMGetValueName2(A, &Len);
  char *Copy = strndup(Name, Len);
  LLVMSetValueName2(A, "", 0);
  LLVMAliasSetAliasee(A, Byte);
  LLVMSetLinkage(A, LLVMPrivateLinkage);
  if (Copy)
    LLVMSetValueName2(D, Copy, Len);
  free(Copy);
}

/* Keeps in M (the cut module or a copy of it) what part P compiles. */
static void keepPart(LLVMModuleRef M, const uint8_t *Part,
                     const uint8_t *AliasPart, unsigned P) {
  size_t I = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F), ++I)
    if (isCutBody(F) && Part[I] != P)
      orc_rt_jit_dropBody(F);
  /* Variables live in part 0; other parts declare them. Appending arrays
   * (llvm.used and the like) are part 0's alone. */
  for (LLVMValueRef G = LLVMGetFirstGlobal(M), Next; P && G; G = Next) {
    Next = LLVMGetNextGlobal(G);
    if (LLVMGetLinkage(G) == LLVMAppendingLinkage)
      LLVMDeleteGlobal(G);
    else if (!LLVMIsDeclaration(G))
      orc_rt_jit_dropInitializer(G);
  }
  LLVMValueRef Byte = NULL;
  I = 0;
  for (LLVMValueRef A = LLVMGetFirstGlobalAlias(M); A;
       A = LLVMGetNextGlobalAlias(A), ++I) {
    if (AliasPart[I] == P)
      continue;
    if (!Byte) {
      LLVMTypeRef I8 = LLVMInt8TypeInContext(LLVMGetModuleContext(M));
      Byte = LLVMAddGlobal(M, I8, "");
      LLVMSetInitializer(Byte, LLVMConstNull(I8));
      LLVMSetLinkage(Byte, LLVMPrivateLinkage);
    }
    retireAlias(M, A, Byte);
  }
}

/* keepPart, and then, if Preemptible, every declaration of the part is made
 * preemptible: the module's own, and what the part only declares (the other
 * parts' bodies and variables, promoted locals included, which stay
 * dso_local), since the parts are linked apart, maybe out of a 32-bit reach
 * of each other (ir/PreemptibleDeclarations.h). */
static orc_rt_ErrorRef cutPart(LLVMModuleRef M, const uint8_t *Part,
                               const uint8_t *AliasPart, unsigned P,
                               bool Preemptible) {
  keepPart(M, Part, AliasPart, P);
  return Preemptible ? orc_rt_jit_makeDeclarationsPreemptible(M) : NULL;
}

/*---- Compiling the parts ----*/

typedef struct {
  /* In */
  LLVMMemoryBufferRef Bitcode; /* shared, read-only */
  const uint8_t *Part, *AliasPart;
  size_t NumFns;
  unsigned P;
  bool Preemptible;
  orc_rt_jit_TargetMachineFactory NewTM;
  void *TMCtx;
  /* Out */
  LLVMMemoryBufferRef Obj;
  orc_rt_ErrorRef Err;
} Job;

static void *compilePart(void *Arg) {
  Job *J = Arg;
  LLVMContextRef Ctx = LLVMContextCreate();
  LLVMMemoryBufferRef View = LLVMCreateMemoryBufferWithMemoryRange(
      LLVMGetBufferStart(J->Bitcode), LLVMGetBufferSize(J->Bitcode),
      "mini-lli-part", 0);
  LLVMModuleRef M = NULL;
  if (LLVMParseBitcodeInContext2(Ctx, View, &M)) {
    J->Err = orc_rt_Error_create("cannot read back a part of the module");
  } else {
    size_t N = 0;
    for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
         F = LLVMGetNextFunction(F))
      ++N;
    if (N != J->NumFns) {
      J->Err = orc_rt_Error_create("a part of the module lost functions");
    } else {
      J->Err = cutPart(M, J->Part, J->AliasPart, J->P, J->Preemptible);
      if (!J->Err) {
        LLVMTargetMachineRef TM = J->NewTM(J->TMCtx);
        J->Err = emit(TM, M, &J->Obj);
        if (TM)
          LLVMDisposeTargetMachine(TM);
      }
    }
    LLVMDisposeModule(M);
  }
  LLVMDisposeMemoryBuffer(View);
  LLVMContextDispose(Ctx);
  return NULL;
}

static orc_rt_ErrorRef compileWhole(LLVMModuleRef M, bool Preemptible,
                                    LLVMTargetMachineRef TM,
                                    orc_rt_jit_ObjectList *Out) {
  Out->Items = calloc(1, sizeof(LLVMMemoryBufferRef));
  if (!Out->Items)
    return orc_rt_Error_create("out of memory");
  orc_rt_ErrorRef E =
      Preemptible ? orc_rt_jit_makeDeclarationsPreemptible(M) : NULL;
  if (!E)
    E = emit(TM, M, &Out->Items[0]);
  Out->Size = E ? 0 : 1;
  return E;
}

static bool splittable(LLVMModuleRef M) { return !LLVMGetFirstGlobalIFunc(M); }

orc_rt_ErrorRef orc_rt_jit_compileModule(LLVMModuleRef M, unsigned ModuleIndex,
                                         unsigned Threads, bool DataApart,
                                         bool Preemptible,
                                         LLVMTargetMachineRef MainTM,
                                         orc_rt_jit_TargetMachineFactory NewTM,
                                         void *TMCtx,
                                         orc_rt_jit_ObjectList *Out) {
  Out->Items = NULL;
  Out->Size = 0;
  size_t NumFns = 0, Total = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    ++NumFns;
  unsigned NumParts = Threads > MAX_PARTS ? MAX_PARTS : Threads;
  if (DataApart && NumParts < 2)
    NumParts = 2;
  if (NumParts < 2 || !splittable(M))
    return compileWhole(M, Preemptible, MainTM, Out);

  size_t *Weight = calloc(NumFns ? NumFns : 1, sizeof(*Weight));
  uint8_t *Part = calloc(NumFns ? NumFns : 1, 1), *AliasPart = NULL;
  Job *Jobs = calloc(NumParts, sizeof(*Jobs));
  pthread_t *Tids = calloc(NumParts, sizeof(*Tids));
  Out->Items = calloc(NumParts, sizeof(LLVMMemoryBufferRef));
  if (!Weight || !Part || !Jobs || !Tids || !Out->Items) {
    free(Weight);
    free(Part);
    free(Jobs);
    free(Tids);
    free(Out->Items);
    Out->Items = NULL;
    return orc_rt_Error_create("out of memory");
  }
  size_t I = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F), ++I)
    Total += Weight[I] = isCutBody(F) ? countInstructions(F) : 0;
  if (Total / MIN_PART_INSTRUCTIONS < NumParts)
    NumParts = (unsigned)(Total / MIN_PART_INSTRUCTIONS);
  if (DataApart && NumParts < 2)
    NumParts = 2;

  orc_rt_ErrorRef Err = NULL;
  if (NumParts < 2) {
    free(Out->Items); /* compileWhole makes its own */
    Err = compileWhole(M, Preemptible, MainTM, Out);
  } else {
    orc_rt_jit_promoteLocals(M, ModuleIndex);
    LLVMMemoryBufferRef Bitcode =
        assignParts(M, NumParts, DataApart, NumFns, Weight, Part, &AliasPart)
            ? LLVMWriteBitcodeToMemoryBuffer(M)
            : NULL;
    const Job Each = {.Bitcode = Bitcode,
                      .Part = Part,
                      .AliasPart = AliasPart,
                      .NumFns = NumFns,
                      .Preemptible = Preemptible,
                      .NewTM = NewTM,
                      .TMCtx = TMCtx};
    unsigned Started = 1;
    for (unsigned P = 1; P < NumParts && Bitcode; ++P, ++Started) {
      Jobs[P] = Each;
      Jobs[P].P = P;
      /* The driver's own thread: not one of the program's. */
      if (orc_rt_jit_realPthreadCreate(&Tids[P], NULL, compilePart, &Jobs[P]))
        break;
    }
    /* Whatever did not get a thread of its own is compiled here, after
     * part 0 (the threads read Bitcode, never M). */
    if (Bitcode) {
      Jobs[0].Err = cutPart(M, Part, AliasPart, 0, Preemptible);
      if (!Jobs[0].Err)
        Jobs[0].Err = emit(MainTM, M, &Jobs[0].Obj);
    } else {
      Jobs[0].Err = orc_rt_Error_create("out of memory");
    }
    for (unsigned P = Started; P < NumParts && Bitcode; ++P) {
      Jobs[P] = Each;
      Jobs[P].P = P;
      compilePart(&Jobs[P]);
    }
    for (unsigned P = 1; P < Started; ++P)
      orc_rt_jit_realPthreadJoin(Tids[P], NULL);
    for (unsigned P = 0; P < NumParts; ++P) {
      Err = orc_rt_Error_join(Err, Jobs[P].Err);
      if (Jobs[P].Obj)
        Out->Items[Out->Size++] = Jobs[P].Obj;
    }
    if (Bitcode)
      LLVMDisposeMemoryBuffer(Bitcode);
  }
  if (Err)
    orc_rt_jit_ObjectList_dispose(Out);
  free(Weight);
  free(Part);
  free(AliasPart);
  free(Jobs);
  free(Tids);
  return Err;
}
