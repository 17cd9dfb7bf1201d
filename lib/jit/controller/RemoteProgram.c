/*===- lib/jit/controller/RemoteProgram.c - Running a program in an executor process ===*/

#include "jit/controller/RemoteProgram.h"
#include "jit/compile/LinkInputs.h"
#include "jit/compile/SymbolImport.h"
#include "jit/controller/ExecutorClient.h"
#include "jit/controller/RemoteMemory.h"
#include "jit/controller/RemoteStart.h"
#include "jit/ir/EmuTLS.h"
#include "jit/ir/Module.h"
#include "jit/ir/WeakRefs.h"
#include "jit/lli/TargetOptions.h"
#include "jit/mcjit/MCJITFlags.h"
#include "jit/program/Jit.h"
#include "jit/support/Diag.h"

#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  const orc_rt_jit_Options *Opts;
  orc_rt_jit_Executor *E;
  orc_rt_jit_RemoteMemory *Mem;
  uint64_t *Libraries; /* the executor itself (""), then each -dlopen */
  size_t NumLibraries;
  LLVMOrcLLJITRef J;
  LLVMOrcExecutionSessionRef ES;
  LLVMOrcJITDylibRef JD;
  LLVMModuleRef *Modules; /* loaded, until added to the JIT */
  LLVMContextRef *Contexts;
  size_t NumModules;
  orc_rt_jit_InitList Ctors, Dtors;
  orc_rt_jit_MCJITFlags Flags; /* what lli's MCJIT's codegen flags do */
  orc_rt_jit_EagerLink Eager;  /* everything, linked before anything runs */
  pthread_mutex_t Lock;
  orc_rt_ErrorRef Reported; /* what the session reported, oldest first */
} Remote;

static void reportSessionError(void *Ctx, LLVMErrorRef Err) {
  Remote *R = Ctx;
  orc_rt_ErrorRef E =
      orc_rt_jit_fromLLVMError(Err, ORC_RT_JIT_SESSION_ERROR_BANNER);
  pthread_mutex_lock(&R->Lock);
  R->Reported = orc_rt_Error_join(R->Reported, E);
  pthread_mutex_unlock(&R->Lock);
}

/* The program's error: what the session reported first, then Err. */
static orc_rt_ErrorRef withReported(Remote *R, orc_rt_ErrorRef Err) {
  pthread_mutex_lock(&R->Lock);
  orc_rt_ErrorRef Reported = R->Reported;
  R->Reported = NULL;
  pthread_mutex_unlock(&R->Lock);
  if (!Err) {
    orc_rt_Error_consume(Reported);
    return NULL;
  }
  return orc_rt_Error_join(Reported, Err);
}

/*---- Symbols the executor defines ----*/

/* A definition generator for the program's JITDylib: every name the program
 * refers to and does not define is looked up in the executor, in the
 * executor itself first, then in each -dlopen library. */
static LLVMErrorRef resolveInExecutor(LLVMOrcDefinitionGeneratorRef G,
                                      void *Ctx, LLVMOrcLookupStateRef *State,
                                      LLVMOrcLookupKind Kind,
                                      LLVMOrcJITDylibRef JD,
                                      LLVMOrcJITDylibLookupFlags Flags,
                                      LLVMOrcCLookupSet Set, size_t N) {
  (void)G, (void)State, (void)Kind, (void)Flags;
  Remote *R = Ctx;
  const char **Names = calloc(N ? N : 1, sizeof(*Names));
  uint64_t *Addrs = calloc(N ? N : 1, sizeof(*Addrs));
  LLVMOrcCSymbolMapPairs Found = calloc(N ? N : 1, sizeof(*Found));
  orc_rt_ErrorRef Err =
      Names && Addrs && Found ? NULL : orc_rt_Error_create("out of memory");
  size_t NumFound = 0;
  for (size_t L = 0; !Err && L < R->NumLibraries; ++L) {
    size_t NumNames = 0;
    for (size_t I = 0; I < N; ++I)
      if (!Addrs[I])
        Names[NumNames++] = LLVMOrcSymbolStringPoolEntryStr(Set[I].Name);
    if (!NumNames)
      break;
    uint64_t *Got = calloc(NumNames, sizeof(*Got));
    Err = Got ? orc_rt_jit_Executor_resolve(R->E, R->Libraries[L], Names,
                                            NumNames, Got)
              : orc_rt_Error_create("out of memory");
    for (size_t I = 0, K = 0; !Err && I < N; ++I) {
      if (Addrs[I])
        continue;
      if ((Addrs[I] = Got[K++])) {
        Found[NumFound].Name = Set[I].Name;
        Found[NumFound].Sym.Address = Addrs[I];
        Found[NumFound].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported;
        Found[NumFound].Sym.Flags.TargetFlags = 0;
        ++NumFound;
      }
    }
    free(Got);
  }
  /* What is still missing, the lookup reports ("Symbols not found"). */
  if (!Err)
    orc_rt_jit_defineAbsolute(JD, Found, NumFound);
  free(Names);
  free(Addrs);
  free(Found);
  if (!Err)
    return NULL;
  LLVMErrorRef E = LLVMCreateStringError(orc_rt_Error_getMessage(Err));
  orc_rt_Error_consume(Err);
  return E;
}

/*---- Building the JIT ----*/

static LLVMOrcObjectLayerRef
createLayer(void *Ctx, LLVMOrcExecutionSessionRef ES, const char *Triple) {
  (void)Triple;
  Remote *R = Ctx;
  return orc_rt_jit_RemoteMemory_createLayer(R->Mem, ES);
}

static orc_rt_ErrorRef createJIT(Remote *R) {
  char *Triple, *CPU, *Features;
  LLVMRelocMode Reloc;
  LLVMCodeModel CodeModel;
  orc_rt_ErrorRef Err = orc_rt_jit_targetSettings(
      R->Opts, &Triple, &CPU, &Features, &Reloc, &CodeModel);
  LLVMTargetMachineRef TM = NULL;
  if (!Err) {
    TM = orc_rt_jit_createTargetMachine(
        Triple, CPU, Features, R->Flags.ABI,
        orc_rt_jit_codeGenLevel(R->Opts->OptLevel), Reloc, CodeModel);
    if (!TM)
      Err = orc_rt_Error_createf("no JIT target for triple '%s'", Triple);
  }
  if (!Err) {
    LLVMOrcLLJITBuilderRef B = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        B, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(TM));
    LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(B, createLayer, R);
    Err = orc_rt_jit_fromLLVMError(LLVMOrcCreateLLJIT(&R->J, B),
                                   "cannot create the JIT: ");
  }
  LLVMDisposeMessage(Triple);
  LLVMDisposeMessage(CPU);
  LLVMDisposeMessage(Features);
  if (Err)
    return Err;
  R->ES = LLVMOrcLLJITGetExecutionSession(R->J);
  LLVMOrcExecutionSessionSetErrorReporter(R->ES, reportSessionError, R);
  R->JD = LLVMOrcExecutionSessionCreateBareJITDylib(R->ES, "<program>");
  return NULL;
}

static void setTarget(Remote *R, LLVMModuleRef M) {
  LLVMSetDataLayout(M, LLVMOrcLLJITGetDataLayoutStr(R->J));
  if (!*LLVMGetTarget(M) || R->Opts->MTriple)
    LLVMSetTarget(M, LLVMOrcLLJITGetTripleString(R->J));
}

/* Takes C and M. */
static orc_rt_ErrorRef addModule(Remote *R, LLVMContextRef C, LLVMModuleRef M) {
  LLVMOrcThreadSafeContextRef TSC =
      LLVMOrcCreateNewThreadSafeContextFromLLVMContext(C);
  LLVMOrcThreadSafeModuleRef TSM = LLVMOrcCreateNewThreadSafeModule(M, TSC);
  LLVMOrcDisposeThreadSafeContext(TSC);
  LLVMErrorRef E = LLVMOrcLLJITAddLLVMIRModule(R->J, R->JD, TSM);
  if (E)
    LLVMOrcDisposeThreadSafeModule(TSM);
  return orc_rt_jit_fromLLVMError(E, NULL);
}

/* Reads, parses and prepares one of the program's modules: its constructors
 * and destructors taken out (run through the executor), and its thread_local
 * variables made emulated TLS, on the executor's __emutls_get_address
 * (libgcc_s), since RuntimeDyld allocates no TLS. */
static orc_rt_ErrorRef loadModuleFile(Remote *R, const char *Path,
                                      unsigned Index) {
  LLVMMemoryBufferRef Buf;
  LLVMContextRef C;
  LLVMModuleRef M;
  orc_rt_ErrorRef Err = orc_rt_jit_readInput(Path, &Buf);
  if (Err || (Err = orc_rt_jit_parseModule(Path, Buf, &C, &M)))
    return Err;
  setTarget(R, M);
  Err = orc_rt_jit_takeInitializers(M, Index, &R->Ctors, &R->Dtors);
  if (!Err)
    Err = orc_rt_jit_lowerEmulatedTLS(M);
  if (!Err)
    Err = orc_rt_jit_MCJITFlags_apply(&R->Flags, M, NULL);
  if (Err) {
    LLVMDisposeModule(M);
    LLVMContextDispose(C);
    return Err;
  }
  R->Contexts[R->NumModules] = C;
  R->Modules[R->NumModules++] = M;
  return NULL;
}

/* Whether the executor, or a -dlopen library in it, defines Name (see
 * WeakRefs.h). */
static orc_rt_ErrorRef resolveWeak(const char *Name, bool *Found, void *Ctx) {
  Remote *R = Ctx;
  orc_rt_ErrorRef Err = NULL;
  uint64_t Addr = 0;
  for (size_t L = 0; !Addr && !Err && L < R->NumLibraries; ++L)
    Err = orc_rt_jit_Executor_resolve(R->E, R->Libraries[L], &Name, 1, &Addr);
  *Found = Addr != 0;
  return Err;
}

/* The executor, its libraries and memory, the JIT, and the program in it. */
static orc_rt_ErrorRef setUp(Remote *R) {
  const orc_rt_jit_Options *O = R->Opts;
  orc_rt_ErrorRef Err = orc_rt_jit_Executor_launch(&R->E, O->RemoteProcess);
  R->Libraries = calloc(O->DLOpens.Size + 1, sizeof(uint64_t));
  if (!Err && !R->Libraries)
    Err = orc_rt_Error_create("out of memory");
  if (!Err)
    Err = orc_rt_jit_Executor_open(R->E, "", &R->Libraries[0]);
  R->NumLibraries = Err ? 0 : 1;
  for (size_t I = 0; !Err && I < O->DLOpens.Size; ++I)
    if (!(Err = orc_rt_jit_Executor_open(R->E, O->DLOpens.Items[I],
                                         &R->Libraries[R->NumLibraries])))
      ++R->NumLibraries;
  if (!Err)
    Err = orc_rt_jit_RemoteMemory_create(&R->Mem, R->E);
  if (!Err)
    Err = createJIT(R);
  size_t N = O->ExtraModules.Size + 1;
  R->Modules = calloc(N, sizeof(*R->Modules));
  R->Contexts = calloc(N, sizeof(*R->Contexts));
  if (!Err && (!R->Modules || !R->Contexts))
    Err = orc_rt_Error_create("out of memory");
  if (!Err)
    Err = loadModuleFile(R, O->Input, 0);
  for (size_t I = 0; !Err && I < O->ExtraModules.Size; ++I)
    Err = loadModuleFile(R, O->ExtraModules.Items[I], (unsigned)I + 1);
  for (size_t I = 0; !Err && I < R->NumModules; ++I)
    Err = orc_rt_jit_nullUndefinedWeak(R->Modules[I], R->Modules, R->NumModules,
                                       resolveWeak, R);
  for (size_t I = 0; I < R->NumModules; ++I) { /* each taken by addModule */
    if (!Err)
      Err = orc_rt_jit_EagerLink_noteModule(&R->Eager, R->Modules[I]);
    if (!Err)
      Err = addModule(R, R->Contexts[I], R->Modules[I]);
    else
      LLVMDisposeModule(R->Modules[I]), LLVMContextDispose(R->Contexts[I]);
  }
  R->NumModules = 0;
  for (size_t I = 0; !Err && I < O->ExtraObjects.Size; ++I)
    Err = orc_rt_jit_addObjectFile(R->J, R->JD, O->ExtraObjects.Items[I],
                                   &R->Eager);
  for (size_t I = 0; !Err && I < O->ExtraArchives.Size; ++I)
    Err = orc_rt_jit_addArchive(R->J, R->JD, O->ExtraArchives.Items[I]);
  if (!Err) {
    LLVMOrcJITDylibAddGenerator(
        R->JD,
        LLVMOrcCreateCustomCAPIDefinitionGenerator(resolveInExecutor, R, NULL));
    orc_rt_jit_InitList_sort(&R->Ctors);
    orc_rt_jit_InitList_sort(&R->Dtors);
    LLVMContextRef C = LLVMContextCreate();
    LLVMModuleRef M;
    Err = orc_rt_jit_remoteStartModule(C, O->EntryFunction, &R->Dtors, &M);
    if (Err) {
      LLVMContextDispose(C);
    } else {
      setTarget(R, M);
      Err = addModule(R, C, M);
    }
  }
  return Err;
}

/*---- Running ----*/

static orc_rt_ErrorRef lookup(Remote *R, const char *const *Names, size_t N,
                              uint64_t *Addrs) {
  LLVMOrcSymbolStringPoolEntryRef *Interned = calloc(N, sizeof(*Interned));
  if (!Interned)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < N; ++I)
    Interned[I] = LLVMOrcLLJITMangleAndIntern(R->J, Names[I]);
  LLVMErrorRef E =
      orc_rt_jit_lookupAndWait(R->ES, R->JD, Interned, N, Addrs, NULL, NULL);
  for (size_t I = 0; I < N; ++I)
    LLVMOrcReleaseSymbolStringPoolEntry(Interned[I]);
  free(Interned);
  return withReported(R, orc_rt_jit_fromLLVMError(E, NULL));
}

/* Called when the executor went away during a call: the program ended the
 * process itself (exit, a signal). */
static orc_rt_ErrorRef executorEnded(Remote *R, int *Status) {
  int Wait;
  orc_rt_jit_Executor_close(R->E, &Wait);
  R->E = NULL;
  if (WIFEXITED(Wait)) {
    *Status = WEXITSTATUS(Wait);
    return NULL;
  }
  if (WIFSIGNALED(Wait)) {
    /* As the native program: mini-lli ends by the same signal. */
    int Sig = WTERMSIG(Wait);
    fflush(NULL);
    signal(Sig, SIG_DFL);
    sigset_t Set;
    sigemptyset(&Set);
    sigaddset(&Set, Sig);
    pthread_sigmask(SIG_UNBLOCK, &Set, NULL);
    raise(Sig);
  }
  if (WIFSIGNALED(Wait)) /* it did not end mini-lli */
    return orc_rt_Error_createf("executor process '%s' was killed by signal "
                                "%d (%s)",
                                R->Opts->RemoteProcess, WTERMSIG(Wait),
                                strsignal(WTERMSIG(Wait)));
  return orc_rt_Error_createf("executor process '%s' disconnected",
                              R->Opts->RemoteProcess);
}

/* In the executor: the destructors' handler, the constructors, then main
 * and exit(main's value) (REMOTE_MAIN), which runs the program's atexit handlers
 * and destructors and ends the executor with the program's status, without
 * waiting for the program's other threads, as natively. */
static orc_rt_ErrorRef run(Remote *R, int *Status) {
  const orc_rt_jit_Options *O = R->Opts;
  /* Everything is linked before anything runs, as MCJIT does. */
  size_t N = R->Ctors.Size + 2;
  const char **Names = calloc(N, sizeof(*Names));
  uint64_t *Addrs = calloc(N, sizeof(*Addrs));
  orc_rt_ErrorRef Err =
      Names && Addrs ? NULL : orc_rt_Error_create("out of memory");
  if (!Err)
    Err = withReported(
        R, orc_rt_jit_fromLLVMError(
               orc_rt_jit_EagerLink_run(&R->Eager, R->J, R->JD), NULL));
  /* The entry alone first: its failure names the user's symbols only. */
  if (!Err)
    Err = lookup(R, &O->EntryFunction, 1, Addrs);
  if (!Err) {
    Names[0] = REMOTE_MAIN;
    Names[1] = REMOTE_REGISTER_DTORS;
    for (size_t I = 0; I < R->Ctors.Size; ++I)
      Names[I + 2] = R->Ctors.Items[I].Symbol;
    Err = lookup(R, Names, N, Addrs);
  }
  free(Names);
  int32_t Ignored;
  for (size_t I = 1; !Err && I < N; ++I)
    Err = orc_rt_jit_Executor_runAsInt(R->E, Addrs[I], false, 0, &Ignored);
  char **Argv = Err ? NULL : calloc((size_t)O->ProgramArgc + 1, sizeof(*Argv));
  if (!Err && !Argv)
    Err = orc_rt_Error_create("out of memory");
  int64_t Result = 0;
  if (!Err) {
    memcpy(Argv, O->ProgramArgv, (size_t)O->ProgramArgc * sizeof(*Argv));
    if (O->FakeArgv0)
      Argv[0] = (char *)O->FakeArgv0;
    fflush(NULL); /* what mini-lli said comes before the program's output */
    Err = orc_rt_jit_Executor_runAsMain(R->E, Addrs[0], O->ProgramArgc, Argv,
                                        &Result);
  }
  *Status = (int)Result;
  free(Argv);
  free(Addrs);
  if (Err && orc_rt_jit_Executor_disconnected(R->E)) {
    orc_rt_Error_consume(Err);
    return executorEnded(R, Status);
  }
  if (!Err) /* REMOTE_MAIN does not return */
    Err = orc_rt_Error_create("the executor did not end at exit");
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_runRemote(const orc_rt_jit_Options *Opts,
                                     int *Status) {
  if (!Opts->DisableLazyCompilation)
    fprintf(stderr, "mini-lli: warning: remote mcjit does not support lazy "
                    "compilation\n");
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  /* Inline assembly (module or function level) is parsed when an object is
   * emitted: without the parser LLVM aborts the process. */
  LLVMInitializeNativeAsmParser();
  Remote R = {.Opts = Opts};
  orc_rt_jit_MCJITFlags_read(Opts, &R.Flags);
  pthread_mutex_init(&R.Lock, NULL);
  *Status = 1;
  orc_rt_ErrorRef Err = setUp(&R);
  if (!Err)
    Err = run(&R, Status);
  Err = withReported(&R, Err);
  if (R.J) /* first: the JIT's objects free their memory managers */
    Err = orc_rt_Error_join(
        Err, orc_rt_jit_fromLLVMError(LLVMOrcDisposeLLJIT(R.J), NULL));
  orc_rt_jit_RemoteMemory_dispose(R.Mem);
  if (R.E) {
    int Wait;
    orc_rt_jit_Executor_close(R.E, &Wait);
    if (!Err && !(WIFEXITED(Wait) && WEXITSTATUS(Wait) == 0))
      Err = orc_rt_Error_createf(
          "executor process '%s' failed at its end (wait status %d)",
          Opts->RemoteProcess, Wait);
  }
  orc_rt_jit_InitList_dispose(&R.Ctors);
  orc_rt_jit_InitList_dispose(&R.Dtors);
  orc_rt_jit_EagerLink_dispose(&R.Eager);
  for (size_t I = 0; I < R.NumModules; ++I) { /* loading failed */
    LLVMDisposeModule(R.Modules[I]);
    LLVMContextDispose(R.Contexts[I]);
  }
  free(R.Modules);
  free(R.Contexts);
  free(R.Libraries);
  pthread_mutex_destroy(&R.Lock);
  return Err;
}
