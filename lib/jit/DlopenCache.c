/*===- lib/jit/DlopenCache.c - dlopen'ed modules, compiled once -----------===*/

#include "jit/DlopenCache.h"

#include <stdlib.h>
#include <string.h>

static void disposeEntry(orc_rt_jit_CompiledModule *E) {
  for (size_t I = 0; I < E->NumObjs; ++I)
    free(E->Objs[I]);
  free(E->Objs);
  free(E->ObjSizes);
  orc_rt_jit_ExportList_dispose(&E->Exports);
  orc_rt_jit_EscapeList_dispose(&E->Escapes);
  orc_rt_jit_InitList_dispose(&E->Ctors);
  orc_rt_jit_InitList_dispose(&E->Dtors);
  free(E);
}

static orc_rt_ErrorRef compile(orc_rt_jit_Jit *Jit, const char *Passes,
                               const char *Path, LLVMMemoryBufferRef Buf,
                               orc_rt_jit_CompiledModule *E) {
  LLVMContextRef Ctx;
  LLVMModuleRef M;
  orc_rt_ErrorRef Err = orc_rt_jit_parseModule(Path, Buf, &Ctx, &M);
  if (Err)
    return Err;
  if (Passes) {
    LLVMTargetMachineRef TM = orc_rt_jit_Jit_createTargetMachine(Jit);
    Err = orc_rt_jit_runPasses(M, Passes, TM);
    if (TM)
      LLVMDisposeTargetMachine(TM);
  }
  if (!Err)
    Err = orc_rt_jit_takeInitializers(M, 0, &E->Ctors, &E->Dtors);
  if (!Err) {
    orc_rt_jit_defineModuleAtexit(M);
    Err = orc_rt_jit_collectExports(M, &E->Exports);
  }
  if (!Err)
    Err = orc_rt_jit_routeEscapesThroughStubs(M, &E->Escapes);
  orc_rt_jit_ObjectList Objs = {NULL, 0};
  if (!Err)
    Err = orc_rt_jit_Jit_compileObjects(Jit, M, &Objs);
  LLVMDisposeModule(M);
  LLVMContextDispose(Ctx);
  if (Err)
    return Err;
  E->Objs = calloc(Objs.Size + 1, sizeof(char *));
  E->ObjSizes = calloc(Objs.Size + 1, sizeof(size_t));
  for (size_t I = 0; E->Objs && E->ObjSizes && I < Objs.Size; ++I) {
    size_t Size = LLVMGetBufferSize(Objs.Items[I]);
    E->Objs[I] = malloc(Size ? Size : 1);
    if (!E->Objs[I])
      break;
    memcpy(E->Objs[I], LLVMGetBufferStart(Objs.Items[I]), Size);
    E->ObjSizes[I] = Size;
    E->NumObjs = I + 1;
  }
  if (E->NumObjs != Objs.Size)
    Err = orc_rt_Error_create("out of memory");
  orc_rt_jit_ObjectList_dispose(&Objs);
  return Err;
}

/* The compiled form of Path's bytes, from the cache or compiled now. */
orc_rt_ErrorRef orc_rt_jit_ModuleCache_get(orc_rt_jit_ModuleCache *Cache,
                                           orc_rt_jit_Jit *Jit,
                                           const char *Passes, const char *Path,
                                           orc_rt_jit_CompiledModule **Out) {
  LLVMMemoryBufferRef Buf;
  orc_rt_ErrorRef Err = orc_rt_jit_readInput(Path, &Buf);
  if (Err)
    return Err;
  orc_rt_jit_ContentHash H;
  orc_rt_jit_ContentHash_init(&H);
  orc_rt_jit_ContentHash_update(&H, LLVMGetBufferStart(Buf),
                                LLVMGetBufferSize(Buf));
  orc_rt_jit_ContentHash_updateString(&H, orc_rt_jit_Jit_codegenSettings(Jit));
  orc_rt_jit_ContentHash_updateString(&H, Passes ? Passes : "");
  orc_rt_jit_Digest Key = orc_rt_jit_ContentHash_final(&H);
  for (orc_rt_jit_CompiledModule *E = Cache->Head; E; E = E->Next)
    if (E->Key.Hi == Key.Hi && E->Key.Lo == Key.Lo) {
      LLVMDisposeMemoryBuffer(Buf);
      *Out = E;
      return NULL;
    }
  orc_rt_jit_CompiledModule *E = calloc(1, sizeof(*E));
  if (!E) {
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_create("out of memory");
  }
  E->Key = Key;
  Err = compile(Jit, Passes, Path, Buf, E); /* consumes Buf */
  if (Err) {
    disposeEntry(E);
    return Err;
  }
  E->Next = Cache->Head;
  Cache->Head = E;
  *Out = E;
  return NULL;
}

void orc_rt_jit_ModuleCache_dispose(orc_rt_jit_ModuleCache *C) {
  while (C->Head) {
    orc_rt_jit_CompiledModule *E = C->Head;
    C->Head = E->Next;
    disposeEntry(E);
  }
}
