/*===- lib/jit/program/DlopenCache.c - dlopen'ed modules, compiled once ---===*/

#include "jit/program/DlopenCache.h"
#include "jit/cache/ObjectCache.h"

#include <stdio.h>
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

/* Keeps a copy of each object's bytes in E. */
static orc_rt_ErrorRef keepObjects(orc_rt_jit_CompiledModule *E,
                                   const LLVMMemoryBufferRef *Objs, size_t N) {
  E->Objs = calloc(N + 1, sizeof(char *));
  E->ObjSizes = calloc(N + 1, sizeof(size_t));
  for (size_t I = 0; E->Objs && E->ObjSizes && I < N; ++I) {
    size_t Size = LLVMGetBufferSize(Objs[I]);
    E->Objs[I] = malloc(Size ? Size : 1);
    if (!E->Objs[I])
      break;
    memcpy(E->Objs[I], LLVMGetBufferStart(Objs[I]), Size);
    E->ObjSizes[I] = Size;
    E->NumObjs = I + 1;
  }
  return E->NumObjs == N ? NULL : orc_rt_Error_create("out of memory");
}

/* -object-cache-dir's entry for the module, written after compiling it. */
static void store(const char *Dir, const orc_rt_jit_CompiledModule *E,
                  const orc_rt_jit_ObjectList *Objs) {
  orc_rt_jit_CacheManifest M = {.Ctors = E->Ctors.Items,
                                .NumCtors = E->Ctors.Size,
                                .Dtors = E->Dtors.Items,
                                .NumDtors = E->Dtors.Size,
                                .Exports = E->Exports.Items,
                                .NumExports = E->Exports.Size,
                                .Escapes = E->Escapes.Items,
                                .NumEscapes = E->Escapes.Size};
  orc_rt_ErrorRef Err =
      orc_rt_jit_ObjectCache_store(Dir, E->Key, &M, Objs->Items, Objs->Size);
  if (Err) { /* the module loads anyway, as the program does */
    fprintf(stderr, "mini-lli: warning: object cache: %s\n",
            orc_rt_Error_getMessage(Err));
    orc_rt_Error_consume(Err);
  }
}

/* -object-cache-dir's entry for the module, if there is a valid one. */
static orc_rt_ErrorRef loadStored(const char *Dir, orc_rt_jit_CompiledModule *E,
                                  bool *Hit) {
  orc_rt_jit_CacheLists Into = {&E->Ctors, &E->Dtors, NULL, &E->Exports,
                                &E->Escapes};
  LLVMMemoryBufferRef *Objs;
  size_t N;
  orc_rt_ErrorRef Err =
      orc_rt_jit_ObjectCache_load(Dir, E->Key, Hit, &Into, &Objs, &N);
  if (Err || !*Hit)
    return Err;
  Err = keepObjects(E, Objs, N);
  for (size_t I = 0; I < N; ++I)
    LLVMDisposeMemoryBuffer(Objs[I]);
  free(Objs);
  return Err;
}

static orc_rt_ErrorRef compile(orc_rt_jit_Jit *Jit, const char *Passes,
                               const char *Path, LLVMMemoryBufferRef Buf,
                               const char *Dir, orc_rt_jit_CompiledModule *E) {
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
  if (!Err)
    Err = keepObjects(E, Objs.Items, Objs.Size);
  if (!Err && Dir)
    store(Dir, E, &Objs);
  orc_rt_jit_ObjectList_dispose(&Objs);
  return Err;
}

/* The compiled form of Path's bytes: from the in-process cache, from
 * -object-cache-dir, or compiled now (and stored there). */
orc_rt_ErrorRef orc_rt_jit_ModuleCache_get(orc_rt_jit_ModuleCache *Cache,
                                           orc_rt_jit_Jit *Jit,
                                           const orc_rt_jit_Options *Opts,
                                           const char *Path,
                                           orc_rt_jit_CompiledModule **Out) {
  LLVMMemoryBufferRef Buf;
  orc_rt_ErrorRef Err = orc_rt_jit_readInput(Path, &Buf);
  if (Err)
    return Err;
  orc_rt_jit_Digest Key = orc_rt_jit_ObjectCache_key(
      LLVMGetBufferStart(Buf), LLVMGetBufferSize(Buf),
      orc_rt_jit_Jit_codegenSettings(Jit), Opts->Passes,
      ORC_RT_JIT_OBJECTCACHE_DLOPEN);
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
  /* -enable-cache-manager makes the directory lli's cache, whose files hold
   * one object and nothing else (LLICache.h): modules are not stored there. */
  const char *Dir = Opts->EnableCacheManager ? NULL : Opts->ObjectCacheDir;
  bool Hit = false;
  if (Dir)
    Err = loadStored(Dir, E, &Hit);
  if (Hit || Err)
    LLVMDisposeMemoryBuffer(Buf);
  else
    Err = compile(Jit, Opts->Passes, Path, Buf, Dir, E); /* consumes Buf */
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
