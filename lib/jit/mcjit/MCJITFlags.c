/*===- lib/jit/mcjit/MCJITFlags.c - lli's MCJIT codegen flags, on the IR --------===*/

#include "jit/mcjit/MCJITFlags.h"
#include "jit/ir/Module.h"
#include "jit/ir/SplitSupport.h"

#include <string.h>

/* LLVM's CallingConv::Tail (llvm-c names no constant for it). */
enum { TailCallConv = 18 };

static bool isTrue(const char *V) { return V && !strcmp(V, "true"); }

void orc_rt_jit_MCJITFlags_read(const orc_rt_jit_Options *Opts,
                                orc_rt_jit_MCJITFlags *F) {
  memset(F, 0, sizeof(*F));
  if (Opts->Engine != orc_rt_jit_Engine_MCJIT)
    return;
  const char *const *V = Opts->CodeGenValues;
  const char *FP = orc_rt_jit_CodeGenFlag_value(V, "fp-contract");
  F->FPContract = !FP || !strcmp(FP, "on") ? orc_rt_jit_FPContract_On
                  : !strcmp(FP, "fast")    ? orc_rt_jit_FPContract_Fast
                                           : orc_rt_jit_FPContract_Off;
  F->TailCallOpt = isTrue(orc_rt_jit_CodeGenFlag_value(V, "tailcallopt"));
  const char *EH = orc_rt_jit_CodeGenFlag_value(V, "exception-model");
  if (EH && strcmp(EH, "default") && strcmp(EH, "dwarf"))
    F->ExceptionModel = EH;
  F->JMCInstrument =
      isTrue(orc_rt_jit_CodeGenFlag_value(V, "enable-jmc-instrument"));
  if (isTrue(orc_rt_jit_CodeGenFlag_value(V, "x86-sse2avx")))
    F->AssemblerFlag = "-x86-sse2avx";
  else if (isTrue(orc_rt_jit_CodeGenFlag_value(V, "fatal-warnings")))
    F->AssemblerFlag = "-fatal-warnings";
  const char *ABI = orc_rt_jit_CodeGenFlag_value(V, "target-abi");
  F->ABI = ABI && *ABI ? ABI : NULL;
}

bool orc_rt_jit_MCJITFlags_any(const orc_rt_jit_MCJITFlags *F) {
  return F->FPContract != orc_rt_jit_FPContract_On || F->TailCallOpt ||
         F->ExceptionModel || F->JMCInstrument || F->AssemblerFlag;
}

/*---- The instructions ----*/

static bool calls(LLVMValueRef I, const char *Prefix) {
  LLVMValueRef Callee = LLVMGetCalledValue(I);
  size_t Len;
  const char *Name = Callee && LLVMIsAFunction(Callee)
                         ? LLVMGetValueName2(Callee, &Len)
                         : NULL;
  return Name && !strncmp(Name, Prefix, strlen(Prefix));
}

/* -fp-contract=off: a * b + c, rounded twice, with the call's fast-math
 * flags; the constrained form keeps its rounding and exception arguments. */
static void expandFMulAdd(LLVMBuilderRef B, LLVMModuleRef M, LLVMValueRef I) {
  LLVMPositionBuilderBefore(B, I);
  LLVMValueRef A = LLVMGetOperand(I, 0), X = LLVMGetOperand(I, 1),
               C = LLVMGetOperand(I, 2), Sum;
  if (calls(I, "llvm.experimental.constrained.")) {
    LLVMTypeRef Ty = LLVMTypeOf(A);
    LLVMContextRef Ctx = LLVMGetModuleContext(M);
    static const char *const Names[] = {"llvm.experimental.constrained.fmul",
                                        "llvm.experimental.constrained.fadd"};
    unsigned StrictFP = LLVMGetEnumAttributeKindForName("strictfp", 8);
    LLVMValueRef Args[4] = {A, X, LLVMGetOperand(I, 3), LLVMGetOperand(I, 4)};
    for (int K = 0; K < 2; ++K) {
      unsigned ID = LLVMLookupIntrinsicID(Names[K], strlen(Names[K]));
      LLVMValueRef Fn = LLVMGetIntrinsicDeclaration(M, ID, &Ty, 1);
      Sum = LLVMBuildCall2(B, LLVMIntrinsicGetType(Ctx, ID, &Ty, 1), Fn, Args,
                           4, "");
      LLVMAddCallSiteAttribute(Sum, LLVMAttributeFunctionIndex,
                               LLVMCreateEnumAttribute(Ctx, StrictFP, 0));
      Args[0] = Sum;
      Args[1] = C;
    }
  } else {
    LLVMFastMathFlags FMF = LLVMGetFastMathFlags(I);
    LLVMValueRef Mul = LLVMBuildFMul(B, A, X, "");
    Sum = LLVMBuildFAdd(B, Mul, C, "");
    LLVMSetFastMathFlags(Mul, FMF);
    LLVMSetFastMathFlags(Sum, FMF);
  }
  LLVMReplaceAllUsesWith(I, Sum);
  LLVMInstructionEraseFromParent(I);
}

static bool isCall(LLVMValueRef I) {
  LLVMOpcode Op = LLVMGetInstructionOpcode(I);
  return Op == LLVMCall || Op == LLVMInvoke || Op == LLVMCallBr;
}

static bool isInlineAsm(LLVMValueRef I) {
  return isCall(I) && LLVMIsAInlineAsm(LLVMGetCalledValue(I));
}

static orc_rt_ErrorRef rewriteInstructions(const orc_rt_jit_MCJITFlags *F,
                                           LLVMModuleRef M, LLVMValueRef Fn) {
  LLVMBuilderRef B = LLVMCreateBuilderInContext(LLVMGetModuleContext(M));
  orc_rt_ErrorRef Err = NULL;
  for (LLVMBasicBlockRef BB = LLVMGetFirstBasicBlock(Fn); BB && !Err;
       BB = LLVMGetNextBasicBlock(BB)) {
    LLVMValueRef Next;
    for (LLVMValueRef I = LLVMGetFirstInstruction(BB); I && !Err; I = Next) {
      Next = LLVMGetNextInstruction(I);
      if (F->AssemblerFlag && isInlineAsm(I)) {
        Err = orc_rt_Error_createf(
            "%s is not supported with -jit-kind=mcjit for a program with "
            "inline assembly (in '%s'): lli's MCJIT assembles it with that "
            "option, which LLVM-C cannot give the assembler",
            F->AssemblerFlag, LLVMGetValueName(Fn));
        break;
      }
      if (F->FPContract == orc_rt_jit_FPContract_Fast &&
          LLVMCanValueUseFastMathFlags(I))
        LLVMSetFastMathFlags(I, LLVMGetFastMathFlags(I) |
                                    LLVMFastMathAllowContract);
      if (F->TailCallOpt && isCall(I) &&
          LLVMGetInstructionCallConv(I) == LLVMFastCallConv)
        LLVMSetInstructionCallConv(I, TailCallConv);
      if (F->FPContract == orc_rt_jit_FPContract_Off && isCall(I) &&
          (calls(I, "llvm.fmuladd.") ||
           calls(I, "llvm.experimental.constrained.fmuladd.")))
        expandFMulAdd(B, M, I); /* erases I */
    }
  }
  LLVMDisposeBuilder(B);
  return Err;
}

/*---- The functions ----*/

/* A model without unwind tables: nounwind and no uwtable on every
 * definition, which x86-64 then compiles without CFI, as lli's MCJIT does
 * with that model. */
static orc_rt_ErrorRef dropUnwindTables(const orc_rt_jit_MCJITFlags *F,
                                        LLVMModuleRef M) {
  for (LLVMValueRef Fn = LLVMGetFirstFunction(M); Fn;
       Fn = LLVMGetNextFunction(Fn))
    if (!LLVMIsDeclaration(Fn) && LLVMHasPersonalityFn(Fn))
      return orc_rt_Error_createf(
          "-exception-model=%s is not supported with -jit-kind=mcjit for a "
          "program that handles exceptions (in '%s'): x86-64 unwinds only "
          "with DWARF tables (lli's MCJIT crashes on it)",
          F->ExceptionModel, LLVMGetValueName(Fn));
  LLVMContextRef Ctx = LLVMGetModuleContext(M);
  unsigned UWTable = LLVMGetEnumAttributeKindForName("uwtable", 7);
  unsigned NoUnwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
  for (LLVMValueRef Fn = LLVMGetFirstFunction(M); Fn;
       Fn = LLVMGetNextFunction(Fn)) {
    if (LLVMIsDeclaration(Fn))
      continue;
    LLVMRemoveEnumAttributeAtIndex(Fn, LLVMAttributeFunctionIndex, UWTable);
    LLVMAddAttributeAtIndex(Fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(Ctx, NoUnwind, 0));
  }
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_MCJITFlags_apply(const orc_rt_jit_MCJITFlags *F,
                                            LLVMModuleRef M,
                                            LLVMTargetMachineRef TM) {
  if (!orc_rt_jit_MCJITFlags_any(F))
    return NULL;
  if (F->AssemblerFlag && orc_rt_jit_hasModuleAsm(M))
    return orc_rt_Error_createf(
        "%s is not supported with -jit-kind=mcjit for a program with inline "
        "assembly (module-level): lli's MCJIT assembles it with that option, "
        "which LLVM-C cannot give the assembler",
        F->AssemblerFlag);
  orc_rt_ErrorRef Err = F->ExceptionModel ? dropUnwindTables(F, M) : NULL;
  for (LLVMValueRef Fn = LLVMGetFirstFunction(M); Fn && !Err;
       Fn = LLVMGetNextFunction(Fn)) {
    if (F->TailCallOpt && LLVMGetFunctionCallConv(Fn) == LLVMFastCallConv)
      LLVMSetFunctionCallConv(Fn, TailCallConv);
    Err = rewriteInstructions(F, M, Fn);
  }
  if (!Err && F->JMCInstrument)
    Err = orc_rt_jit_runPasses(M, "jmc-instrumenter", TM);
  return Err;
}
