/*===- lib/jit/cache/ModuleCache.c - Loaded modules, compiled once --------===*/

#include "jit/cache/ModuleCache.h"
#include "jit/cache/ObjectCache.h"

#include <stdlib.h>
#include <string.h>

void orc_rt_jit_CompiledModule_dispose(orc_rt_jit_CompiledModule *E) {
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
orc_rt_ErrorRef orc_rt_jit_CompiledModule_keepObjects(
    orc_rt_jit_CompiledModule *E, const LLVMMemoryBufferRef *Objs, size_t N) {
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
static void store(const orc_rt_jit_ModuleCompiler *By,
                  const orc_rt_jit_CompiledModule *E,
                  const orc_rt_jit_ObjectList *Objs) {
  orc_rt_jit_CacheManifest M = {.Ctors = E->Ctors.Items,
                                .NumCtors = E->Ctors.Size,
                                .Dtors = E->Dtors.Items,
                                .NumDtors = E->Dtors.Size,
                                .Exports = E->Exports.Items,
                                .NumExports = E->Exports.Size,
                                .Escapes = E->Escapes.Items,
                                .NumEscapes = E->Escapes.Size};
  orc_rt_ErrorRef Err = orc_rt_jit_ObjectCache_store(By->Dir, E->Key, &M,
                                                     Objs->Items, Objs->Size);
  if (Err && By->Warn) /* the module loads anyway, as the program does */
    By->Warn(Err, By->Ctx);
  else
    orc_rt_Error_consume(Err);
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
  Err = orc_rt_jit_CompiledModule_keepObjects(E, Objs, N);
  for (size_t I = 0; I < N; ++I)
    LLVMDisposeMemoryBuffer(Objs[I]);
  free(Objs);
  return Err;
}

orc_rt_ErrorRef
orc_rt_jit_prepareForLoading(const orc_rt_jit_ModuleCompiler *By,
                             const char *Name, LLVMMemoryBufferRef Buf,
                             orc_rt_jit_CompiledModule *E, LLVMContextRef *Ctx,
                             LLVMModuleRef *M) {
  orc_rt_ErrorRef Err = orc_rt_jit_parseModule(Name, Buf, Ctx, M);
  if (Err)
    return Err;
  if (By->Prepare)
    Err = By->Prepare(*M, By->Ctx);
  if (!Err && By->Passes)
    Err = By->RunPasses(*M, By->Passes, By->Ctx);
  if (!Err)
    Err = orc_rt_jit_takeInitializers(*M, 0, &E->Ctors, &E->Dtors);
  if (!Err) { /* run by priority, as a shared object's (.init_array) */
    orc_rt_jit_InitList_sort(&E->Ctors);
    orc_rt_jit_InitList_sort(&E->Dtors);
    orc_rt_jit_defineModuleAtexit(*M);
    Err = orc_rt_jit_collectExports(*M, &E->Exports);
  }
  if (!Err)
    Err = orc_rt_jit_routeEscapesThroughStubs(*M, &E->Escapes);
  if (Err) {
    LLVMDisposeModule(*M);
    LLVMContextDispose(*Ctx);
  }
  return Err;
}

static orc_rt_ErrorRef compile(const orc_rt_jit_ModuleCompiler *By,
                               const char *Name, LLVMMemoryBufferRef Buf,
                               orc_rt_jit_CompiledModule *E) {
  LLVMContextRef Ctx;
  LLVMModuleRef M;
  orc_rt_ErrorRef Err =
      orc_rt_jit_prepareForLoading(By, Name, Buf, E, &Ctx, &M);
  if (Err)
    return Err;
  orc_rt_jit_ObjectList Objs = {NULL, 0, false};
  Err = By->Compile(M, &Objs, By->Ctx);
  LLVMDisposeModule(M);
  LLVMContextDispose(Ctx);
  if (!Err)
    Err = orc_rt_jit_CompiledModule_keepObjects(E, Objs.Items, Objs.Size);
  E->NoReuse = Objs.Volatile;
  if (!Err && By->Dir && !Objs.Volatile)
    store(By, E, &Objs);
  orc_rt_jit_ObjectList_dispose(&Objs);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_ModuleCache_get(orc_rt_jit_ModuleCache *Cache,
                                           const orc_rt_jit_ModuleCompiler *By,
                                           const char *Name,
                                           LLVMMemoryBufferRef Buf,
                                           orc_rt_jit_CompiledModule **Out) {
  orc_rt_jit_Digest Key = orc_rt_jit_ObjectCache_key(
      LLVMGetBufferStart(Buf), LLVMGetBufferSize(Buf), By->CodegenSettings,
      By->Passes, ORC_RT_JIT_OBJECTCACHE_DLOPEN);
  for (orc_rt_jit_CompiledModule *E = Cache->Head; E; E = E->Next)
    if (E->Key.Hi == Key.Hi && E->Key.Lo == Key.Lo && !E->NoReuse) {
      LLVMDisposeMemoryBuffer(Buf);
      if (E->Users++ == 0)
        --Cache->Unused;
      *Out = E;
      return NULL;
    }
  orc_rt_jit_CompiledModule *E = calloc(1, sizeof(*E));
  if (!E) {
    LLVMDisposeMemoryBuffer(Buf);
    return orc_rt_Error_create("out of memory");
  }
  E->Key = Key;
  bool Hit = false;
  orc_rt_ErrorRef Err = By->Dir ? loadStored(By->Dir, E, &Hit) : NULL;
  if (Hit || Err)
    LLVMDisposeMemoryBuffer(Buf);
  else
    Err = compile(By, Name, Buf, E); /* consumes Buf */
  if (Err) {
    orc_rt_jit_CompiledModule_dispose(E);
    return Err;
  }
  E->Users = 1;
  E->Next = Cache->Head;
  Cache->Head = E;
  *Out = E;
  return NULL;
}

void orc_rt_jit_ModuleCache_put(orc_rt_jit_ModuleCache *C,
                                orc_rt_jit_CompiledModule *E) {
  if (--E->Users)
    return;
  if (E->NoReuse) { /* no later get can match it: not a spare */
    orc_rt_jit_CompiledModule **P = &C->Head;
    while (*P != E)
      P = &(*P)->Next;
    *P = E->Next;
    orc_rt_jit_CompiledModule_dispose(E);
    return;
  }
  E->UnusedSince = ++C->Clock;
  if (++C->Unused <= ORC_RT_JIT_MODULECACHE_SPARE)
    return;
  /* Too many spares: the one unused longest goes. */
  orc_rt_jit_CompiledModule **Oldest = NULL;
  for (orc_rt_jit_CompiledModule **P = &C->Head; *P; P = &(*P)->Next)
    if (!(*P)->Users && (!Oldest || (*P)->UnusedSince < (*Oldest)->UnusedSince))
      Oldest = P;
  orc_rt_jit_CompiledModule *Gone = *Oldest;
  *Oldest = Gone->Next;
  --C->Unused;
  orc_rt_jit_CompiledModule_dispose(Gone);
}

void orc_rt_jit_ModuleCache_dispose(orc_rt_jit_ModuleCache *C) {
  while (C->Head) {
    orc_rt_jit_CompiledModule *E = C->Head;
    C->Head = E->Next;
    orc_rt_jit_CompiledModule_dispose(E);
  }
}
