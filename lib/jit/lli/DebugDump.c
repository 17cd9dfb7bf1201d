/*===- lib/jit/lli/DebugDump.c - lli's -orc-lazy-debug output -------------===*/

#include "jit/lli/DebugDump.h"
#include "jit/support/Diag.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Modules may be compiled on several threads: one dump at a time. */
static pthread_mutex_t DumpLock = PTHREAD_MUTEX_INITIALIZER;

static void printFunctions(LLVMModuleRef M) {
  fputs("[ ", stdout);
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F)) {
    if (LLVMIsDeclaration(F))
      continue;
    size_t Len;
    const char *Name = LLVMGetValueName2(F, &Len);
    char *Copy = Len ? strndup(Name, Len) : NULL;
    if (Copy)
      orc_rt_jit_restoreUserNames(Copy);
    printf("%s ", Copy ? Copy : "<anon>");
    free(Copy);
  }
  fputs("]\n", stdout);
}

orc_rt_ErrorRef orc_rt_jit_dumpModule(orc_rt_jit_DumpKind Kind,
                                      LLVMModuleRef M) {
  orc_rt_ErrorRef Err = NULL;
  pthread_mutex_lock(&DumpLock);
  switch (Kind) {
  case orc_rt_jit_Dump_None:
  case orc_rt_jit_Dump_DebugDescriptor: /* objects, not modules */
  case orc_rt_jit_Dump_DebugObjects:
    break;
  case orc_rt_jit_Dump_FuncsToStdout:
    printFunctions(M);
    break;
  case orc_rt_jit_Dump_ModsToStdout: {
    char *Text = LLVMPrintModuleToString(M);
    printf("----- Module Start -----\n%s----- Module End -----\n", Text);
    LLVMDisposeMessage(Text);
    break;
  }
  case orc_rt_jit_Dump_ModsToDisk: {
    size_t Len;
    const char *Id = LLVMGetModuleIdentifier(M, &Len);
    char *Path = malloc(Len + 4);
    char *Msg = NULL;
    if (!Path) {
      Err = orc_rt_Error_create("out of memory");
      break;
    }
    snprintf(Path, Len + 4, "%.*s.ll", (int)Len, Id);
    if (LLVMPrintModuleToFile(M, Path, &Msg))
      Err = orc_rt_Error_createf("Couldn't open %.*s for dumping.\nError:%s",
                                 (int)Len, Id, Msg ? Msg : "");
    LLVMDisposeMessage(Msg);
    free(Path);
    break;
  }
  }
  fflush(stdout);
  pthread_mutex_unlock(&DumpLock);
  return Err;
}
