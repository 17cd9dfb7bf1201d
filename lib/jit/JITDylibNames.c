/*===- lib/jit/JITDylibNames.c - lli's -jd: hidden names stay home --------===*/
/* See JITDylibNames.h. */

#include "jit/JITDylibNames.h"
#include "jit/Module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char **Names; /* hidden definitions of the JITDylib's modules */
  size_t Size, Capacity;
} NameSet;

struct orc_rt_jit_JITDylibNames {
  const orc_rt_jit_Options *Opts;
  const char **JDs; /* distinct -jd names; index 0 is the main JITDylib */
  size_t NumJDs;
  NameSet *Sets; /* one per JITDylib */
};

/* The JITDylib of module Index, numbered as in N->JDs. */
static size_t jdOf(const orc_rt_jit_JITDylibNames *N, unsigned Index) {
  const char *Name = Index ? N->Opts->ExtraModuleJDs.Items[Index - 1] : NULL;
  if (!Name || !strcmp(Name, "main"))
    return 0;
  for (size_t I = 1; I < N->NumJDs; ++I)
    if (!strcmp(N->JDs[I], Name))
      return I;
  return 0; /* not reached: every name was listed by create() */
}

static bool contains(const NameSet *S, const char *Name, size_t Len) {
  for (size_t I = 0; I < S->Size; ++I)
    if (strlen(S->Names[I]) == Len && !memcmp(S->Names[I], Name, Len))
      return true;
  return false;
}

static orc_rt_ErrorRef add(NameSet *S, const char *Name, size_t Len) {
  if (contains(S, Name, Len))
    return NULL;
  if (S->Size == S->Capacity) {
    size_t NewCap = S->Capacity ? 2 * S->Capacity : 16;
    char **New = realloc(S->Names, NewCap * sizeof(*New));
    if (!New)
      return orc_rt_Error_create("out of memory");
    S->Names = New;
    S->Capacity = NewCap;
  }
  if (!(S->Names[S->Size] = strndup(Name, Len)))
    return orc_rt_Error_create("out of memory");
  ++S->Size;
  return NULL;
}

/* Calls Fn on every named global value of M. */
static orc_rt_ErrorRef eachGlobal(LLVMModuleRef M,
                                  orc_rt_ErrorRef (*Fn)(void *, LLVMValueRef),
                                  void *Ctx) {
  orc_rt_ErrorRef Err = NULL;
  for (LLVMValueRef V = LLVMGetFirstFunction(M); V && !Err;
       V = LLVMGetNextFunction(V))
    Err = Fn(Ctx, V);
  for (LLVMValueRef V = LLVMGetFirstGlobal(M); V && !Err;
       V = LLVMGetNextGlobal(V))
    Err = Fn(Ctx, V);
  for (LLVMValueRef V = LLVMGetFirstGlobalAlias(M); V && !Err;
       V = LLVMGetNextGlobalAlias(V))
    Err = Fn(Ctx, V);
  for (LLVMValueRef V = LLVMGetFirstGlobalIFunc(M); V && !Err;
       V = LLVMGetNextGlobalIFunc(V))
    Err = Fn(Ctx, V);
  return Err;
}

static bool isDefinition(LLVMValueRef V) {
  return LLVMIsAGlobalAlias(V) || LLVMIsAGlobalIFunc(V) ||
         !LLVMIsDeclaration(V);
}

static bool isHiddenDefinition(LLVMValueRef V) {
  LLVMLinkage L = LLVMGetLinkage(V);
  return isDefinition(V) && LLVMGetVisibility(V) == LLVMHiddenVisibility &&
         L != LLVMInternalLinkage && L != LLVMPrivateLinkage;
}

static orc_rt_ErrorRef learn(void *Ctx, LLVMValueRef V) {
  size_t Len;
  const char *Name = LLVMGetValueName2(V, &Len);
  return Len && isHiddenDefinition(V) ? add(Ctx, Name, Len) : NULL;
}

typedef struct {
  const NameSet *Set;
  size_t JD;
} Renaming;

static orc_rt_ErrorRef renameHidden(void *Ctx, LLVMValueRef V) {
  const Renaming *R = Ctx;
  size_t Len;
  const char *Name = LLVMGetValueName2(V, &Len);
  if (!Len || !(isHiddenDefinition(V) ||
                (!isDefinition(V) && contains(R->Set, Name, Len))))
    return NULL;
  size_t Size = Len + 40;
  char *New = malloc(Size);
  if (!New)
    return orc_rt_Error_create("out of memory");
  int NewLen =
      snprintf(New, Size, "%.*s.__mini_lli_jd.%zu", (int)Len, Name, R->JD);
  LLVMSetValueName2(V, New, (size_t)NewLen);
  free(New);
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_JITDylibNames_create(orc_rt_jit_JITDylibNames **Out,
                                                const orc_rt_jit_Options *O) {
  *Out = NULL;
  if (!O->JITDylibs.Size)
    return NULL;
  orc_rt_jit_JITDylibNames *N = calloc(1, sizeof(*N));
  if (!N)
    return orc_rt_Error_create("out of memory");
  N->Opts = O;
  N->JDs = calloc(O->JITDylibs.Size + 1, sizeof(*N->JDs));
  N->Sets = calloc(O->JITDylibs.Size + 1, sizeof(*N->Sets));
  if (!N->JDs || !N->Sets) {
    orc_rt_jit_JITDylibNames_dispose(N);
    return orc_rt_Error_create("out of memory");
  }
  N->JDs[N->NumJDs++] = "main";
  for (size_t I = 0; I < O->JITDylibs.Size; ++I) {
    size_t K = 0;
    while (K < N->NumJDs && strcmp(N->JDs[K], O->JITDylibs.Items[I]))
      ++K;
    if (K == N->NumJDs)
      N->JDs[N->NumJDs++] = O->JITDylibs.Items[I];
  }
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; !Err && I < O->ExtraModules.Size; ++I) {
    LLVMMemoryBufferRef Buf;
    LLVMContextRef Ctx;
    LLVMModuleRef M;
    const char *Path = O->ExtraModules.Items[I];
    if ((Err = orc_rt_jit_readInput(Path, &Buf)) ||
        (Err = orc_rt_jit_parseModule(Path, Buf, &Ctx, &M)))
      break;
    Err = eachGlobal(M, learn, &N->Sets[jdOf(N, (unsigned)I + 1)]);
    LLVMDisposeModule(M);
    LLVMContextDispose(Ctx);
  }
  if (Err) {
    orc_rt_jit_JITDylibNames_dispose(N);
    return Err;
  }
  *Out = N;
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_JITDylibNames_apply(orc_rt_jit_JITDylibNames *N,
                                               unsigned Index,
                                               LLVMModuleRef M) {
  if (!N)
    return NULL;
  size_t JD = jdOf(N, Index);
  orc_rt_ErrorRef Err = Index ? NULL : eachGlobal(M, learn, &N->Sets[JD]);
  Renaming R = {&N->Sets[JD], JD};
  return Err ? Err : eachGlobal(M, renameHidden, &R);
}

void orc_rt_jit_JITDylibNames_dispose(orc_rt_jit_JITDylibNames *N) {
  if (!N)
    return;
  for (size_t I = 0; N->Sets && I < N->NumJDs; ++I) {
    for (size_t K = 0; K < N->Sets[I].Size; ++K)
      free(N->Sets[I].Names[K]);
    free(N->Sets[I].Names);
  }
  free(N->Sets);
  free(N->JDs);
  free(N);
}
