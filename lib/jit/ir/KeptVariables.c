/*===- lib/jit/ir/KeptVariables.c - Variables that keep their storage across a reload ===*/

#include "jit/ir/KeptVariables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPANION_PREFIX "__orc_rt_var:"
#define KEPT_PREFIX "__orc_rt_kept:"

/*---- Type keys ----*/

/* A string being built; Ok turns false once memory runs out. */
typedef struct {
  char *Data;
  size_t Size, Cap;
  bool Ok;
} Text;

static void append(Text *T, const char *Fmt, unsigned long long N) {
  if (!T->Ok)
    return;
  char Buf[32];
  int Len = snprintf(Buf, sizeof(Buf), Fmt, N);
  if (T->Size + (size_t)Len + 1 > T->Cap) {
    size_t Cap = (T->Cap ? T->Cap * 2 : 32) + (size_t)Len;
    char *D = realloc(T->Data, Cap);
    if (!D) {
      T->Ok = false;
      return;
    }
    T->Data = D;
    T->Cap = Cap;
  }
  memcpy(T->Data + T->Size, Buf, (size_t)Len + 1);
  T->Size += (size_t)Len;
}

/* T's layout appended to Out; false for a type with no fixed layout. */
static bool appendType(Text *Out, LLVMTypeRef T) {
  switch (LLVMGetTypeKind(T)) {
  case LLVMIntegerTypeKind:
    append(Out, "i%llu", LLVMGetIntTypeWidth(T));
    return true;
  case LLVMHalfTypeKind:
    append(Out, "half", 0);
    return true;
  case LLVMBFloatTypeKind:
    append(Out, "bfloat", 0);
    return true;
  case LLVMFloatTypeKind:
    append(Out, "float", 0);
    return true;
  case LLVMDoubleTypeKind:
    append(Out, "double", 0);
    return true;
  case LLVMX86_FP80TypeKind:
    append(Out, "x86_fp80", 0);
    return true;
  case LLVMFP128TypeKind:
    append(Out, "fp128", 0);
    return true;
  case LLVMPointerTypeKind:
    append(Out, "ptr", 0);
    if (LLVMGetPointerAddressSpace(T))
      append(Out, "@%llu", LLVMGetPointerAddressSpace(T));
    return true;
  case LLVMArrayTypeKind:
    append(Out, "[%llux", LLVMGetArrayLength2(T));
    if (!appendType(Out, LLVMGetElementType(T)))
      return false;
    append(Out, "]", 0);
    return true;
  case LLVMVectorTypeKind:
    append(Out, "<%llux", LLVMGetVectorSize(T));
    if (!appendType(Out, LLVMGetElementType(T)))
      return false;
    append(Out, ">", 0);
    return true;
  case LLVMStructTypeKind: {
    if (LLVMIsOpaqueStruct(T))
      return false;
    bool Packed = LLVMIsPackedStruct(T);
    append(Out, Packed ? "<{" : "{", 0);
    unsigned N = LLVMCountStructElementTypes(T);
    for (unsigned I = 0; I < N; ++I) {
      if (I)
        append(Out, ",", 0);
      if (!appendType(Out, LLVMStructGetTypeAtIndex(T, I)))
        return false;
    }
    append(Out, Packed ? "}>" : "}", 0);
    return true;
  }
  default: /* scalable vectors, target types, x86_amx, ... */
    return false;
  }
}

static bool isKeepable(LLVMValueRef G) {
  if (!LLVMIsAGlobalVariable(G) || LLVMIsDeclaration(G) ||
      LLVMIsGlobalConstant(G) || LLVMIsThreadLocal(G))
    return false;
  if (LLVMGetLinkage(G) == LLVMAppendingLinkage)
    return false;
  size_t Len;
  const char *Name = LLVMGetValueName2(G, &Len);
  return Len && strlen(Name) == Len && strncmp(Name, "llvm.", 5) &&
         strncmp(Name, COMPANION_PREFIX, strlen(COMPANION_PREFIX)) &&
         strncmp(Name, KEPT_PREFIX, strlen(KEPT_PREFIX));
}

char *orc_rt_jit_typeKey(LLVMValueRef G) {
  if (!isKeepable(G))
    return NULL;
  Text Out = {NULL, 0, 0, true};
  bool Ok = appendType(&Out, LLVMGlobalGetValueType(G));
  if (LLVMGetAlignment(G))
    append(&Out, "/a%llu", LLVMGetAlignment(G));
  if (!Ok || !Out.Ok) {
    free(Out.Data);
    return NULL;
  }
  return Out.Data;
}

/*---- Names ----*/

static char *joined(const char *Prefix, const char *Flag, const char *TypeKey,
                    const char *Name) {
  size_t N = strlen(Prefix) + strlen(Flag) + strlen(TypeKey) + strlen(Name) + 2;
  char *S = malloc(N);
  if (S)
    snprintf(S, N, "%s%s%s:%s", Prefix, Flag, TypeKey, Name);
  return S;
}

char *orc_rt_jit_varCompanionName(const orc_rt_jit_KeptVar *V) {
  return joined(COMPANION_PREFIX, V->External ? "E:" : "L:", V->TypeKey,
                V->Name);
}

char *orc_rt_jit_keptSymbolName(const orc_rt_jit_KeptVar *V) {
  return joined(KEPT_PREFIX, "", V->TypeKey, V->Name);
}

bool orc_rt_jit_parseVarCompanion(const char *Symbol, orc_rt_jit_KeptVar *Out) {
  size_t P = strlen(COMPANION_PREFIX);
  if (strncmp(Symbol, COMPANION_PREFIX, P) ||
      (Symbol[P] != 'E' && Symbol[P] != 'L') || Symbol[P + 1] != ':')
    return false;
  const char *Type = Symbol + P + 2;
  const char *Colon = strchr(Type, ':'); /* a type key has none */
  if (!Colon || Colon == Type || !Colon[1])
    return false;
  char *TypeKey = strndup(Type, (size_t)(Colon - Type));
  char *Name = strdup(Colon + 1);
  if (!TypeKey || !Name) {
    free(TypeKey);
    free(Name);
    return false;
  }
  *Out = (orc_rt_jit_KeptVar){Name, TypeKey, Symbol[P] == 'E'};
  return true;
}

void orc_rt_jit_KeptVar_dispose(orc_rt_jit_KeptVar *V) {
  free(V->Name);
  free(V->TypeKey);
  V->Name = V->TypeKey = NULL;
}

/*---- Keeping ----*/

/* Seen by other modules and the host under its name (as the loader exports
 * it: ir/DlopenIR.h's collectExports). */
static bool isExternal(LLVMValueRef G) {
  switch (LLVMGetLinkage(G)) {
  case LLVMInternalLinkage:
  case LLVMPrivateLinkage:
    return false;
  default:
    return LLVMGetVisibility(G) != LLVMHiddenVisibility;
  }
}

static const orc_rt_jit_KeptVar *find(const orc_rt_jit_KeptVar *Keep, size_t N,
                                      const char *Name, const char *TypeKey) {
  for (size_t I = 0; I < N; ++I)
    if (!strcmp(Keep[I].Name, Name) && !strcmp(Keep[I].TypeKey, TypeKey))
      return &Keep[I];
  return NULL;
}

/* G's definition replaced by a declaration of the kept storage's name; the
 * declaration. */
static LLVMValueRef declareKept(LLVMModuleRef M, LLVMValueRef G,
                                const char *Symbol) {
  LLVMValueRef D = LLVMAddGlobal(M, LLVMGlobalGetValueType(G), Symbol);
  LLVMSetLinkage(D, LLVMExternalLinkage);
  LLVMSetAlignment(D, LLVMGetAlignment(G));
  LLVMReplaceAllUsesWith(G, D);
  LLVMDeleteGlobal(G);
  return D;
}

/* One variable: kept if Keep has it, and its companion added. */
static orc_rt_ErrorRef keepOne(LLVMModuleRef M, LLVMValueRef G,
                               const orc_rt_jit_KeptVar *Keep, size_t N) {
  orc_rt_jit_KeptVar V = {strdup(LLVMGetValueName(G)), orc_rt_jit_typeKey(G),
                          isExternal(G)};
  char *Companion = NULL, *Kept = NULL;
  if (V.Name && V.TypeKey && (Companion = orc_rt_jit_varCompanionName(&V)) &&
      (!find(Keep, N, V.Name, V.TypeKey) ||
       (Kept = orc_rt_jit_keptSymbolName(&V)))) {
    LLVMValueRef Storage = Kept ? declareKept(M, G, Kept) : G;
    LLVMContextRef C = LLVMGetModuleContext(M);
    LLVMValueRef P =
        LLVMAddGlobal(M, LLVMPointerTypeInContext(C, 0), Companion);
    LLVMSetInitializer(P, Storage);
    LLVMSetGlobalConstant(P, true);
    LLVMSetLinkage(P, LLVMExternalLinkage);
  }
  bool Ok = V.Name && V.TypeKey && Companion;
  free(Companion);
  free(Kept);
  orc_rt_jit_KeptVar_dispose(&V);
  return Ok ? NULL : orc_rt_Error_create("out of memory");
}

orc_rt_ErrorRef orc_rt_jit_keepVariables(LLVMModuleRef M,
                                         const orc_rt_jit_KeptVar *Keep,
                                         size_t N) {
  /* The keepable variables first: keeping one adds and deletes globals. */
  size_t Count = 0;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
    Count += isKeepable(G);
  LLVMValueRef *Vars = calloc(Count + 1, sizeof(*Vars));
  if (!Vars)
    return orc_rt_Error_create("out of memory");
  size_t I = 0;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G; G = LLVMGetNextGlobal(G))
    if (isKeepable(G))
      Vars[I++] = G;
  orc_rt_ErrorRef Err = NULL;
  for (I = 0; I < Count && !Err; ++I) {
    char *Key = orc_rt_jit_typeKey(Vars[I]);
    Err = Key ? keepOne(M, Vars[I], Keep, N) : NULL; /* no layout: not kept */
    free(Key);
  }
  free(Vars);
  return Err;
}
