/*===- lib/jit/program/Jit.c - The program's LLJIT ------------------------===*/

#include "jit/program/Jit.h"
#include "jit/compile/CallOnceGuard.h"
#include "jit/compile/CodeGen.h"
#include "jit/compile/EagerLink.h"
#include "jit/compile/LazySplit.h"
#include "jit/compile/LinkInputs.h"
#include "jit/compile/SerialCompile.h"
#include "jit/compile/SymbolImport.h"
#include "jit/interpreter/InterpreterEngine.h"
#include "jit/ir/EmuTLS.h"
#include "jit/ir/FastISelLowering.h"
#include "jit/ir/OptNone.h"
#include "jit/ir/PreemptibleDeclarations.h"
#include "jit/ir/SplitSupport.h"
#include "jit/ir/WeakRefs.h"
#include "jit/lli/DebugDescriptor.h"
#include "jit/lli/DebugDump.h"
#include "jit/lli/TargetOptions.h"
#include "jit/mcjit/MCJITFlags.h"
#include "jit/program/ThreadInterpose.h"
#include "jit/support/Diag.h"
#include "jit/support/GrowArray.h"
#include "jit/support/LibcPthread.h"
#include "jit/tier/Tiers.h"

#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/LLJITUtils.h>
#include <llvm-c/Orc.h>
#include <llvm-c/OrcEE.h>
#include <llvm-c/Target.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct orc_rt_jit_Jit {
  const orc_rt_jit_Options *Opts;
  LLVMOrcLLJITRef J;
  LLVMOrcExecutionSessionRef ES;
  LLVMOrcJITDylibRef JD;
  /* lli's -jd: the JITDylibs named so far, and the one modules, objects and
   * archives are added to now (NULL: JD). */
  struct NamedDylib {
    LLVMOrcJITDylibRef JD;
    LLVMOrcIndirectStubsManagerRef ISM; /* made on first use (see ISM) */
  } * Named;
  LLVMOrcJITDylibRef Target;
  size_t NumNamed, NamedCap;
  bool Running; /* see orc_rt_jit_Jit_markRunning */
  char GlobalPrefix;
  char *Triple, *CPU, *Features;
  char *Settings; /* see orc_rt_jit_Jit_codegenSettings */
  LLVMCodeGenOptLevel Level;
  LLVMRelocMode Reloc;
  LLVMCodeModel CodeModel;
  /* orc-tiered's small code model: declarations go through the GOT
   * (ir/PreemptibleDeclarations.h). */
  bool Preemptible;
  unsigned NextModule;
  /* -jit-kind=orc-tiered: the fronts, counters and compile thread (created
   * with the first lazy module). */
  orc_rt_jit_Tiers *Tiers;
  orc_rt_jit_StubsCallback OnStubs; /* see orc_rt_jit_Jit_setStubsCallback */
  void *StubsCtx;
  /* Lazy mode, and -jd (reexports between JITDylibs). Indirect stubs are
   * named by their symbol, so each JITDylib has its own manager (as in
   * lli's compile-on-demand layer): with one, two -jd JITDylibs defining
   * one name would point one's stub at the other's body. ISM is JD's. */
  LLVMOrcLazyCallThroughManagerRef LCTM;
  LLVMOrcIndirectStubsManagerRef ISM;
  /* The LLJIT is built on the creator thread (see ready()). */
  pthread_t Creator;
  bool Creating;
  orc_rt_ErrorRef CreateErr;
  /* This thread's target machine for compiling, and its data layout. */
  LLVMTargetMachineRef MainTM;
  char *DataLayout;
  /* -jit-kind=mcjit: the codegen flags lli's MCJIT acts on, and what
   * everything added defines, linked before the first lookup returns. */
  bool MCJIT, Linked;
  orc_rt_jit_MCJITFlags MCJITFlags;
  orc_rt_jit_EagerLink Eager;
  /* -jit-kind=mcjit: the modules, compiled on the first lookup, as MCJIT
   * compiles them, once every module of the program is known (WeakRefs.h). */
  struct DeferredModule {
    LLVMContextRef Ctx;
    LLVMModuleRef M;
    orc_rt_jit_ObjectsCallback OnObjects;
    void *CallbackCtx;
  } * Deferred;
  size_t NumDeferred, DeferredCap;
  /* -force-interpreter: LLVM's interpreter instead of the LLJIT (J is then
   * NULL). */
  orc_rt_jit_Interpreter *Interp;
  /* Errors the ExecutionSession reported, oldest first, as it worded them,
   * until someone takes them (orc_rt_jit_Jit_takeSessionErrors). */
  pthread_mutex_t Lock;
  orc_rt_ErrorRef *Pending;
  size_t NumPending, PendingCap;
  /* orc-lazy and orc-tiered: the LLJIT's compiles, one at a time. */
  orc_rt_jit_SerialCompile Serial;
};

static orc_rt_jit_Jit *LazyJit; /* for the lazy-call-through error handler */

/* Keeps Err for orc_rt_jit_Jit_takeSessionErrors. */
static void keepSessionError(void *Ctx, LLVMErrorRef Err) {
  orc_rt_jit_Jit *J = Ctx;
  orc_rt_ErrorRef E = orc_rt_jit_fromLLVMError(Err, NULL);
  pthread_mutex_lock(&J->Lock);
  if (orc_rt_jit_growArray(&J->Pending, &J->PendingCap, J->NumPending + 1,
                           sizeof(*J->Pending)))
    J->Pending[J->NumPending++] = E;
  else if (J->NumPending) /* out of memory: kept with the one before */
    J->Pending[J->NumPending - 1] =
        orc_rt_Error_join(J->Pending[J->NumPending - 1], E);
  else
    orc_rt_Error_consume(E);
  pthread_mutex_unlock(&J->Lock);
}

static void reportSessionError(void *Ctx, LLVMErrorRef Err) {
  orc_rt_jit_Jit *J = Ctx;
  /* A compile of the LLJIT's that failed on this thread ends here. */
  orc_rt_jit_SerialCompile_end(&J->Serial);
  if (orc_rt_jit_Tiers_onCompileThread(J->Tiers)) {
    LLVMConsumeError(Err); /* a failed tier-up: tier 0 goes on serving */
    return;
  }
  keepSessionError(J, Err);
}

/* -jit-kind=orc with -jd, before JIT'd code runs: ORC links on the calling
 * thread (LLVM-C gives it no other), so a lookup that returned unfinished
 * waits for objects that wait for it (see JITDylibs.h): said, not hung. A
 * backstop: JITDylibs.c refuses such layouts before anything links. */
static _Noreturn void waitsForItself(void) {
  fflush(stdout);
  fputs("mini-lli: error: the -jd JITDylibs cannot be linked: their objects "
        "wait for each other (LLVM-C looks a symbol up only once everything "
        "it refers to is linked)\n",
        stderr);
  fflush(stderr);
  _exit(1);
}

orc_rt_ErrorRef orc_rt_jit_Jit_takeSessionErrors(orc_rt_jit_Jit *J,
                                                 const char *Banner) {
  pthread_mutex_lock(&J->Lock);
  orc_rt_ErrorRef *Taken = J->Pending;
  size_t N = J->NumPending;
  J->Pending = NULL;
  J->NumPending = J->PendingCap = 0;
  pthread_mutex_unlock(&J->Lock);
  orc_rt_ErrorRef Out = NULL;
  for (size_t I = 0; I < N; ++I) {
    orc_rt_ErrorRef E = Taken[I];
    if (Banner) {
      E = orc_rt_Error_createf("%s%s", Banner, orc_rt_Error_getMessage(E));
      orc_rt_Error_consume(Taken[I]);
    }
    Out = orc_rt_Error_join(Out, E);
  }
  free(Taken);
  return Out;
}

/* Where modules, objects and archives go now (see orc_rt_jit_Jit_placeIn). */
static LLVMOrcJITDylibRef target(orc_rt_jit_Jit *J) {
  return J->Target ? J->Target : J->JD;
}

/* The indirect stubs manager of JD (see ISM); NULL if out of memory. */
static LLVMOrcIndirectStubsManagerRef stubsOf(orc_rt_jit_Jit *J,
                                              LLVMOrcJITDylibRef JD) {
  for (size_t I = 0; I < J->NumNamed; ++I)
    if (J->Named[I].JD == JD) {
      if (!J->Named[I].ISM)
        J->Named[I].ISM = LLVMOrcCreateLocalIndirectStubsManager(J->Triple);
      return J->Named[I].ISM;
    }
  return J->ISM;
}

/* Called by a lazy stub whose function could not be compiled or linked. */
static void lazyCallFailed(void) {
  orc_rt_ErrorRef E = LazyJit ? orc_rt_jit_Jit_takeSessionErrors(
                                    LazyJit, ORC_RT_JIT_SESSION_ERROR_BANNER)
                              : NULL;
  fflush(stdout);
  fprintf(stderr, "mini-lli: error: %s\n",
          E ? orc_rt_Error_getMessage(E) : "lazy compilation failed");
  orc_rt_Error_consume(E);
  fflush(stderr);
  _exit(1);
}

static LLVMTargetMachineRef makeTM(orc_rt_jit_Jit *J) {
  return orc_rt_jit_createTargetMachine(J->Triple, J->CPU, J->Features,
                                        J->MCJITFlags.ABI, J->Level, J->Reloc,
                                        J->CodeModel);
}

LLVMTargetMachineRef orc_rt_jit_Jit_createTargetMachine(orc_rt_jit_Jit *J) {
  return makeTM(J);
}

static orc_rt_ErrorRef defineOverrides(orc_rt_jit_Jit *J) {
  size_t N;
  const orc_rt_jit_Override *O = orc_rt_jit_Runtime_overrides(&N);
  LLVMOrcCSymbolMapPairs Pairs = calloc(N, sizeof(*Pairs));
  if (!Pairs)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < N; ++I) {
    Pairs[I].Name = LLVMOrcLLJITMangleAndIntern(J->J, O[I].Name);
    Pairs[I].Sym.Address = O[I].Addr;
    Pairs[I].Sym.Flags.GenericFlags =
        LLVMJITSymbolGenericFlagsExported |
        (O[I].Callable ? LLVMJITSymbolGenericFlagsCallable : 0);
    Pairs[I].Sym.Flags.TargetFlags = 0;
  }
  LLVMErrorRef E =
      LLVMOrcJITDylibDefine(J->JD, LLVMOrcAbsoluteSymbols(Pairs, N));
  free(Pairs);
  return orc_rt_jit_fromLLVMError(E, NULL);
}

/* -jit-linker=rtdyld, and -jit-kind=mcjit: RuntimeDyld with a
 * SectionMemoryManager, as lli and its MCJIT; with a debug-descriptor dump,
 * objects are registered with the GDB JIT interface (Ctx is the Jit). */
static LLVMOrcObjectLayerRef createRTDyldLayer(void *Ctx,
                                               LLVMOrcExecutionSessionRef ES,
                                               const char *Triple) {
  orc_rt_jit_Jit *J = Ctx;
  (void)Triple;
  LLVMOrcObjectLayerRef L =
      LLVMOrcCreateRTDyldObjectLinkingLayerWithSectionMemoryManager(ES);
  if (orc_rt_jit_isDescriptorDump(J->Opts->Dump))
    LLVMOrcRTDyldObjectLinkingLayerRegisterJITEventListener(
        L, LLVMCreateGDBRegistrationListener());
  return L;
}

/* The IR dumps of -orc-lazy-debug (DebugDump.h). */
static bool dumpsModules(const orc_rt_jit_Jit *J) {
  return J->Opts->Dump != orc_rt_jit_Dump_None &&
         !orc_rt_jit_isDescriptorDump(J->Opts->Dump);
}

/* -orc-lazy-debug=jit-debug-descriptor|jit-debug-objects: as in lli, each
 * object on its way to the linker reports the debug objects registered by
 * those linked before it. */
static LLVMErrorRef dumpDescriptor(void *Ctx, LLVMMemoryBufferRef *Obj) {
  orc_rt_jit_Jit *J = Ctx;
  (void)Obj;
  orc_rt_jit_DebugDescriptor_dumpNew(J->Opts->Dump);
  return NULL;
}

/* -orc-lazy-debug: every module on its way from the IR layers to the
 * compiler, as lli's IR transform prints it. */
static LLVMErrorRef dumpEach(void *Ctx, LLVMModuleRef M) {
  orc_rt_jit_Jit *J = Ctx;
  orc_rt_ErrorRef Err = orc_rt_jit_dumpModule(J->Opts->Dump, M);
  if (!Err)
    return NULL;
  LLVMErrorRef E = LLVMCreateStringError(orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  return E;
}

static LLVMErrorRef dumpTransform(void *Ctx, LLVMOrcThreadSafeModuleRef *TSM,
                                  LLVMOrcMaterializationResponsibilityRef MR) {
  (void)MR;
  return LLVMOrcThreadSafeModuleWithModuleDo(*TSM, dumpEach, Ctx);
}

/* -jit-kind=orc-tiered: every module on its way to tier 0 (in JD) is saved
 * and counts its calls (Tiers.h), then dumped as above. */
typedef struct {
  orc_rt_jit_Jit *J;
  LLVMOrcJITDylibRef JD;
} TierModule;

static LLVMErrorRef tierEach(void *Ctx, LLVMModuleRef M) {
  TierModule *TM = Ctx;
  orc_rt_jit_Jit *J = TM->J;
  orc_rt_ErrorRef Err =
      J->Tiers ? orc_rt_jit_Tiers_transform(J->Tiers, TM->JD, M) : NULL;
  if (!Err && J->Tiers) /* (tier 1's copy is saved: only tier 0 sees it) */
    Err = orc_rt_jit_lowerForFastISel(M);
  if (!Err && J->Preemptible)
    Err = orc_rt_jit_makeDeclarationsPreemptible(M);
  if (Err) {
    LLVMErrorRef E = LLVMCreateStringError(orc_rt_Error_getMessage(Err));
    orc_rt_Error_consume(Err);
    return E;
  }
  return dumpsModules(J) ? dumpEach(J, M) : NULL;
}

static LLVMErrorRef tierTransform(void *Ctx, LLVMOrcThreadSafeModuleRef *TSM,
                                  LLVMOrcMaterializationResponsibilityRef MR) {
  TierModule TM = {Ctx, LLVMOrcMaterializationResponsibilityGetTargetDylib(MR)};
  return LLVMOrcThreadSafeModuleWithModuleDo(*TSM, tierEach, &TM);
}

static LLVMErrorRef tierObjectReady(void *Ctx, LLVMMemoryBufferRef *Obj) {
  orc_rt_jit_Jit *J = Ctx;
  (void)Obj;
  if (J->Tiers)
    orc_rt_jit_Tiers_objectReady(J->Tiers);
  return NULL;
}

/* orc-lazy and orc-tiered: the LLJIT compiles on whatever thread makes a
 * first call, each compile alone (compile/SerialCompile.h: two threads
 * calling into two modules at once crashed, as they do lli-22), then tier
 * 0's counters or the -orc-lazy-debug dumps. */
static LLVMErrorRef lazyTransform(void *Ctx, LLVMOrcThreadSafeModuleRef *TSM,
                                  LLVMOrcMaterializationResponsibilityRef MR) {
  orc_rt_jit_Jit *J = Ctx;
  orc_rt_jit_SerialCompile_begin(&J->Serial); /* (ended below) */
  if (J->Opts->Tiered)
    return tierTransform(Ctx, TSM, MR);
  return dumpsModules(J) ? dumpTransform(Ctx, TSM, MR) : NULL;
}

static LLVMErrorRef lazyObjectReady(void *Ctx, LLVMMemoryBufferRef *Obj) {
  orc_rt_jit_Jit *J = Ctx;
  orc_rt_jit_SerialCompile_end(&J->Serial);
  return J->Opts->Tiered ? tierObjectReady(Ctx, Obj) : NULL;
}

/* Tier 1's code generation: the -O level (tier 0 is -O0). */
static LLVMTargetMachineRef newTier1TM(void *Ctx) {
  orc_rt_jit_Jit *J = Ctx;
  return orc_rt_jit_createTargetMachine(
      J->Triple, J->CPU, J->Features, J->MCJITFlags.ABI,
      orc_rt_jit_codeGenLevel(J->Opts->OptLevel), J->Reloc, J->CodeModel);
}

/* Builds the LLJIT and the program's JITDylib. Runs on the creator thread,
 * which writes only these fields (and LazyJit); every other thread reads them
 * after ready() has joined it. */
static orc_rt_ErrorRef buildLLJIT(orc_rt_jit_Jit *J) {
  LLVMTargetMachineRef TM = makeTM(J);
  if (!TM)
    return orc_rt_Error_createf("no JIT target for triple '%s'", J->Triple);
  LLVMOrcLLJITBuilderRef B = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
      B, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(TM));
  if (J->Opts->Linker == orc_rt_jit_Linker_RTDyld)
    LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(B, createRTDyldLayer, J);
  orc_rt_ErrorRef Err = orc_rt_jit_fromLLVMError(LLVMOrcCreateLLJIT(&J->J, B),
                                                 "cannot create the JIT: ");
  if (Err)
    return Err;
  J->ES = LLVMOrcLLJITGetExecutionSession(J->J);
  if (dumpsModules(J))
    LLVMOrcIRTransformLayerSetTransform(LLVMOrcLLJITGetIRTransformLayer(J->J),
                                        dumpTransform, J);
  if (orc_rt_jit_isDescriptorDump(J->Opts->Dump)) {
    /* JITLink: LLVM's debug-object plugin, which registers through
     * liborc-rt-c's llvm_orc_registerJITLoaderGDBAllocAction. Like lli, a
     * failure to enable it only means nothing is registered. */
    if (J->Opts->Linker != orc_rt_jit_Linker_RTDyld)
      LLVMConsumeError(LLVMOrcLLJITEnableDebugSupport(J->J));
    LLVMOrcObjectTransformLayerSetTransform(
        LLVMOrcLLJITGetObjTransformLayer(J->J), dumpDescriptor, J);
    orc_rt_jit_DebugDescriptor_start(J->Opts->Dump);
  }
  LLVMOrcExecutionSessionSetErrorReporter(J->ES, reportSessionError, J);
  J->GlobalPrefix = LLVMOrcLLJITGetGlobalPrefix(J->J);
  J->JD = LLVMOrcExecutionSessionCreateBareJITDylib(J->ES, "<program>");
  Err = defineOverrides(J);
  if (!Err && (J->Opts->Lazy || J->Opts->JITDylibs.Size)) {
    J->ISM = LLVMOrcCreateLocalIndirectStubsManager(J->Triple);
    Err = orc_rt_jit_fromLLVMError(
        LLVMOrcCreateLocalLazyCallThroughManager(
            J->Triple, J->ES,
            (LLVMOrcJITTargetAddress)(uintptr_t)lazyCallFailed, &J->LCTM),
        "cannot set up lazy compilation: ");
    LazyJit = J;
  }
  if (!Err && (J->Opts->Tiered || J->Opts->Lazy))
    orc_rt_jit_installCallOnceGuard(J->J, lazyTransform, J, lazyObjectReady, J);
  return Err;
}

static void *creatorThread(void *Arg) {
  orc_rt_jit_Jit *J = Arg;
  J->CreateErr = buildLLJIT(J);
  return NULL;
}

/* Waits for the creator thread (pthread_join orders its writes before our
 * reads); after a NULL return the LLJIT fields may be used. */
static orc_rt_ErrorRef ready(orc_rt_jit_Jit *J) {
  if (J->Creating) {
    orc_rt_jit_realPthreadJoin(J->Creator, NULL);
    J->Creating = false;
  }
  return J->CreateErr
             ? orc_rt_Error_create(orc_rt_Error_getMessage(J->CreateErr))
             : NULL;
}

orc_rt_ErrorRef orc_rt_jit_Jit_create(orc_rt_jit_Jit **Result,
                                      const orc_rt_jit_Options *Opts) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  LLVMInitializeNativeAsmParser();

  orc_rt_jit_Jit *J = calloc(1, sizeof(*J));
  if (!J)
    return orc_rt_Error_create("out of memory");
  pthread_mutex_init(&J->Lock, NULL);
  orc_rt_jit_SerialCompile_init(&J->Serial);
  J->Opts = Opts;
  J->MCJIT = Opts->Engine == orc_rt_jit_Engine_MCJIT;
  orc_rt_jit_MCJITFlags_read(Opts, &J->MCJITFlags);
  orc_rt_ErrorRef Err = orc_rt_jit_targetSettings(
      Opts, &J->Triple, &J->CPU, &J->Features, &J->Reloc, &J->CodeModel);
  if (Err) {
    orc_rt_jit_Jit_dispose(J);
    return Err;
  }
  /* orc-tiered on JITLink, unless told otherwise: position-independent code
   * in the small code model. Under the JIT's default (the large model, where
   * every global's address is a 64-bit immediate) FastISel selects no access
   * to a global and hands most blocks to SelectionDAG. Every declaration
   * then goes through the GOT or a stub, which the link keeps within reach
   * (ir/PreemptibleDeclarations.h). */
  if (Opts->Tiered && Opts->Linker != orc_rt_jit_Linker_RTDyld &&
      Opts->RelocModel < 0 && Opts->CodeModel < 0) {
    J->Reloc = LLVMRelocPIC;
    J->CodeModel = LLVMCodeModelSmall;
    J->Preemptible = true;
  }
  /* orc-tiered: tier 0 is -O0 (FastISel); tier 1 takes the -O level. */
  J->Level = orc_rt_jit_codeGenLevel(Opts->Tiered ? 0 : Opts->OptLevel);
  size_t SettingsSize =
      strlen(J->Triple) + strlen(J->CPU) + strlen(J->Features) + 64;
  J->Settings = malloc(SettingsSize);
  if (!J->Settings) {
    orc_rt_jit_Jit_dispose(J);
    return orc_rt_Error_create("out of memory");
  }
  /* (-jd cuts modules differently: see compileModule's DataApart.) */
  snprintf(J->Settings, SettingsSize,
           "triple=%s cpu=%s features=%s level=%d reloc=%d code=%d%s",
           J->Triple, J->CPU, J->Features, Opts->OptLevel, (int)J->Reloc,
           (int)J->CodeModel, Opts->JITDylibs.Size ? " data-apart" : "");

  if (Opts->Engine == orc_rt_jit_Engine_Interpreter)
    Err = orc_rt_jit_Interpreter_create(&J->Interp);
  /* The LLJIT is built on a thread of its own while this thread goes on to
   * read and compile the inputs (they need only a target machine): start-up
   * pays for the longer of the two, not both. */
  if (Err || J->Interp)
    ; /* no LLJIT */
  else if (!orc_rt_jit_realPthreadCreate(&J->Creator, NULL, creatorThread, J))
    J->Creating = true;
  else
    J->CreateErr = buildLLJIT(J);
  J->MainTM = makeTM(J);
  if (Err) {
  } else if (J->MainTM) {
    LLVMTargetDataRef TD = LLVMCreateTargetDataLayout(J->MainTM);
    J->DataLayout = LLVMCopyStringRepOfTargetData(TD);
    LLVMDisposeTargetData(TD);
  } else {
    Err = orc_rt_Error_createf("no JIT target for triple '%s'", J->Triple);
  }
  if (!Err && !J->Creating)
    Err = ready(J);
  if (Err) {
    orc_rt_jit_Jit_dispose(J);
    return Err;
  }
  *Result = J;
  return NULL;
}

static orc_rt_ErrorRef
addWhole(orc_rt_jit_Jit *J, LLVMOrcThreadSafeContextRef TSC, LLVMModuleRef M) {
  LLVMOrcThreadSafeModuleRef TSM = LLVMOrcCreateNewThreadSafeModule(M, TSC);
  LLVMErrorRef E = LLVMOrcLLJITAddLLVMIRModule(J->J, target(J), TSM);
  return orc_rt_jit_fromLLVMError(E, NULL);
}

static orc_rt_ErrorRef addCompiled(orc_rt_jit_Jit *J, LLVMModuleRef M,
                                   orc_rt_jit_ObjectsCallback OnObjects,
                                   void *CallbackCtx);
static orc_rt_ErrorRef addCompiledAtTier1(orc_rt_jit_Jit *J, LLVMModuleRef M);

/* Tells J->OnStubs which functions of P got a stub. */
static void tellStubs(orc_rt_jit_Jit *J, const orc_rt_jit_LazyParts *P,
                      bool BodiesApart) {
  const char **Names = malloc((P->NumStubs ? P->NumStubs : 1) * sizeof(*Names));
  if (!Names)
    return; /* (the callback's user then counts on no stubs) */
  for (size_t I = 0; I < P->NumStubs; ++I)
    Names[I] = P->Stubs[I].Name;
  J->OnStubs(Names, P->NumStubs, BodiesApart, J->StubsCtx);
  free(Names);
}

/* orc-tiered: the names of P's lazy stubs (orc_rt_jit_tier0Name). */
static orc_rt_ErrorRef tier0Names(const orc_rt_jit_LazyParts *P, char ***Out) {
  char **Names = calloc(P->NumStubs, sizeof(*Names));
  bool OK = Names != NULL;
  for (size_t I = 0; OK && I < P->NumStubs; ++I)
    OK = (Names[I] = orc_rt_jit_tier0Name(P->Stubs[I].Name)) != NULL;
  if (!OK) {
    for (size_t I = 0; Names && I < P->NumStubs; ++I)
      free(Names[I]);
    free(Names);
    Names = NULL;
  }
  *Out = Names;
  return Names ? NULL : orc_rt_Error_create("out of memory");
}

/* orc-tiered and fork(): the program's Tiers (one program per mini-lli),
 * and the one a fork under way holds (Tiers.h). Set before the program
 * runs, cleared after it ended. */
static orc_rt_jit_Tiers *ProgramTiers, *ForkingTiers;
static pthread_once_t AtForkOnce = PTHREAD_ONCE_INIT;

static void tiersBeforeFork(void) {
  ForkingTiers = __atomic_load_n(&ProgramTiers, __ATOMIC_ACQUIRE);
  if (ForkingTiers)
    orc_rt_jit_Tiers_beforeFork(ForkingTiers);
}

static void tiersAfterForkInParent(void) {
  if (ForkingTiers)
    orc_rt_jit_Tiers_afterForkInParent(ForkingTiers);
}

static void tiersAfterForkInChild(void) {
  if (ForkingTiers)
    orc_rt_jit_Tiers_afterForkInChild(ForkingTiers);
}

static void registerAtFork(void) {
  pthread_atfork(tiersBeforeFork, tiersAfterForkInParent,
                 tiersAfterForkInChild);
}

/* orc-tiered: a tier-0 module of lazy bodies (Tiers.h; the Tiers exist
 * before the first body is looked up). */
static void tierEmit(void *Ctx, LLVMOrcMaterializationResponsibilityRef MR,
                     LLVMOrcThreadSafeModuleRef TSM) {
  orc_rt_jit_Jit *J = Ctx;
  orc_rt_jit_Tiers_emit(J->Tiers, MR, TSM);
}

/* orc-tiered: NAME as a front to NAME$tier0 (Tiers.h). */
static orc_rt_ErrorRef addFronts(orc_rt_jit_Jit *J,
                                 const orc_rt_jit_LazyParts *P) {
  if (!J->Tiers) {
    orc_rt_jit_TierOptions O = {
        .J = J->J,
        .Threshold = J->Opts->TierUpThreshold
                         ? (int32_t)J->Opts->TierUpThreshold
                         : ORC_RT_JIT_DEFAULT_TIER_UP_THRESHOLD,
        .NewTM = newTier1TM,
        .TMCtx = J,
        .PreemptibleDeclarations = J->Preemptible,
        .CacheDir = J->Opts->ObjectCacheDir,
        .Settings = J->Settings,
        .EscapesOnFirstCall = true,
        .EveryFirstCall = true,
        .FirstCallFailed = (uint64_t)(uintptr_t)lazyCallFailed};
    orc_rt_ErrorRef Err = orc_rt_jit_Tiers_create(&J->Tiers, &O);
    if (Err)
      return Err;
    pthread_once(&AtForkOnce, registerAtFork);
    __atomic_store_n(&ProgramTiers, J->Tiers, __ATOMIC_RELEASE);
  }
  return orc_rt_jit_Tiers_addFunctions(J->Tiers, target(J), P->Stubs,
                                       P->NumStubs);
}

/* May take the caller's reference to the context (*TSC becomes NULL), which
 * the function bodies compiled on first lookup need. */
static orc_rt_ErrorRef addLazy(orc_rt_jit_Jit *J,
                               LLVMOrcThreadSafeContextRef *TSC,
                               LLVMModuleRef M, LLVMModuleRef Holder) {
  orc_rt_jit_LazyParts P;
  if (J->Opts->Tiered) { /* tier 1 optimizes clang -O0's output (OptNone.h) */
    orc_rt_jit_dropO0OptNone(M);
    if (Holder)
      orc_rt_jit_dropO0OptNone(Holder);
  }
  orc_rt_ErrorRef Err = orc_rt_jit_splitForLazy(
      M, J->NextModule, !J->Opts->PerModuleLazy, J->Opts->Tiered, Holder, &P);
  if (Err)
    return Err;
  for (size_t I = 0; I < P.NumModules && !Err; ++I) {
    bool JDs = J->Opts->JITDylibs.Size && !P.Bodies;
    bool Tier1 = J->Opts->Tiered && !P.Bodies && !P.NumStubs;
    if (JDs || (orc_rt_jit_hasModuleAsm(P.Modules[I]) && !Tier1)) {
      /* -jd, and the module kept whole (-per-module-lazy, or not split):
       * compiled now with its variables apart, as -jit-kind=orc does, so
       * that JITDylibs using each other's data do not wait on each other
       * (see JITDylibs.h). Its code is still linked on first call. So is a
       * module with module-level assembly: what the assembly defines is
       * known from the object only (ORC's IR layer, which names what the IR
       * defines, would refuse it). */
      Err = addCompiled(J, P.Modules[I], NULL, NULL);
      LLVMDisposeModule(P.Modules[I]);
    } else if (Tier1) {
      Err = addCompiledAtTier1(J, P.Modules[I]);
      LLVMDisposeModule(P.Modules[I]);
    } else {
      Err = addWhole(J, *TSC, P.Modules[I]);
    }
    P.Modules[I] = NULL;
  }
  bool BodiesApart = P.Bodies != NULL; /* (defining them takes them) */
  if (P.Bodies) /* why a body read lazily cannot be compiled */
    orc_rt_jit_LazyBodies_setReporter(P.Bodies, keepSessionError, J);
  if (!Err)
    Err = orc_rt_jit_defineLazyBodies(&P, J->J, target(J), TSC,
                                      J->Opts->Tiered ? tierEmit : NULL, J);
  /* orc-tiered: the lazy stubs are NAME$tier0, and NAME a front to them. */
  char **Tier0 = NULL;
  LLVMOrcIndirectStubsManagerRef ISM;
  if (!Err && J->Opts->Tiered && P.NumStubs)
    Err = tier0Names(&P, &Tier0);
  if (!Err && P.NumStubs)
    Err = (ISM = stubsOf(J, target(J)))
              ? orc_rt_jit_defineLazyStubs(J->J, target(J), J->LCTM, ISM,
                                           P.Stubs, P.NumStubs, Tier0)
              : orc_rt_Error_create("out of memory");
  if (!Err && Tier0)
    Err = addFronts(J, &P);
  for (size_t I = 0; Tier0 && I < P.NumStubs; ++I)
    free(Tier0[I]);
  free(Tier0);
  if (!Err && J->OnStubs)
    tellStubs(J, &P, BodiesApart);
  orc_rt_jit_LazyParts_dispose(&P);
  return Err;
}

void orc_rt_jit_Jit_setStubsCallback(orc_rt_jit_Jit *J,
                                     orc_rt_jit_StubsCallback OnStubs,
                                     void *Ctx) {
  J->OnStubs = OnStubs;
  J->StubsCtx = Ctx;
}

const char *orc_rt_jit_Jit_codegenSettings(orc_rt_jit_Jit *J) {
  return J->Settings;
}

static LLVMTargetMachineRef newTM(void *Ctx) { return makeTM(Ctx); }

orc_rt_ErrorRef orc_rt_jit_Jit_addObjects(orc_rt_jit_Jit *J,
                                          const LLVMMemoryBufferRef *Objects,
                                          size_t NumObjects) {
  orc_rt_Error_consume(ready(J)); /* (addObjectsTo reports it) */
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; J->MCJIT && !Err && I < NumObjects; ++I)
    Err = orc_rt_jit_EagerLink_noteObject(&J->Eager, Objects[I]);
  if (Err) {
    for (size_t I = 0; I < NumObjects; ++I)
      LLVMDisposeMemoryBuffer(Objects[I]);
    return Err;
  }
  return orc_rt_jit_Jit_addObjectsTo(J, target(J), Objects, NumObjects);
}

/* -jit-kind=orc: compiled now, on the compile threads, and added as objects. */
static orc_rt_ErrorRef addCompiledBy(orc_rt_jit_Jit *J, LLVMModuleRef M,
                                     LLVMTargetMachineRef TM,
                                     orc_rt_jit_TargetMachineFactory NewTM,
                                     orc_rt_jit_ObjectsCallback OnObjects,
                                     void *CallbackCtx);

static orc_rt_ErrorRef addCompiled(orc_rt_jit_Jit *J, LLVMModuleRef M,
                                   orc_rt_jit_ObjectsCallback OnObjects,
                                   void *CallbackCtx) {
  return addCompiledBy(J, M, J->MainTM, newTM, OnObjects, CallbackCtx);
}

/* orc-tiered, a module the lazy split could not cut (no fronts, so it could
 * never switch tiers): compiled whole now, at tier 1's -O level. */
static orc_rt_ErrorRef addCompiledAtTier1(orc_rt_jit_Jit *J, LLVMModuleRef M) {
  LLVMTargetMachineRef TM = newTier1TM(J);
  if (!TM)
    return orc_rt_Error_createf("no JIT target for triple '%s'", J->Triple);
  orc_rt_ErrorRef Err = addCompiledBy(J, M, TM, newTier1TM, NULL, NULL);
  LLVMDisposeTargetMachine(TM);
  return Err;
}

static orc_rt_ErrorRef addCompiledBy(orc_rt_jit_Jit *J, LLVMModuleRef M,
                                     LLVMTargetMachineRef TM,
                                     orc_rt_jit_TargetMachineFactory NewTM,
                                     orc_rt_jit_ObjectsCallback OnObjects,
                                     void *CallbackCtx) {
  orc_rt_jit_ObjectList Objs;
  if (dumpsModules(J)) {
    /* Compiled here, not by the LLJIT's IR layers: dumped here. */
    orc_rt_ErrorRef Err = orc_rt_jit_dumpModule(J->Opts->Dump, M);
    if (Err)
      return Err;
  }
  bool Cache = J->Opts->EnableCacheManager; /* lli's holds 1 object */
  orc_rt_ErrorRef Err = orc_rt_jit_compileModule(
      M, J->NextModule, Cache ? 1 : J->Opts->CompileThreads,
      !Cache && J->Opts->JITDylibs.Size, J->Preemptible, TM, NewTM, J, &Objs);
  if (Err)
    return Err;
  if (OnObjects)
    OnObjects(Objs.Items, Objs.Size, CallbackCtx);
  /* target(J) reads the LLJIT's fields: after the creator thread is joined
   * (addObjectsTo reports its error). */
  orc_rt_Error_consume(ready(J));
  Err = orc_rt_jit_Jit_addObjectsTo(J, target(J), Objs.Items, Objs.Size);
  free(Objs.Items);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Jit_addModule(orc_rt_jit_Jit *J, LLVMContextRef Ctx,
                                         LLVMModuleRef M, LLVMModuleRef Holder,
                                         orc_rt_jit_ObjectsCallback OnObjects,
                                         void *CallbackCtx) {
  /* The module must carry the JIT's data layout and triple. */
  LLVMSetDataLayout(M, J->DataLayout);
  if (!*LLVMGetTarget(M) || J->Opts->MTriple)
    LLVMSetTarget(M, J->Triple);
  if (Holder) {
    LLVMSetDataLayout(Holder, J->DataLayout);
    LLVMSetTarget(Holder, LLVMGetTarget(M));
    if (!J->Opts->Lazy || J->Opts->EnableCacheManager || J->Interp ||
        J->MCJIT) { /* (not read lazily for these) */
      LLVMDisposeModule(Holder);
      Holder = NULL;
    }
  }
  if (J->Interp) /* interprets thread_local as it is */
    return orc_rt_jit_Interpreter_addModule(J->Interp, Ctx, M);
  orc_rt_ErrorRef Err = orc_rt_jit_lowerEmulatedTLS(M);
  if (Err) {
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
    return Err;
  }
  /* -jit-kind=mcjit: with what lli's MCJIT's flags do (MCJITFlags.h),
   * compiled on the first lookup (compileDeferred). */
  if (J->MCJIT) {
    Err = orc_rt_jit_MCJITFlags_apply(&J->MCJITFlags, M, J->MainTM);
    if (!Err && !orc_rt_jit_growArray(&J->Deferred, &J->DeferredCap,
                                      J->NumDeferred + 1, sizeof(*J->Deferred)))
      Err = orc_rt_Error_create("out of memory");
    if (Err) {
      LLVMDisposeModule(M);
      LLVMContextDispose(Ctx);
      return Err;
    }
    J->Deferred[J->NumDeferred++] =
        (struct DeferredModule){Ctx, M, OnObjects, CallbackCtx};
    return NULL;
  }
  /* lli's object cache holds whole modules: with it, orc-lazy compiles each
   * module whole, now, as orc does. */
  if (!J->Opts->Lazy || J->Opts->EnableCacheManager) {
    Err = addCompiled(J, M, OnObjects, CallbackCtx);
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
    ++J->NextModule;
    return Err;
  }
  if ((Err = ready(J))) {
    if (Holder)
      LLVMDisposeModule(Holder);
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
    return Err;
  }
  LLVMOrcThreadSafeContextRef TSC =
      LLVMOrcCreateNewThreadSafeContextFromLLVMContext(Ctx);
  Err = addLazy(J, &TSC, M, Holder);
  LLVMOrcDisposeThreadSafeContext(TSC); /* NULL if addLazy kept it */
  ++J->NextModule;
  return Err;
}

/* What LLVM-C cannot give the interpreter: no call adds an object file or
 * archive to an ExecutionEngine. */
static orc_rt_ErrorRef notOnInterpreter(const char *Option) {
  return orc_rt_Error_createf(
      "%s is not supported with -force-interpreter: LLVM-C's ExecutionEngine "
      "API cannot do it; use -jit-kind=orc, orc-lazy or mcjit",
      Option);
}

orc_rt_ErrorRef orc_rt_jit_Jit_addObjectFile(orc_rt_jit_Jit *J,
                                             const char *Path) {
  if (J->Interp)
    return notOnInterpreter("-extra-object");
  orc_rt_ErrorRef Err = ready(J);
  return Err ? Err
             : orc_rt_jit_addObjectFile(J->J, J->JD, Path,
                                        J->MCJIT ? &J->Eager : NULL);
}

orc_rt_ErrorRef orc_rt_jit_Jit_addArchive(orc_rt_jit_Jit *J, const char *Path) {
  if (J->Interp)
    return notOnInterpreter("-extra-archive");
  orc_rt_ErrorRef Err = ready(J);
  return Err ? Err : orc_rt_jit_addArchive(J->J, target(J), Path);
}

orc_rt_ErrorRef orc_rt_jit_Jit_addDynamicLibrary(orc_rt_jit_Jit *J,
                                                 const char *Path) {
  if (J->Interp) {
    /* The interpreter resolves externals in the process's global scope. */
    if (!dlopen(Path, RTLD_NOW | RTLD_GLOBAL))
      return orc_rt_Error_createf("%s", dlerror());
    return NULL;
  }
  orc_rt_ErrorRef Err = ready(J);
  if (Err)
    return Err;
  LLVMOrcDefinitionGeneratorRef G;
  LLVMErrorRef E = LLVMOrcCreateDynamicLibrarySearchGeneratorForPath(
      &G, Path, J->GlobalPrefix, NULL, NULL);
  if (E)
    return orc_rt_jit_fromLLVMError(E, NULL);
  LLVMOrcJITDylibAddGenerator(J->JD, G);
  return NULL;
}

/* The host's own `main` is never JIT'd code's. */
static int notHostMain(void *Ctx, LLVMOrcSymbolStringPoolEntryRef Sym) {
  orc_rt_jit_Jit *J = Ctx;
  const char *Name = LLVMOrcSymbolStringPoolEntryStr(Sym);
  if (J->GlobalPrefix && *Name == J->GlobalPrefix)
    ++Name;
  return strcmp(Name, "main") != 0;
}

orc_rt_ErrorRef orc_rt_jit_Jit_addProcessSymbols(orc_rt_jit_Jit *J) {
  /* An ExecutionEngine always resolves in the process (LLVM-C gives the
   * interpreter no resolver to replace, lli's MCJIT resolves there whatever
   * it is told): -no-process-syms is ignored by both, as by lli. */
  if (J->Interp)
    return NULL;
  orc_rt_ErrorRef Err = ready(J);
  if (Err || (J->Opts->NoProcessSyms && !J->MCJIT))
    return Err;
  LLVMOrcDefinitionGeneratorRef G;
  LLVMErrorRef E = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
      &G, J->GlobalPrefix, notHostMain, J);
  if (E)
    return orc_rt_jit_fromLLVMError(E, NULL);
  LLVMOrcJITDylibAddGenerator(J->JD, G);
  return NULL;
}

/* -jd, before JIT'd code runs: see waitsForItself. */
static void lookupUnfinished(void *Ctx) {
  orc_rt_jit_Jit *J = Ctx;
  if (!J->Opts->Lazy && J->Opts->JITDylibs.Size &&
      !__atomic_load_n(&J->Running, __ATOMIC_RELAXED))
    waitsForItself();
}

orc_rt_ErrorRef orc_rt_jit_Jit_lookupIn(orc_rt_jit_Jit *J,
                                        LLVMOrcJITDylibRef JD,
                                        const char *const *Names, size_t N,
                                        uint64_t *Addrs) {
  orc_rt_ErrorRef Err = ready(J);
  if (Err || !N)
    return Err;
  /* orc-tiered: the functions whose address escapes that are not compiled
   * on their first call (a signal handler's type, Tiers.h) are compiled
   * before anything is looked up (and so before the program runs). */
  if (J->Tiers && (Err = orc_rt_jit_Tiers_compileEager(J->Tiers)))
    return Err;
  LLVMOrcSymbolStringPoolEntryRef *Interned = calloc(N, sizeof(*Interned));
  if (!Interned)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < N; ++I)
    Interned[I] = LLVMOrcLLJITMangleAndIntern(J->J, Names[I]);
  LLVMErrorRef E = orc_rt_jit_lookupAndWait(J->ES, JD ? JD : J->JD, Interned, N,
                                            Addrs, lookupUnfinished, J);
  for (size_t I = 0; I < N; ++I)
    LLVMOrcReleaseSymbolStringPoolEntry(Interned[I]);
  free(Interned);
  if (E) /* what the session reported meanwhile stays for the caller */
    return orc_rt_jit_fromLLVMError(E, NULL);
  /* Complaints about a lookup that succeeded (weak references) go. */
  orc_rt_Error_consume(orc_rt_jit_Jit_takeSessionErrors(J, NULL));
  return NULL;
}

/* Whether Name is defined outside the program's modules, for WeakRefs.h:
 * by mini-lli's runtime, an object file, a -dlopen library or the process
 * (archive members are not looked at, as under -remote-mcjit). */
static orc_rt_ErrorRef resolveWeak(const char *Name, bool *Found, void *Ctx) {
  orc_rt_jit_Jit *J = Ctx;
  size_t N;
  const orc_rt_jit_Override *O = orc_rt_jit_Runtime_overrides(&N);
  *Found = false;
  for (size_t I = 0; I < N && !*Found; ++I)
    *Found = !strcmp(O[I].Name, Name);
  for (size_t I = 0; I < J->Eager.Size && !*Found; ++I)
    *Found = J->Eager.Raw[I] && !strcmp(J->Eager.Names[I], Name);
  for (size_t I = 0; I < J->Opts->DLOpens.Size && !*Found; ++I) {
    void *H = dlopen(J->Opts->DLOpens.Items[I], RTLD_LAZY | RTLD_NOLOAD);
    *Found = H && dlsym(H, Name);
    if (H)
      dlclose(H);
  }
  if (!*Found && strcmp(Name, "main"))
    *Found = dlsym(RTLD_DEFAULT, Name) != NULL;
  return NULL;
}

/* -jit-kind=mcjit, on the first lookup: every module, compiled and added,
 * its undefined weak references nulled first where nothing defines them. */
static orc_rt_ErrorRef compileDeferred(orc_rt_jit_Jit *J) {
  size_t N = J->NumDeferred;
  LLVMModuleRef *Modules = calloc(N ? N : 1, sizeof(*Modules));
  orc_rt_ErrorRef Err = Modules ? NULL : orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < N && Modules; ++I)
    Modules[I] = J->Deferred[I].M;
  for (size_t I = 0; I < N && !Err; ++I)
    Err = orc_rt_jit_nullUndefinedWeak(Modules[I], Modules, N, resolveWeak, J);
  free(Modules);
  for (size_t I = 0; I < N; ++I) {
    struct DeferredModule *D = &J->Deferred[I];
    if (!Err)
      Err = orc_rt_jit_EagerLink_noteModule(&J->Eager, D->M);
    if (!Err)
      Err = addCompiled(J, D->M, D->OnObjects, D->CallbackCtx);
    LLVMDisposeModule(D->M);
    LLVMContextDispose(D->Ctx);
    ++J->NextModule;
  }
  J->NumDeferred = 0;
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Jit_lookup(orc_rt_jit_Jit *J, LLVMOrcJITDylibRef JD,
                                      const char *Name, uint64_t *Addr) {
  if (J->MCJIT && !J->Linked) {
    /* As MCJIT: everything is linked before the first address is given. */
    orc_rt_ErrorRef Err = ready(J);
    if (!Err)
      Err = compileDeferred(J);
    if (!Err)
      Err = orc_rt_jit_fromLLVMError(
          orc_rt_jit_EagerLink_run(&J->Eager, J->J, J->JD), NULL);
    if (Err)
      return Err;
    J->Linked = true;
    orc_rt_jit_EagerLink_dispose(&J->Eager);
  }
  if (J->Interp)
    return orc_rt_jit_Interpreter_lookup(J->Interp, Name, Addr);
  orc_rt_ErrorRef Err = orc_rt_jit_Jit_lookupIn(J, JD, &Name, 1, Addr);
  /* Objects linked by this lookup, which no later object may report. */
  orc_rt_jit_DebugDescriptor_dumpNew(J->Opts->Dump);
  return Err;
}

LLVMOrcLLJITRef orc_rt_jit_Jit_llJIT(orc_rt_jit_Jit *J) {
  orc_rt_Error_consume(ready(J));
  return J->J;
}

LLVMOrcJITDylibRef orc_rt_jit_Jit_programDylib(orc_rt_jit_Jit *J) {
  orc_rt_Error_consume(ready(J));
  return J->JD;
}

orc_rt_ErrorRef orc_rt_jit_Jit_dylib(orc_rt_jit_Jit *J, const char *Name,
                                     LLVMOrcJITDylibRef *Out) {
  orc_rt_ErrorRef Err = ready(J);
  if (Err)
    return Err;
  if (!Name || !strcmp(Name, "main")) {
    *Out = J->JD;
    return NULL;
  }
  if ((*Out = LLVMOrcExecutionSessionGetJITDylibByName(J->ES, Name)))
    return NULL;
  if (!orc_rt_jit_growArray(&J->Named, &J->NamedCap, J->NumNamed + 1,
                            sizeof(*J->Named)))
    return orc_rt_Error_create("out of memory");
  *Out = LLVMOrcExecutionSessionCreateBareJITDylib(J->ES, Name);
  J->Named[J->NumNamed++] = (struct NamedDylib){*Out, NULL};
  return NULL;
}

void orc_rt_jit_Jit_placeIn(orc_rt_jit_Jit *J, LLVMOrcJITDylibRef JD) {
  J->Target = JD;
}

orc_rt_ErrorRef orc_rt_jit_Jit_defineReexport(orc_rt_jit_Jit *J,
                                              LLVMOrcJITDylibRef JD,
                                              LLVMOrcJITDylibRef From,
                                              const char *Name) {
  LLVMOrcCSymbolAliasMapPair Pair;
  Pair.Name = LLVMOrcLLJITMangleAndIntern(J->J, Name);
  Pair.Entry.Name = LLVMOrcLLJITMangleAndIntern(J->J, Name);
  Pair.Entry.Flags.GenericFlags =
      LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
  Pair.Entry.Flags.TargetFlags = 0;
  LLVMOrcIndirectStubsManagerRef ISM = stubsOf(J, JD);
  if (!ISM) {
    LLVMOrcReleaseSymbolStringPoolEntry(Pair.Name);
    LLVMOrcReleaseSymbolStringPoolEntry(Pair.Entry.Name);
    return orc_rt_Error_create("out of memory");
  }
  LLVMOrcMaterializationUnitRef MU =
      LLVMOrcLazyReexports(J->LCTM, ISM, From, &Pair, 1);
  LLVMErrorRef E = LLVMOrcJITDylibDefine(JD, MU);
  if (E)
    LLVMOrcDisposeMaterializationUnit(MU);
  return orc_rt_jit_fromLLVMError(E, NULL);
}

orc_rt_ErrorRef orc_rt_jit_Jit_compileObjects(orc_rt_jit_Jit *J,
                                              LLVMModuleRef M,
                                              orc_rt_jit_ObjectList *Out) {
  LLVMSetDataLayout(M, J->DataLayout);
  if (!*LLVMGetTarget(M))
    LLVMSetTarget(M, J->Triple);
  orc_rt_ErrorRef Err = orc_rt_jit_lowerEmulatedTLS(M);
  if (Err)
    return Err;
  /* (MainTM is orc-tiered's, in the small model, when Preemptible.) */
  return orc_rt_jit_compileModule(M, 0, J->Opts->CompileThreads, false,
                                  J->Preemptible, J->MainTM, newTM, J, Out);
}

orc_rt_ErrorRef orc_rt_jit_Jit_addObjectsTo(orc_rt_jit_Jit *J,
                                            LLVMOrcJITDylibRef JD,
                                            const LLVMMemoryBufferRef *Objects,
                                            size_t NumObjects) {
  orc_rt_ErrorRef Err = ready(J);
  for (size_t I = 0; I < NumObjects; ++I) {
    if (Err) {
      LLVMDisposeMemoryBuffer(Objects[I]);
      continue;
    }
    Err = orc_rt_jit_fromLLVMError(
        LLVMOrcLLJITAddObjectFile(J->J, JD ? JD : J->JD, Objects[I]), NULL);
  }
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_Jit_startAtTier1(orc_rt_jit_Jit *J,
                                            const char *Name) {
  if (!J->Tiers)
    return NULL;
  orc_rt_ErrorRef Err = orc_rt_jit_Tiers_compileEager(J->Tiers);
  /* (the entry point is the main JITDylib's, as lli looks it up) */
  return Err ? Err : orc_rt_jit_Tiers_startAtTier1(J->Tiers, J->JD, Name);
}

void orc_rt_jit_Jit_printTierStats(orc_rt_jit_Jit *J) {
  if (!J || !J->Opts->TieredStats)
    return;
  orc_rt_jit_TierStats St = {0};
  if (J->Tiers) {
    /* (the compile thread frees as it goes: the count is then final) */
    orc_rt_jit_Tiers_freeDrainedNow(J->Tiers);
    orc_rt_jit_Tiers_stats(J->Tiers, &St);
  }
  fflush(stdout);
  fprintf(stderr,
          "mini-lli: tiered: tier 0: %zu functions compiled in %.3f s, "
          "%zu freed\n"
          "mini-lli: tiered: tier 1: %zu functions compiled in %.3f s, "
          "%zu failed, %zu hot; %zu optimized first, %zu "
          "from the object cache\n",
          St.Tier0Functions, St.Tier0Seconds, St.Tier0Freed, St.Tier1Functions,
          St.Tier1Seconds, St.Failed, St.Hot, St.Optimized, St.Cached);
}

orc_rt_ErrorRef orc_rt_jit_Jit_dispose(orc_rt_jit_Jit *J) {
  if (!J)
    return NULL;
  orc_rt_Error_consume(ready(J)); /* J->CreateErr is freed below */
  orc_rt_ErrorRef Err = NULL;
  /* Objects linked while the program ran (orc-lazy's bodies), before the
   * JIT unregisters them. */
  if (J->J)
    orc_rt_jit_DebugDescriptor_dumpNew(J->Opts->Dump);
  /* The compile thread stops before the JIT it links into goes. */
  if (__atomic_load_n(&ProgramTiers, __ATOMIC_ACQUIRE) == J->Tiers)
    __atomic_store_n(&ProgramTiers, NULL, __ATOMIC_RELEASE);
  orc_rt_jit_Tiers_dispose(J->Tiers);
  J->Tiers = NULL;
  /* The lazy-call-through manager holds names from the JIT's symbol pool, and
   * the program's JITDylib holds stubs that refer to both managers: clear the
   * JITDylib, then free the managers, then the JIT (and its pool). */
  if (J->LCTM || J->ISM) {
    for (size_t I = J->NumNamed; I-- > 0;)
      Err = orc_rt_Error_join(
          Err,
          orc_rt_jit_fromLLVMError(LLVMOrcJITDylibClear(J->Named[I].JD), NULL));
    if (J->JD)
      Err = orc_rt_Error_join(
          Err, orc_rt_jit_fromLLVMError(LLVMOrcJITDylibClear(J->JD), NULL));
  }
  if (J->LCTM)
    LLVMOrcDisposeLazyCallThroughManager(J->LCTM);
  if (J->ISM)
    LLVMOrcDisposeIndirectStubsManager(J->ISM);
  for (size_t I = 0; I < J->NumNamed; ++I)
    if (J->Named[I].ISM)
      LLVMOrcDisposeIndirectStubsManager(J->Named[I].ISM);
  free(J->Named);
  if (J->J)
    Err = orc_rt_Error_join(
        Err, orc_rt_jit_fromLLVMError(LLVMOrcDisposeLLJIT(J->J), NULL));
  if (LazyJit == J)
    LazyJit = NULL;
  orc_rt_jit_EagerLink_dispose(&J->Eager);
  for (size_t I = 0; I < J->NumDeferred; ++I) { /* never compiled */
    LLVMDisposeModule(J->Deferred[I].M);
    LLVMContextDispose(J->Deferred[I].Ctx);
  }
  free(J->Deferred);
  orc_rt_jit_Interpreter_dispose(J->Interp);
  /* What nobody took is the program's error (the driver prints it). */
  Err = orc_rt_Error_join(Err, orc_rt_jit_Jit_takeSessionErrors(
                                   J, ORC_RT_JIT_SESSION_ERROR_BANNER));
  LLVMDisposeMessage(J->Triple);
  LLVMDisposeMessage(J->CPU);
  LLVMDisposeMessage(J->Features);
  free(J->Settings);
  if (J->MainTM)
    LLVMDisposeTargetMachine(J->MainTM);
  LLVMDisposeMessage(J->DataLayout);
  orc_rt_Error_consume(J->CreateErr);
  pthread_mutex_destroy(&J->Lock);
  orc_rt_jit_SerialCompile_dispose(&J->Serial);
  free(J);
  return Err;
}

void orc_rt_jit_Jit_markRunning(orc_rt_jit_Jit *J) {
  /* Before the threads that could read it start. */
  __atomic_store_n(&J->Running, true, __ATOMIC_RELAXED);
}

void orc_rt_jit_Jit_callVoid(orc_rt_jit_Jit *J, uint64_t Addr) {
  if (J->Interp)
    orc_rt_jit_Interpreter_callVoid(J->Interp, Addr);
  else
    ((void (*)(void))(uintptr_t)Addr)();
}

int orc_rt_jit_Jit_callMain(orc_rt_jit_Jit *J, uint64_t Addr, int Argc,
                            char **Argv, char **Envp) {
  if (J->Interp)
    return orc_rt_jit_Interpreter_callMain(J->Interp, Addr, Argc, Argv, Envp);
  return ((int (*)(int, char **, char **))(uintptr_t)Addr)(Argc, Argv, Envp);
}

bool orc_rt_jit_Jit_deferDtors(orc_rt_jit_Jit *J, const uint64_t *Dtors,
                               size_t N, size_t NumPrioritized,
                               uint64_t *Handle) {
  return J->Interp && orc_rt_jit_Interpreter_deferDtors(J->Interp, Dtors, N,
                                                        NumPrioritized, Handle);
}

void orc_rt_jit_Jit_endProgram(orc_rt_jit_Jit *J, int Status) {
  if (J->Interp)
    orc_rt_jit_Interpreter_exit(J->Interp, Status);
}
