/*===- lib/jit/host/HostTargetMachine.c - A Jit's target machines --------===*/
/* The LLJIT's own target machine, the one a load compiles with, and those
 * each first call of a lazily compiled function makes (HostLazy.c) are all
 * for the Jit's triple, CPU and features: the host's. */

#include "jit/host/HostTargetMachine.h"

LLVMTargetMachineRef orc_rt_jit_Host_createTM(struct orc_rt_OpaqueJit *J,
                                              unsigned OptLevel, char **Msg) {
  static const LLVMCodeGenOptLevel Levels[] = {
      LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault,
      LLVMCodeGenLevelAggressive};
  LLVMTargetRef T;
  if (LLVMGetTargetFromTriple(J->Triple, &T, Msg))
    return NULL;
  return LLVMCreateTargetMachine(T, J->Triple, J->CPU, J->Features,
                                 Levels[OptLevel], LLVMRelocPIC,
                                 LLVMCodeModelJITDefault);
}

LLVMTargetMachineRef orc_rt_jit_Host_newTM(void *Ctx) {
  struct orc_rt_OpaqueJit *J = Ctx;
  char *Msg = NULL;
  LLVMTargetMachineRef TM = orc_rt_jit_Host_createTM(J, J->Opts.OptLevel, &Msg);
  LLVMDisposeMessage(Msg);
  return TM;
}
