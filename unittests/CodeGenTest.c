/*===- unittests/CodeGenTest.c - lib/jit/compile/CodeGen.h ---------------===*/
/* A cut module's parts are linked as objects of their own, maybe out of a
 * 32-bit reach of each other. In the small code model (orc-tiered), what a
 * part only declares -- a variable part 0 keeps, promoted from internal, or
 * a -fno-pic definition, both dso_local -- must then be reached through the
 * GOT, never PC-relative: compileModule's Preemptible. Each object's
 * relocations against the module's variable are read back here. */

#include "TestUtil.h"

#include "jit/compile/CodeGen.h"

#include <llvm-c/IRReader.h>
#include <llvm-c/Object.h>
#include <llvm-c/Target.h>

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An internal variable and a dso_local one (as under -fno-pic), each read
 * and written by functions. DataApart cuts even a module this small: part
 * 0 keeps the variables, part 1 the bodies. */
static const char IR[] = "@counter = internal global i32 0\n"
                         "@total = dso_local global i32 0\n"
                         "define i32 @bump() {\n"
                         "  %v = load i32, ptr @counter\n"
                         "  %n = add i32 %v, 1\n"
                         "  store i32 %n, ptr @counter\n"
                         "  store i32 %n, ptr @total\n"
                         "  ret i32 %n\n"
                         "}\n"
                         "define ptr @where() { ret ptr @total }\n";

static LLVMTargetMachineRef newSmallPIC(void *Ctx) {
  (void)Ctx;
  char *Triple = LLVMGetDefaultTargetTriple(), *Msg = NULL;
  LLVMTargetRef T;
  LLVMTargetMachineRef TM = NULL;
  if (!LLVMGetTargetFromTriple(Triple, &T, &Msg))
    TM = LLVMCreateTargetMachine(T, Triple, "", "", LLVMCodeGenLevelNone,
                                 LLVMRelocPIC, LLVMCodeModelSmall);
  LLVMDisposeMessage(Msg);
  LLVMDisposeMessage(Triple);
  return TM;
}

typedef struct {
  unsigned PCRelative; /* R_X86_64_PC32 against counter or total */
  unsigned ThroughGOT; /* R_X86_64_GOTPCREL* against them */
} VariableRelocs;

static void countRelocs(LLVMMemoryBufferRef Obj, VariableRelocs *Out) {
  char *Msg = NULL;
  LLVMBinaryRef Bin = LLVMCreateBinary(Obj, NULL, &Msg);
  assert_non_null(Bin);
  LLVMSectionIteratorRef Sec = LLVMObjectFileCopySectionIterator(Bin);
  for (; !LLVMObjectFileIsSectionIteratorAtEnd(Bin, Sec);
       LLVMMoveToNextSection(Sec)) {
    LLVMRelocationIteratorRef R = LLVMGetRelocations(Sec);
    for (; !LLVMIsRelocationIteratorAtEnd(Sec, R);
         LLVMMoveToNextRelocation(R)) {
      LLVMSymbolIteratorRef S = LLVMGetRelocationSymbol(R);
      /* (The type, not LLVMGetRelocationTypeName: its string has no NUL.) */
      const char *Name = LLVMGetSymbolName(S);
      uint64_t Type = LLVMGetRelocationType(R);
      if (!strncmp(Name, "counter", 7) || !strcmp(Name, "total")) {
        if (Type == R_X86_64_PC32)
          ++Out->PCRelative;
        else if (Type == R_X86_64_GOTPCREL || Type == R_X86_64_GOTPCRELX ||
                 Type == R_X86_64_REX_GOTPCRELX)
          ++Out->ThroughGOT;
      }
      LLVMDisposeSymbolIterator(S);
    }
    LLVMDisposeRelocationIterator(R);
  }
  LLVMDisposeSectionIterator(Sec);
  LLVMDisposeBinary(Bin);
  LLVMDisposeMessage(Msg);
}

/* Compiles IR cut into parts; the relocations against the variables. */
static VariableRelocs compileCut(bool Preemptible) {
  LLVMContextRef Ctx = LLVMContextCreate();
  LLVMMemoryBufferRef Buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(IR, strlen(IR), "cut.ll");
  LLVMModuleRef M = NULL;
  char *Msg = NULL;
  assert_int_equal(LLVMParseIRInContext(Ctx, Buf, &M, &Msg), 0);
  char *Triple = LLVMGetDefaultTargetTriple();
  LLVMSetTarget(M, Triple);
  LLVMDisposeMessage(Triple);
  LLVMTargetMachineRef TM = newSmallPIC(NULL);
  assert_non_null(TM);
  orc_rt_jit_ObjectList Objs;
  orc_rt_ErrorRef Err = orc_rt_jit_compileModule(M, 0, 2, true, Preemptible, TM,
                                                 newSmallPIC, NULL, &Objs);
  assert_null(Err);
  assert_int_equal(Objs.Size, 2); /* it was cut */
  VariableRelocs Out = {0, 0};
  for (size_t I = 0; I < Objs.Size; ++I)
    countRelocs(Objs.Items[I], &Out);
  orc_rt_jit_ObjectList_dispose(&Objs);
  LLVMDisposeTargetMachine(TM);
  LLVMDisposeModule(M);
  LLVMContextDispose(Ctx);
  return Out;
}

static void test_preemptible_parts_reach_each_others_variables_through_the_got(
    void **State) {
  (void)State;
  VariableRelocs R = compileCut(true);
  assert_int_equal(R.PCRelative, 0);
  assert_true(R.ThroughGOT >= 3); /* counter twice (or once), total twice */
}

/* What the test above rules out happens without it: the check sees it. */
static void
test_without_preemptible_parts_reach_them_pc_relative(void **State) {
  (void)State;
  VariableRelocs R = compileCut(false);
  assert_true(R.PCRelative > 0);
}

int main(void) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  const struct CMUnitTest Tests[] = {
      cmocka_unit_test(
          test_preemptible_parts_reach_each_others_variables_through_the_got),
      cmocka_unit_test(test_without_preemptible_parts_reach_them_pc_relative),
  };
  return cmocka_run_group_tests(Tests, NULL, NULL);
}
