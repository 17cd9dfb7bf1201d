/*===- lib/jit/lli/TargetOptions.c - lli's target options to LLVM-C settings ===*/

#include "jit/lli/TargetOptions.h"

#include <llvm-c/Core.h>

#include <stdlib.h>
#include <string.h>

/* The host's features followed by every -mattr list, comma-separated. */
static char *joinFeatures(const char *Host, const orc_rt_jit_StringList *A) {
  size_t Size = strlen(Host) + 1;
  for (size_t I = 0; I < A->Size; ++I)
    Size += strlen(A->Items[I]) + 1;
  char *Buf = malloc(Size);
  if (!Buf)
    return NULL;
  strcpy(Buf, Host);
  for (size_t I = 0; I < A->Size; ++I) {
    if (!*A->Items[I] || !strcmp(A->Items[I], "help"))
      continue;
    if (*Buf)
      strcat(Buf, ",");
    strcat(Buf, A->Items[I]);
  }
  char *Msg = LLVMCreateMessage(Buf);
  free(Buf);
  return Msg;
}

orc_rt_ErrorRef orc_rt_jit_targetSettings(const orc_rt_jit_Options *Opts,
                                          char **Triple, char **CPU,
                                          char **Features, LLVMRelocMode *Reloc,
                                          LLVMCodeModel *CodeModel) {
  *Triple = Opts->MTriple ? LLVMNormalizeTargetTriple(Opts->MTriple)
                          : LLVMGetDefaultTargetTriple();
  bool HostCPU = !Opts->MCPU || !*Opts->MCPU || !strcmp(Opts->MCPU, "native") ||
                 !strcmp(Opts->MCPU, "help");
  *CPU = HostCPU ? LLVMGetHostCPUName() : LLVMCreateMessage(Opts->MCPU);
  char *HostFeatures = HostCPU ? LLVMGetHostCPUFeatures() : NULL;
  *Features = joinFeatures(HostFeatures ? HostFeatures : "", &Opts->MAttrs);
  LLVMDisposeMessage(HostFeatures);
  *Reloc = Opts->RelocModel >= 0 ? (LLVMRelocMode)Opts->RelocModel
                                 : LLVMRelocDefault;
  *CodeModel = Opts->CodeModel >= 0 ? (LLVMCodeModel)Opts->CodeModel
                                    : LLVMCodeModelJITDefault;
  if (!*Features)
    return orc_rt_Error_create("out of memory");
  LLVMTargetRef T;
  char *Msg = NULL;
  if (LLVMGetTargetFromTriple(*Triple, &T, &Msg)) {
    orc_rt_ErrorRef E = orc_rt_Error_createf(
        "no JIT target for triple '%s': %s", *Triple, Msg ? Msg : "");
    LLVMDisposeMessage(Msg);
    return E;
  }
  if (Opts->MArch && *Opts->MArch) {
    /* lli sets the triple's architecture to -march; in-process, the only one
     * that can run is the host's target. */
    LLVMTargetRef Named = LLVMGetTargetFromName(Opts->MArch);
    if (!Named)
      return orc_rt_Error_createf("invalid target '%s'", Opts->MArch);
    if (Named != T)
      return orc_rt_Error_createf(
          "-march=%s: mini-lli runs code in its own process, for "
          "target '%s' only",
          Opts->MArch, LLVMGetTargetName(T));
  }
  return NULL;
}

LLVMTargetMachineRef orc_rt_jit_createTargetMachine(
    const char *Triple, const char *CPU, const char *Features, const char *ABI,
    LLVMCodeGenOptLevel Level, LLVMRelocMode Reloc, LLVMCodeModel CodeModel) {
  LLVMTargetRef T;
  char *Msg = NULL;
  if (LLVMGetTargetFromTriple(Triple, &T, &Msg)) {
    LLVMDisposeMessage(Msg);
    return NULL;
  }
  LLVMTargetMachineOptionsRef O = LLVMCreateTargetMachineOptions();
  LLVMTargetMachineOptionsSetCPU(O, CPU);
  LLVMTargetMachineOptionsSetFeatures(O, Features);
  if (ABI)
    LLVMTargetMachineOptionsSetABI(O, ABI);
  LLVMTargetMachineOptionsSetCodeGenOptLevel(O, Level);
  LLVMTargetMachineOptionsSetRelocMode(O, Reloc);
  LLVMTargetMachineOptionsSetCodeModel(O, CodeModel);
  LLVMTargetMachineRef TM = LLVMCreateTargetMachineWithOptions(T, Triple, O);
  LLVMDisposeTargetMachineOptions(O);
  return TM;
}

LLVMCodeGenOptLevel orc_rt_jit_codeGenLevel(int OptLevel) {
  static const LLVMCodeGenOptLevel Levels[] = {
      LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault,
      LLVMCodeGenLevelAggressive};
  return Levels[OptLevel];
}
