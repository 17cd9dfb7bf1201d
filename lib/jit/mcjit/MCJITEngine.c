/*===- lib/jit/mcjit/MCJITEngine.c - -jit-kind=mcjit: LLVM's MCJIT --------===*/

#include "jit/mcjit/MCJITEngine.h"
#include "jit/support/GrowArray.h"

#include <llvm-c/ExecutionEngine.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct orc_rt_jit_MCJIT {
  orc_rt_jit_MCJITSettings S;
  LLVMExecutionEngineRef EE; /* made with the first module */
  LLVMModuleRef *Modules;
  LLVMContextRef *Contexts;
  size_t NumModules, Capacity;
  bool Checked; /* externals checked (on the first lookup) */
};

orc_rt_ErrorRef orc_rt_jit_MCJIT_create(orc_rt_jit_MCJIT **Result,
                                        const orc_rt_jit_MCJITSettings *S) {
  LLVMLinkInMCJIT();
  orc_rt_jit_MCJIT *E = calloc(1, sizeof(*E));
  if (!E)
    return orc_rt_Error_create("out of memory");
  E->S = *S;
  *Result = E;
  return NULL;
}

static void setDefaultAttribute(LLVMValueRef F, const char *Kind,
                                const char *Value) {
  unsigned KindLen = (unsigned)strlen(Kind);
  if (LLVMGetStringAttributeAtIndex(F, LLVMAttributeFunctionIndex, Kind,
                                    KindLen))
    return;
  LLVMContextRef Ctx = LLVMGetTypeContext(LLVMTypeOf(F));
  LLVMAddAttributeAtIndex(F, LLVMAttributeFunctionIndex,
                          LLVMCreateStringAttribute(Ctx, Kind, KindLen, Value,
                                                    (unsigned)strlen(Value)));
}

/* The host CPU and features (or -mcpu / -mattr) for every function body. */
static void setTargetAttributes(orc_rt_jit_MCJIT *E, LLVMModuleRef M) {
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
       F = LLVMGetNextFunction(F)) {
    if (LLVMIsDeclaration(F))
      continue;
    if (*E->S.CPU)
      setDefaultAttribute(F, "target-cpu", E->S.CPU);
    if (*E->S.Features)
      setDefaultAttribute(F, "target-features", E->S.Features);
  }
}

/* LLVMCreateMCJITCompilerForModule sets "frame-pointer" on every function of
 * the module it is given (from LLVMMCJITCompilerOptions::NoFramePointerElim);
 * lli's MCJIT compiles the IR's own. saveFramePointers keeps each function's
 * value (NULL: none), restoreFramePointers puts it back once the engine
 * exists, before anything is compiled. */
typedef struct {
  LLVMValueRef F;
  char *Value;
} SavedFramePointer;

static const char FramePointer[] = "frame-pointer";

static SavedFramePointer *saveFramePointers(LLVMModuleRef M, size_t *N) {
  size_t Count = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    ++Count;
  SavedFramePointer *Saved = calloc(Count ? Count : 1, sizeof(*Saved));
  *N = 0;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); Saved && F;
       F = LLVMGetNextFunction(F)) {
    LLVMAttributeRef A = LLVMGetStringAttributeAtIndex(
        F, LLVMAttributeFunctionIndex, FramePointer, sizeof(FramePointer) - 1);
    unsigned Len = 0;
    const char *V = A ? LLVMGetStringAttributeValue(A, &Len) : NULL;
    Saved[*N].F = F;
    Saved[*N].Value = V ? strndup(V, Len) : NULL;
    ++*N;
  }
  return Saved;
}

static void restoreFramePointers(SavedFramePointer *Saved, size_t N) {
  for (size_t I = 0; I < N; ++I) {
    LLVMValueRef F = Saved[I].F;
    LLVMRemoveStringAttributeAtIndex(F, LLVMAttributeFunctionIndex,
                                     FramePointer, sizeof(FramePointer) - 1);
    if (Saved[I].Value)
      setDefaultAttribute(F, FramePointer, Saved[I].Value);
    free(Saved[I].Value);
  }
  free(Saved);
}

static void mapOverride(orc_rt_jit_MCJIT *E, LLVMValueRef GV) {
  if (!LLVMIsDeclaration(GV))
    return;
  uint64_t Addr = E->S.Override(LLVMGetValueName2(GV, &(size_t){0}));
  if (Addr)
    LLVMAddGlobalMapping(E->EE, GV, (void *)(uintptr_t)Addr);
}

/* The driver's runtime entry points, for the names M declares. */
static void mapOverrides(orc_rt_jit_MCJIT *E, LLVMModuleRef M) {
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    mapOverride(E, F);
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
    mapOverride(E, G);
}

orc_rt_ErrorRef orc_rt_jit_MCJIT_addModule(orc_rt_jit_MCJIT *E,
                                           LLVMContextRef Ctx,
                                           LLVMModuleRef M) {
  /* The two arrays grow alike from E->Capacity, which only changes once both
   * have grown. */
  size_t ModuleCap = E->Capacity, Need = E->NumModules + 1;
  if (!orc_rt_jit_growArray(&E->Modules, &ModuleCap, Need,
                            sizeof(*E->Modules)) ||
      !orc_rt_jit_growArray(&E->Contexts, &E->Capacity, Need,
                            sizeof(*E->Contexts))) {
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
    return orc_rt_Error_create("out of memory");
  }
  setTargetAttributes(E, M);
  if (!E->EE) {
    struct LLVMMCJITCompilerOptions Options;
    LLVMInitializeMCJITCompilerOptions(&Options, sizeof(Options));
    Options.OptLevel = (unsigned)E->S.Level;
    Options.CodeModel = E->S.CodeModel;
    char *Msg = NULL;
    size_t NumSaved = 0;
    SavedFramePointer *Saved = saveFramePointers(M, &NumSaved);
    bool Failed = LLVMCreateMCJITCompilerForModule(&E->EE, M, &Options,
                                                   sizeof(Options), &Msg);
    restoreFramePointers(Saved, NumSaved);
    if (Failed) {
      orc_rt_ErrorRef Err =
          orc_rt_Error_createf("error creating EE: %s", Msg ? Msg : "");
      LLVMDisposeMessage(Msg);
      E->EE = NULL;
      LLVMDisposeModule(M);
      LLVMContextDispose(Ctx);
      return Err;
    }
  } else {
    LLVMAddModule(E->EE, M);
  }
  mapOverrides(E, M);
  E->Modules[E->NumModules] = M; /* owned by the engine now */
  E->Contexts[E->NumModules++] = Ctx;
  return NULL;
}

static bool definedInModules(orc_rt_jit_MCJIT *E, const char *Name) {
  for (size_t I = 0; I < E->NumModules; ++I) {
    LLVMModuleRef M = E->Modules[I];
    LLVMValueRef G = LLVMGetNamedFunction(M, Name);
    if (!G)
      G = LLVMGetNamedGlobal(M, Name);
    if ((G && !LLVMIsDeclaration(G)) ||
        LLVMGetNamedGlobalAlias(M, Name, strlen(Name)) ||
        LLVMGetNamedGlobalIFunc(M, Name, strlen(Name)))
      return true;
  }
  return false;
}

static void checkOne(orc_rt_jit_MCJIT *E, LLVMValueRef G, char **List,
                     size_t *Len) {
  if (!LLVMIsDeclaration(G) || !LLVMGetFirstUse(G) ||
      LLVMGetLinkage(G) == LLVMExternalWeakLinkage)
    return;
  size_t NameLen;
  const char *Name = LLVMGetValueName2(G, &NameLen);
  if (!NameLen || !strncmp(Name, "llvm.", 5) || E->S.Override(Name) ||
      definedInModules(E, Name) || dlsym(RTLD_DEFAULT, Name))
    return;
  char *Bigger = realloc(*List, *Len + NameLen + 3);
  if (!Bigger)
    return;
  *List = Bigger;
  *Len += (size_t)sprintf(*List + *Len, "%s%s", *Len ? ", " : "", Name);
}

/* MCJIT links an external it cannot resolve to address 0 and the program
 * crashes on the call (lli-22 -jit-kind=mcjit too); name them first, with
 * the words ORC uses. */
static orc_rt_ErrorRef checkExternals(orc_rt_jit_MCJIT *E) {
  char *List = NULL;
  size_t Len = 0;
  for (size_t I = 0; I < E->NumModules; ++I) {
    LLVMModuleRef M = E->Modules[I];
    for (LLVMValueRef F = LLVMGetFirstFunction(M); F;
         F = LLVMGetNextFunction(F))
      checkOne(E, F, &List, &Len);
    for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
      checkOne(E, G, &List, &Len);
  }
  orc_rt_ErrorRef Err =
      List ? orc_rt_Error_createf("Symbols not found: [ %s ]", List) : NULL;
  free(List);
  return Err;
}

orc_rt_ErrorRef orc_rt_jit_MCJIT_lookup(orc_rt_jit_MCJIT *E, const char *Name,
                                        uint64_t *Addr) {
  if (!E->Checked) {
    E->Checked = true;
    orc_rt_ErrorRef Err = checkExternals(E);
    if (Err)
      return Err;
  }
  bool Function = false, Defined = false;
  for (size_t I = 0; I < E->NumModules && !Defined; ++I) {
    LLVMValueRef F = LLVMGetNamedFunction(E->Modules[I], Name);
    LLVMValueRef G = F ? F : LLVMGetNamedGlobal(E->Modules[I], Name);
    if (!G)
      G = LLVMGetNamedGlobalAlias(E->Modules[I], Name, strlen(Name));
    Defined = G && (!LLVMIsAGlobalValue(G) || !LLVMIsDeclaration(G) ||
                    LLVMIsAGlobalAlias(G));
    Function = F != NULL;
  }
  if (!E->EE || !Defined)
    return orc_rt_Error_createf("Symbols not found: [ %s ]", Name);
  *Addr = Function ? LLVMGetFunctionAddress(E->EE, Name)
                   : LLVMGetGlobalValueAddress(E->EE, Name);
  if (!*Addr)
    return orc_rt_Error_createf("Symbols not found: [ %s ]", Name);
  return NULL;
}

void orc_rt_jit_MCJIT_dispose(orc_rt_jit_MCJIT *E) {
  if (!E)
    return;
  if (E->EE)
    LLVMDisposeExecutionEngine(E->EE); /* and the modules it owns */
  for (size_t I = 0; I < E->NumModules; ++I)
    LLVMContextDispose(E->Contexts[I]);
  free(E->Modules);
  free(E->Contexts);
  free(E);
}
