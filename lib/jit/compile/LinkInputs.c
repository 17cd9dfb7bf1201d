/*===- lib/jit/compile/LinkInputs.c - -extra-object and -extra-archive for an LLJIT ===*/

#include "jit/compile/LinkInputs.h"
#include "jit/support/Diag.h"

#include <llvm-c/Core.h>
#include <llvm-c/Orc.h>

#include <stdio.h>

orc_rt_ErrorRef orc_rt_jit_addObjectFile(LLVMOrcLLJITRef J,
                                         LLVMOrcJITDylibRef JD,
                                         const char *Path,
                                         orc_rt_jit_EagerLink *Eager) {
  LLVMMemoryBufferRef Buf;
  char *Msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(Path, &Buf, &Msg)) {
    orc_rt_ErrorRef E = orc_rt_Error_createf("%s: %s", Path, Msg);
    LLVMDisposeMessage(Msg);
    return E;
  }
  orc_rt_ErrorRef Err =
      Eager ? orc_rt_jit_EagerLink_noteObject(Eager, Buf) : NULL;
  if (Err) {
    LLVMDisposeMemoryBuffer(Buf);
    return Err;
  }
  char Prefix[4096];
  snprintf(Prefix, sizeof(Prefix), "%s: ", Path);
  return orc_rt_jit_fromLLVMError(LLVMOrcLLJITAddObjectFile(J, JD, Buf),
                                  Prefix);
}

orc_rt_ErrorRef orc_rt_jit_addArchive(LLVMOrcLLJITRef J, LLVMOrcJITDylibRef JD,
                                      const char *Path) {
  LLVMOrcDefinitionGeneratorRef G;
  LLVMErrorRef E = LLVMOrcCreateStaticLibrarySearchGeneratorForPath(
      &G, LLVMOrcLLJITGetObjLinkingLayer(J), Path);
  if (E)
    return orc_rt_jit_fromLLVMError(E, NULL);
  LLVMOrcJITDylibAddGenerator(JD, G);
  return NULL;
}
