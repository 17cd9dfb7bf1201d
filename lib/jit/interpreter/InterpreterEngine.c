/*===- lib/jit/interpreter/InterpreterEngine.c - -force-interpreter: LLVM's interpreter ===*/

#include "jit/interpreter/InterpreterEngine.h"
#include "jit/support/GrowArray.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Support.h>

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
 * writes with fputs, so printf(...) becomes fprintf(stdout, ...) (a call or
 * an invoke). */
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
    bool Invoke = LLVMIsAInvokeInst(Call); /* C++: printf in a noexcept */
    if ((!Invoke && !LLVMIsACallInst(Call)) ||
        LLVMGetCalledValue(Call) != Printf)
      continue;
    unsigned N = LLVMGetNumArgOperands(Call);
    LLVMValueRef *Args = malloc((N + 1) * sizeof(*Args));
    if (!Args)
      break;
    LLVMPositionBuilderBefore(B, Call);
    Args[0] = LLVMBuildLoad2(B, Ptr, Stdout, "");
    for (unsigned I = 0; I < N; ++I)
      Args[I + 1] = LLVMGetOperand(Call, I);
    LLVMValueRef New = Invoke
                           ? LLVMBuildInvoke2(B, FTy, Fprintf, Args, N + 1,
                                              LLVMGetNormalDest(Call),
                                              LLVMGetUnwindDest(Call), "")
                           : LLVMBuildCall2(B, FTy, Fprintf, Args, N + 1, "");
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

/* The interpreter maps no i1 to a libffi type (it reaches llvm_unreachable,
 * and so crashes: lli-22 too), and C++ passes bool to libstdc++ as i1 (e.g.
 * std::map's _Rb_tree_insert_and_rebalance). An external function that takes
 * or returns i1 is declared with i8 instead, as the ABI passes a bool: each
 * call zero-extends its i1 arguments and truncates the result. */
static LLVMTypeRef widenBool(LLVMTypeRef Ty, LLVMTypeRef I8, bool *Changed) {
  if (LLVMGetTypeKind(Ty) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(Ty) != 1)
    return Ty;
  *Changed = true;
  return I8;
}

static void widenBoolCall(LLVMBuilderRef B, LLVMValueRef Call,
                          LLVMValueRef NewF, LLVMTypeRef NewTy) {
  unsigned N = LLVMGetNumArgOperands(Call);
  LLVMValueRef *Args = malloc((N + 1) * sizeof(*Args));
  LLVMTypeRef *Params = malloc((N + 1) * sizeof(*Params));
  if (!Args || !Params) {
    free(Args);
    free(Params);
    return;
  }
  LLVMGetParamTypes(NewTy, Params);
  LLVMPositionBuilderBefore(B, Call);
  for (unsigned I = 0; I < N; ++I) {
    Args[I] = LLVMGetOperand(Call, I);
    if (LLVMTypeOf(Args[I]) != Params[I])
      Args[I] = LLVMBuildZExt(B, Args[I], Params[I], "");
  }
  LLVMValueRef New =
      LLVMIsAInvokeInst(Call)
          ? LLVMBuildInvoke2(B, NewTy, NewF, Args, N, LLVMGetNormalDest(Call),
                             LLVMGetUnwindDest(Call), "")
          : LLVMBuildCall2(B, NewTy, NewF, Args, N, "");
  LLVMValueRef Result = New;
  if (LLVMTypeOf(New) != LLVMTypeOf(Call)) {
    /* After an invoke the value is available in its normal destination. */
    if (LLVMIsAInvokeInst(Call)) {
      LLVMValueRef At = LLVMGetFirstInstruction(LLVMGetNormalDest(Call));
      while (LLVMIsAPHINode(At))
        At = LLVMGetNextInstruction(At);
      LLVMPositionBuilderBefore(B, At);
    }
    Result = LLVMBuildTrunc(B, New, LLVMTypeOf(Call), "");
  }
  LLVMReplaceAllUsesWith(Call, Result);
  LLVMInstructionEraseFromParent(Call);
  free(Args);
  free(Params);
}

static void widenBoolExternals(LLVMModuleRef M) {
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMTypeRef I8 = LLVMInt8TypeInContext(C);
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  for (LLVMValueRef F = LLVMGetFirstFunction(M), Next; F; F = Next) {
    Next = LLVMGetNextFunction(F);
    LLVMTypeRef FTy = LLVMGlobalGetValueType(F);
    if (!LLVMIsDeclaration(F) || LLVMGetIntrinsicID(F) ||
        LLVMIsFunctionVarArg(FTy))
      continue;
    unsigned N = LLVMCountParamTypes(FTy);
    LLVMTypeRef *Params = malloc((N + 1) * sizeof(*Params));
    if (!Params)
      break;
    LLVMGetParamTypes(FTy, Params);
    bool Changed = false;
    for (unsigned I = 0; I < N; ++I)
      Params[I] = widenBool(Params[I], I8, &Changed);
    LLVMTypeRef Ret = widenBool(LLVMGetReturnType(FTy), I8, &Changed);
    bool OnlyCalled = true; /* an i1 function whose address is taken stays */
    for (LLVMUseRef U = LLVMGetFirstUse(F); U && OnlyCalled;
         U = LLVMGetNextUse(U)) {
      LLVMValueRef User = LLVMGetUser(U);
      OnlyCalled = (LLVMIsACallInst(User) || LLVMIsAInvokeInst(User)) &&
                   LLVMGetCalledValue(User) == F;
    }
    if (Changed && OnlyCalled) {
      size_t Len;
      const char *Name = LLVMGetValueName2(F, &Len);
      char *Copy = strndup(Name, Len);
      LLVMTypeRef NewTy = LLVMFunctionType(Ret, Params, N, 0);
      LLVMSetValueName2(F, "", 0);
      LLVMValueRef NewF = Copy ? LLVMAddFunction(M, Copy, NewTy) : NULL;
      free(Copy);
      for (LLVMUseRef U = NewF ? LLVMGetFirstUse(F) : NULL, UNext; U;
           U = UNext) {
        UNext = LLVMGetNextUse(U);
        widenBoolCall(B, LLVMGetUser(U), NewF, NewTy);
      }
      if (NewF)
        LLVMDeleteFunction(F);
    }
    free(Params);
  }
  LLVMDisposeBuilder(B);
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

/* __cxa_atexit(Fn, Arg, DSO), which C++ uses for static objects, would give
 * glibc the interpreted Fn (an LLVM function, not code) and the interpreter
 * has none of its own. The pairs are kept here, in the order made, and each
 * call registers one interpreted handler with the interpreter's atexit that
 * calls the newest pair it finds: as both lists run newest first, each handler
 * takes its own pair, and handlers of both kinds keep their relative order.
 * The interpreter runs on one thread: no lock. */
static struct {
  void **Items; /* Fn, Arg, Fn, Arg, ... */
  size_t Size, Capacity;
} CxaPairs;

static void pushCxaPair(void *Fn, void *Arg) {
  if (!orc_rt_jit_growArray(&CxaPairs.Items, &CxaPairs.Capacity,
                            CxaPairs.Size + 2, sizeof(*CxaPairs.Items)))
    abort(); /* as glibc's __cxa_atexit cannot fail silently */
  CxaPairs.Items[CxaPairs.Size++] = Fn;
  CxaPairs.Items[CxaPairs.Size++] = Arg;
}

static void popCxaPair(void **Fn, void **Arg) {
  *Arg = CxaPairs.Items[--CxaPairs.Size];
  *Fn = CxaPairs.Items[--CxaPairs.Size];
}

/* The interpreter calls a declared function by name through the process's
 * symbols, where LLVMAddSymbol puts these two. */
static LLVMValueRef nativeHelper(LLVMModuleRef M, const char *Name,
                                 void (*Fn)(void)) {
  void *Addr;
  memcpy(&Addr, &Fn, sizeof(Addr)); /* POSIX: a function's address fits */
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMTypeRef Ptr = LLVMPointerTypeInContext(C, 0);
  LLVMTypeRef Params[] = {Ptr, Ptr};
  LLVMAddSymbol(Name, Addr);
  return LLVMAddFunction(
      M, Name, LLVMFunctionType(LLVMVoidTypeInContext(C), Params, 2, 0));
}

static void interpretCxaAtexit(LLVMModuleRef M) {
  LLVMValueRef Cxa = LLVMGetNamedFunction(M, "__cxa_atexit");
  if (!Cxa || !LLVMIsDeclaration(Cxa))
    return;
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMTypeRef Ptr = LLVMPointerTypeInContext(C, 0);
  LLVMTypeRef I32 = LLVMInt32TypeInContext(C);
  LLVMTypeRef CxaParams[] = {Ptr, Ptr, Ptr};
  LLVMTypeRef CxaTy = LLVMFunctionType(I32, CxaParams, 3, 0);
  LLVMTypeRef AtexitTy = LLVMFunctionType(I32, &Ptr, 1, 0);
  LLVMTypeRef VoidTy = LLVMFunctionType(LLVMVoidTypeInContext(C), NULL, 0, 0);
  LLVMTypeRef CallTy = LLVMFunctionType(LLVMVoidTypeInContext(C), &Ptr, 1, 0);
  LLVMValueRef Atexit = LLVMGetNamedFunction(M, "atexit");
  if (!Atexit)
    Atexit = LLVMAddFunction(M, "atexit", AtexitTy);
  if (LLVMGlobalGetValueType(Cxa) != CxaTy || !LLVMIsDeclaration(Atexit) ||
      LLVMGlobalGetValueType(Atexit) != AtexitTy)
    return;
  LLVMValueRef Push =
      nativeHelper(M, "__mini_lli_cxa_push", (void (*)(void))pushCxaPair);
  LLVMValueRef Pop =
      nativeHelper(M, "__mini_lli_cxa_pop", (void (*)(void))popCxaPair);
  LLVMTypeRef HelperTy = LLVMGlobalGetValueType(Push);
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);

  /* void handler(void) { pop(&Fn, &Arg); Fn(Arg); } */
  LLVMValueRef Handler = LLVMAddFunction(M, "__mini_lli.cxa_handler", VoidTy);
  LLVMSetLinkage(Handler, LLVMInternalLinkage);
  LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, Handler, ""));
  LLVMValueRef Slots[] = {LLVMBuildAlloca(B, Ptr, ""),
                          LLVMBuildAlloca(B, Ptr, "")};
  LLVMBuildCall2(B, HelperTy, Pop, Slots, 2, "");
  LLVMValueRef Fn = LLVMBuildLoad2(B, Ptr, Slots[0], "");
  LLVMValueRef Arg = LLVMBuildLoad2(B, Ptr, Slots[1], "");
  LLVMBuildCall2(B, CallTy, Fn, &Arg, 1, "");
  LLVMBuildRetVoid(B);

  /* int __cxa_atexit(Fn, Arg, DSO) { push(Fn, Arg); return atexit(handler); } */
  LLVMValueRef Cxa2 = LLVMAddFunction(M, "__mini_lli.cxa_atexit", CxaTy);
  LLVMSetLinkage(Cxa2, LLVMInternalLinkage);
  LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, Cxa2, ""));
  LLVMValueRef Pair[] = {LLVMGetParam(Cxa2, 0), LLVMGetParam(Cxa2, 1)};
  LLVMBuildCall2(B, HelperTy, Push, Pair, 2, "");
  LLVMBuildRet(B, LLVMBuildCall2(B, AtexitTy, Atexit, &Handler, 1, ""));
  LLVMDisposeBuilder(B);
  LLVMReplaceAllUsesWith(Cxa, Cxa2);
  LLVMDeleteFunction(Cxa);
}

/* __dso_handle, which clang's C++ passes to __cxa_atexit, is defined by the
 * static linker (crtbegin.o), in no library the interpreter searches: a
 * declaration of it gets a definition of its own. */
static void defineDsoHandle(LLVMModuleRef M) {
  LLVMValueRef G = LLVMGetNamedGlobal(M, "__dso_handle");
  if (G && LLVMIsDeclaration(G) && !dlsym(RTLD_DEFAULT, "__dso_handle")) {
    LLVMSetInitializer(G, LLVMConstNull(LLVMGlobalGetValueType(G)));
    LLVMSetLinkage(G, LLVMInternalLinkage);
  }
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
  defineDsoHandle(E->Main);
  widenBoolExternals(E->Main);
  prepareCalls(E->Main);
  interpretCxaAtexit(E->Main);
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
 * from its exit(), the newest first, including those registered meanwhile.
 * Natively the destructors run from one handler registered before main, with
 * crtbegin's __cxa_finalize of the program's handlers between the default-
 * priority ones (run first) and the prioritized ones: a handler a destructor
 * registers runs after the rest of its group. The function built here does
 * atexit(RunPrioritized) then atexit(RunDefault), each calling its group's
 * destructors, highest priority number first, so the interpreter runs the
 * program's handlers, RunDefault, the handlers its destructors registered,
 * RunPrioritized, then theirs. */
static LLVMValueRef buildCallAll(LLVMBuilderRef B, LLVMModuleRef M,
                                 const char *Name, LLVMTypeRef VoidTy,
                                 const uint64_t *Dtors, size_t From,
                                 size_t To) {
  LLVMContextRef C = LLVMGetModuleContext(M);
  LLVMValueRef F = LLVMAddFunction(M, Name, VoidTy);
  LLVMSetLinkage(F, LLVMInternalLinkage);
  LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, F, ""));
  for (size_t I = To; I-- > From;)
    LLVMBuildCall2(B, VoidTy, (LLVMValueRef)(uintptr_t)Dtors[I], NULL, 0, "");
  LLVMBuildRetVoid(B);
  return F;
}

bool orc_rt_jit_Interpreter_deferDtors(orc_rt_jit_Interpreter *E,
                                       const uint64_t *Dtors, size_t N,
                                       size_t NumPrioritized,
                                       uint64_t *Handle) {
  if (!E->EE || !exitFunction(E->Main)) /* no exit of the interpreter's */
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
  LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
  LLVMValueRef Groups[2] = {buildCallAll(B, M,
                                         "__mini_lli.run_prioritized_dtors",
                                         VoidTy, Dtors, 0, NumPrioritized),
                            buildCallAll(B, M, "__mini_lli.run_default_dtors",
                                         VoidTy, Dtors, NumPrioritized, N)};
  LLVMValueRef F = LLVMAddFunction(M, "__mini_lli.atexit_dtors", VoidTy);
  LLVMSetLinkage(F, LLVMInternalLinkage);
  LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, F, ""));
  for (size_t I = 0; I < 2; ++I)
    LLVMBuildCall2(B, AtexitTy, Atexit, &Groups[I], 1, "");
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
