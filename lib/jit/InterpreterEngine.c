/*===- lib/jit/InterpreterEngine.c - -force-interpreter: LLVM's interpreter ===*/

#include "jit/InterpreterEngine.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/Linker.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct orc_rt_jit_Interpreter {
  LLVMExecutionEngineRef EE; /* made on the first lookup */
  LLVMModuleRef Main;        /* every module, linked into the first */
  LLVMContextRef Ctx;        /* Main's */
};

/* The interpreter's own printf writes to LLVM's outs() buffer, which neither
 * stdio's flush nor the driver's end of the process (fflush, _exit) reach:
 * output would be lost on exit() and out of order with puts. Its fprintf
 * writes with fputs, so printf(...) becomes fprintf(stdout, ...). */
static void routePrintfThroughStdio(LLVMModuleRef M) {
  LLVMValueRef Printf = LLVMGetNamedFunction(M, "printf");
  if (!Printf || !LLVMIsDeclaration(Printf) || !LLVMGetFirstUse(Printf))
    return;
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMTypeRef Ptr = LLVMPointerTypeInContext(C, 0);
  LLVMTypeRef Params[] = {Ptr, Ptr};
  LLVMTypeRef FTy =
      LLVMFunctionType(LLVMInt32TypeInContext(C), Params, 2, /*IsVarArg=*/1);
  LLVMValueRef Fprintf = LLVMGetNamedFunction(M, "fprintf");
  if (!Fprintf)
    Fprintf = LLVMAddFunction(M, "fprintf", FTy);
  LLVMValueRef Stdout = LLVMGetNamedGlobal(M, "stdout");
  if (!Stdout)
    Stdout = LLVMAddGlobal(M, Ptr, "stdout"); /* libc's */
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  for (LLVMUseRef U = LLVMGetFirstUse(Printf), Next; U; U = Next) {
    Next = LLVMGetNextUse(U);
    LLVMValueRef Call = LLVMGetUser(U);
    if (!LLVMIsACallInst(Call) || LLVMGetCalledValue(Call) != Printf)
      continue;
    unsigned N = LLVMGetNumArgOperands(Call);
    LLVMValueRef *Args = malloc((N + 1) * sizeof(*Args));
    if (!Args)
      break;
    LLVMPositionBuilderBefore(B, Call);
    Args[0] = LLVMBuildLoad2(B, Ptr, Stdout, "");
    for (unsigned I = 0; I < N; ++I)
      Args[I + 1] = LLVMGetOperand(Call, I);
    LLVMValueRef New = LLVMBuildCall2(B, FTy, Fprintf, Args, N + 1, "");
    LLVMReplaceAllUsesWith(Call, New);
    LLVMInstructionEraseFromParent(Call);
    free(Args);
  }
  LLVMDisposeBuilder(B);
}

orc_rt_ErrorRef orc_rt_jit_Interpreter_create(orc_rt_jit_Interpreter **Result) {
  LLVMLinkInInterpreter();
  orc_rt_jit_Interpreter *E = calloc(1, sizeof(*E));
  if (!E)
    return orc_rt_Error_create("out of memory");
  *Result = E;
  return NULL;
}

/* The interpreter calls a function another module defines as an unknown
 * external (lli -force-interpreter -extra-module aborts so): the modules
 * are linked into one, through bitcode since each has its own context. */
static orc_rt_ErrorRef linkIntoMain(orc_rt_jit_Interpreter *E,
                                    LLVMContextRef Ctx, LLVMModuleRef M) {
  LLVMMemoryBufferRef Bits = LLVMWriteBitcodeToMemoryBuffer(M);
  LLVMDisposeModule(M);
  LLVMContextDispose(Ctx);
  LLVMModuleRef Copy;
  if (!Bits || LLVMParseBitcodeInContext2(E->Ctx, Bits, &Copy)) {
    if (Bits)
      LLVMDisposeMemoryBuffer(Bits);
    return orc_rt_Error_create("cannot copy a module for the interpreter");
  }
  LLVMDisposeMemoryBuffer(Bits);
  if (LLVMLinkModules2(E->Main, Copy)) /* consumes Copy */
    return orc_rt_Error_create("cannot link the modules for the interpreter "
                               "(a symbol is defined twice?)");
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_Interpreter_addModule(orc_rt_jit_Interpreter *E,
                                                 LLVMContextRef Ctx,
                                                 LLVMModuleRef M) {
  routePrintfThroughStdio(M);
  if (E->EE) {
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
    return orc_rt_Error_create("a module was added after the program ran");
  }
  if (!E->Main) {
    E->Main = M;
    E->Ctx = Ctx;
    return NULL;
  }
  return linkIntoMain(E, Ctx, M);
}

/* An interpreted program ends through its exit(): the interpreter's own,
 * which runs the handlers interpreted code gave its atexit (and so the
 * destructors: orc_rt_jit_Interpreter_deferDtors). */
static LLVMValueRef exitFunction(LLVMModuleRef M) {
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMTypeRef I32 = LLVMInt32TypeInContext(C);
  LLVMTypeRef FTy = LLVMFunctionType(LLVMVoidTypeInContext(C), &I32, 1, 0);
  LLVMValueRef F = LLVMGetNamedFunction(M, "exit");
  if (!F)
    F = LLVMAddFunction(M, "exit", FTy);
  return LLVMGlobalGetValueType(F) == FTy ? F : NULL;
}

/* An extern_weak declaration nothing defines is null, as the static linker
 * makes it. The interpreter would take a function's LLVMValueRef as its
 * address (never null) and abort on any variable it cannot resolve, so such
 * a variable is also deleted. */
static bool nullUndefinedWeak(LLVMValueRef G) {
  if (!LLVMIsDeclaration(G) || LLVMGetLinkage(G) != LLVMExternalWeakLinkage ||
      dlsym(RTLD_DEFAULT, LLVMGetValueName(G)))
    return false;
  LLVMReplaceAllUsesWith(G, LLVMConstNull(LLVMTypeOf(G)));
  return true;
}

/* The interpreter lowers intrinsics with LLVM's IntrinsicLowering, which knows
 * no llvm.smax, smin, umax, umin or abs (clang -O1 emits them) and aborts on
 * them (lli-22 too): each becomes the compare and select it stands for. */
static LLVMValueRef lowerMinMax(LLVMBuilderRef B, LLVMValueRef Call,
                                unsigned ID) {
  static const struct {
    const char *Name;
    LLVMIntPredicate Pred;
  } Ops[] = {{"llvm.smax", LLVMIntSGT},
             {"llvm.smin", LLVMIntSLT},
             {"llvm.umax", LLVMIntUGT},
             {"llvm.umin", LLVMIntULT},
             {"llvm.abs", LLVMIntSLT}};
  LLVMTypeRef Ty = LLVMTypeOf(Call);
  if (LLVMGetTypeKind(Ty) != LLVMIntegerTypeKind)
    return NULL;
  for (size_t I = 0; I < sizeof(Ops) / sizeof(Ops[0]); ++I) {
    if (ID != LLVMLookupIntrinsicID(Ops[I].Name, strlen(Ops[I].Name)))
      continue;
    LLVMPositionBuilderBefore(B, Call);
    LLVMValueRef A = LLVMGetOperand(Call, 0);
    if (!strcmp(Ops[I].Name, "llvm.abs")) {
      LLVMValueRef Zero = LLVMConstNull(Ty);
      LLVMValueRef Neg = LLVMBuildICmp(B, Ops[I].Pred, A, Zero, "");
      return LLVMBuildSelect(B, Neg, LLVMBuildSub(B, Zero, A, ""), A, "");
    }
    LLVMValueRef C = LLVMGetOperand(Call, 1);
    LLVMValueRef Pick = LLVMBuildICmp(B, Ops[I].Pred, A, C, "");
    return LLVMBuildSelect(B, Pick, A, C, "");
  }
  return NULL;
}

/* The interpreter widens a narrow integer that an external function returns
 * through libffi without masking it to its width (APInt(32, int32_t) keeps
 * the sign bits), so a returned -1 compares unequal to the constant -1 and a
 * getopt() or fgetc() loop never ends (lli-22 too): an `and` with all ones
 * after each such call masks the value. */
static void maskNarrowResult(LLVMBuilderRef B, LLVMValueRef Call) {
  LLVMTypeRef Ty = LLVMTypeOf(Call);
  if (LLVMGetTypeKind(Ty) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(Ty) >= 64 || !LLVMGetFirstUse(Call))
    return;
  LLVMPositionBuilderBefore(B, LLVMGetNextInstruction(Call));
  LLVMValueRef Mask = LLVMBuildAnd(B, Call, LLVMConstAllOnes(Ty), "");
  LLVMReplaceAllUsesWith(Call, Mask);
  LLVMSetOperand(Mask, 0, Call); /* RAUW made it use itself */
}

/* glibc's headers call sscanf and scanf __isoc99_sscanf and __isoc99_scanf;
 * the interpreter has its own sscanf and scanf (a variadic external it would
 * otherwise refuse to call) under the plain names only. */
static void useInterpreterScanf(LLVMModuleRef M) {
  static const char *const Names[][2] = {{"__isoc99_sscanf", "sscanf"},
                                         {"__isoc99_scanf", "scanf"}};
  for (size_t I = 0; I < sizeof(Names) / sizeof(Names[0]); ++I) {
    LLVMValueRef F = LLVMGetNamedFunction(M, Names[I][0]);
    if (!F || !LLVMIsDeclaration(F))
      continue;
    LLVMValueRef Plain = LLVMGetNamedFunction(M, Names[I][1]);
    if (!Plain) {
      LLVMSetValueName2(F, Names[I][1], strlen(Names[I][1]));
    } else if (LLVMIsDeclaration(Plain) &&
               LLVMGlobalGetValueType(Plain) == LLVMGlobalGetValueType(F)) {
      LLVMReplaceAllUsesWith(F, Plain);
      LLVMDeleteFunction(F);
    }
  }
}

/* Every call M makes to a declared function, made interpretable. */
static void prepareCalls(LLVMModuleRef M) {
  LLVMBuilderRef B = LLVMCreateBuilderInContext(LLVMGetModuleContext(M));
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(F); BB;
         BB = LLVMGetNextBasicBlock(BB))
      for (LLVMValueRef I = LLVMGetFirstInstruction(BB), Next; I; I = Next) {
        Next = LLVMGetNextInstruction(I);
        LLVMValueRef Callee = LLVMIsACallInst(I) ? LLVMGetCalledValue(I) : NULL;
        if (!Callee || !LLVMIsAFunction(Callee) || !LLVMIsDeclaration(Callee))
          continue;
        unsigned ID = LLVMGetIntrinsicID(Callee);
        if (!ID) {
          maskNarrowResult(B, I);
          continue;
        }
        LLVMValueRef Lowered = lowerMinMax(B, I, ID);
        if (Lowered) {
          LLVMReplaceAllUsesWith(I, Lowered);
          LLVMInstructionEraseFromParent(I);
        }
      }
  LLVMDisposeBuilder(B);
}

static orc_rt_ErrorRef ready(orc_rt_jit_Interpreter *E) {
  if (E->EE)
    return NULL;
  if (!E->Main)
    return orc_rt_Error_create("no module to interpret");
  exitFunction(E->Main);
  for (LLVMValueRef F = LLVMGetFirstFunction(E->Main); F;
       F = LLVMGetNextFunction(F))
    nullUndefinedWeak(F);
  for (LLVMValueRef G = LLVMGetFirstGlobal(E->Main), Next; G; G = Next) {
    Next = LLVMGetNextGlobal(G);
    if (nullUndefinedWeak(G))
      LLVMDeleteGlobal(G);
  }
  useInterpreterScanf(E->Main);
  prepareCalls(E->Main);
  char *Msg = NULL;
  if (LLVMCreateInterpreterForModule(&E->EE, E->Main, &Msg)) {
    orc_rt_ErrorRef Err =
        orc_rt_Error_createf("error creating EE: %s", Msg ? Msg : "");
    LLVMDisposeMessage(Msg);
    E->EE = NULL;
    return Err;
  }
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_Interpreter_lookup(orc_rt_jit_Interpreter *E,
                                              const char *Name,
                                              uint64_t *Handle) {
  orc_rt_ErrorRef Err = ready(E);
  if (Err)
    return Err;
  LLVMValueRef F;
  if (LLVMFindFunction(E->EE, Name, &F) || LLVMIsDeclaration(F))
    return orc_rt_Error_createf("Symbols not found: [ %s ]", Name);
  *Handle = (uint64_t)(uintptr_t)F;
  return NULL;
}

void orc_rt_jit_Interpreter_callVoid(orc_rt_jit_Interpreter *E,
                                     uint64_t Handle) {
  LLVMValueRef F = (LLVMValueRef)(uintptr_t)Handle;
  LLVMDisposeGenericValue(LLVMRunFunction(E->EE, F, 0, NULL));
}

int orc_rt_jit_Interpreter_callMain(orc_rt_jit_Interpreter *E, uint64_t Handle,
                                    int Argc, char **Argv, char **Envp) {
  LLVMValueRef F = (LLVMValueRef)(uintptr_t)Handle;
  return LLVMRunFunctionAsMain(E->EE, F, (unsigned)Argc,
                               (const char *const *)Argv,
                               (const char *const *)Envp);
}

/* Natively the program's atexit handlers run newest first and then its
 * destructors, on return from main and on exit() alike, and a handler that a
 * destructor registers runs next, before the following destructor (glibc).
 * The interpreter keeps the handlers itself and runs them, newest first,
 * from its exit(); each destructor given to that atexit before the
 * constructors run is such a handler, registered before any of the program's.
 * The function built here does that: atexit(Dtors[0]), ..., atexit(Dtors[N-1]),
 * so Dtors[N-1] runs first. */
bool orc_rt_jit_Interpreter_deferDtors(orc_rt_jit_Interpreter *E,
                                       const uint64_t *Dtors, size_t N,
                                       uint64_t *Handle) {
  if (!E->EE)
    return false;
  LLVMModuleRef M = E->Main;
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMTypeRef Ptr = LLVMPointerTypeInContext(C, 0);
  LLVMTypeRef AtexitTy =
      LLVMFunctionType(LLVMInt32TypeInContext(C), &Ptr, 1, /*IsVarArg=*/0);
  LLVMTypeRef VoidTy = LLVMFunctionType(LLVMVoidTypeInContext(C), NULL, 0, 0);
  LLVMValueRef Atexit = LLVMGetNamedFunction(M, "atexit");
  if (!Atexit)
    Atexit = LLVMAddFunction(M, "atexit", AtexitTy);
  /* Only a declaration is the interpreter's own atexit. */
  if (!LLVMIsDeclaration(Atexit) || LLVMGlobalGetValueType(Atexit) != AtexitTy)
    return false;
  for (size_t I = 0; I < N; ++I)
    if (LLVMGlobalGetValueType((LLVMValueRef)(uintptr_t)Dtors[I]) != VoidTy)
      return false;
  LLVMValueRef F = LLVMAddFunction(M, "__mini_lli.atexit_dtors", VoidTy);
  LLVMSetLinkage(F, LLVMInternalLinkage);
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, F, ""));
  for (size_t I = 0; I < N; ++I) {
    LLVMValueRef Arg = (LLVMValueRef)(uintptr_t)Dtors[I];
    LLVMBuildCall2(B, AtexitTy, Atexit, &Arg, 1, "");
  }
  LLVMBuildRetVoid(B);
  LLVMDisposeBuilder(B);
  *Handle = (uint64_t)(uintptr_t)F;
  return true;
}

void orc_rt_jit_Interpreter_exit(orc_rt_jit_Interpreter *E, int Status) {
  LLVMValueRef Exit = E->EE ? exitFunction(E->Main) : NULL;
  if (!Exit)
    return;
  LLVMContextRef C = LLVMGetModuleContext(E->Main);
  LLVMGenericValueRef Arg = LLVMCreateGenericValueOfInt(
      LLVMInt32TypeInContext(C), (unsigned long long)(unsigned)Status, 0);
  LLVMRunFunction(E->EE, Exit, 1, &Arg); /* does not return */
  LLVMDisposeGenericValue(Arg);
}

void orc_rt_jit_Interpreter_dispose(orc_rt_jit_Interpreter *E) {
  if (!E)
    return;
  if (E->EE)
    LLVMDisposeExecutionEngine(E->EE); /* and Main */
  else if (E->Main)
    LLVMDisposeModule(E->Main);
  if (E->Ctx)
    LLVMContextDispose(E->Ctx);
  free(E);
}
