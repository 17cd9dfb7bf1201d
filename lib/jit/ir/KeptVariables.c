/*===- lib/jit/ir/KeptVariables.c - Variables that keep their storage across a reload ===*/

#include "jit/ir/KeptVariables.h"
#include "jit/ir/DlopenIR.h"
#include "jit/ir/SplitSupport.h"
#include "jit/support/PtrSet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPANION_PREFIX "__orc_rt_var:"
#define KEPT_PREFIX "__orc_rt_kept:"

/*---- Type keys ----*/

/* T's layout written to Out; false for a type with no fixed layout. */
static bool writeType(FILE *Out, LLVMTypeRef T) {
  const char *Scalar;
  switch (LLVMGetTypeKind(T)) {
  case LLVMIntegerTypeKind:
    fprintf(Out, "i%u", LLVMGetIntTypeWidth(T));
    return true;
  case LLVMHalfTypeKind:
    Scalar = "half";
    break;
  case LLVMBFloatTypeKind:
    Scalar = "bfloat";
    break;
  case LLVMFloatTypeKind:
    Scalar = "float";
    break;
  case LLVMDoubleTypeKind:
    Scalar = "double";
    break;
  case LLVMX86_FP80TypeKind:
    Scalar = "x86_fp80";
    break;
  case LLVMFP128TypeKind:
    Scalar = "fp128";
    break;
  case LLVMPointerTypeKind:
    fputs("ptr", Out);
    if (LLVMGetPointerAddressSpace(T))
      fprintf(Out, "@%u", LLVMGetPointerAddressSpace(T));
    return true;
  case LLVMArrayTypeKind:
    fprintf(Out, "[%llux", (unsigned long long)LLVMGetArrayLength2(T));
    return writeType(Out, LLVMGetElementType(T)) && fputc(']', Out) != EOF;
  case LLVMVectorTypeKind:
    fprintf(Out, "<%ux", LLVMGetVectorSize(T));
    return writeType(Out, LLVMGetElementType(T)) && fputc('>', Out) != EOF;
  case LLVMStructTypeKind: {
    if (LLVMIsOpaqueStruct(T))
      return false;
    bool Packed = LLVMIsPackedStruct(T);
    fputs(Packed ? "<{" : "{", Out);
    unsigned N = LLVMCountStructElementTypes(T);
    for (unsigned I = 0; I < N; ++I)
      if ((I && fputc(',', Out) == EOF) ||
          !writeType(Out, LLVMStructGetTypeAtIndex(T, I)))
        return false;
    return fputs(Packed ? "}>" : "}", Out) >= 0;
  }
  default: /* scalable vectors, target types, x86_amx, ... */
    return false;
  }
  return fputs(Scalar, Out) >= 0;
}

static bool isKeepable(LLVMValueRef G) {
  if (!LLVMIsAGlobalVariable(G) || LLVMIsDeclaration(G) ||
      LLVMIsGlobalConstant(G) || LLVMIsThreadLocal(G))
    return false;
  /* (available_externally: a copy of a definition elsewhere, which the
   * module binds to) */
  if (LLVMGetLinkage(G) == LLVMAppendingLinkage ||
      LLVMGetLinkage(G) == LLVMAvailableExternallyLinkage)
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
  char *Key = NULL;
  size_t Len;
  FILE *Out = open_memstream(&Key, &Len);
  if (!Out)
    return NULL;
  bool Ok = writeType(Out, LLVMGlobalGetValueType(G));
  if (Ok && LLVMGetAlignment(G))
    fprintf(Out, "/a%u", LLVMGetAlignment(G));
  Ok = Ok && !ferror(Out);
  if (fclose(Out) || !Ok) {
    free(Key);
    return NULL;
  }
  return Key;
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
  static const char *const Flags[2][2] = {{"LA:", "LK:"}, {"EA:", "EK:"}};
  return joined(COMPANION_PREFIX, Flags[V->External][V->Kept], V->TypeKey,
                V->Name);
}

char *orc_rt_jit_keptSymbolName(const orc_rt_jit_KeptVar *V) {
  return joined(KEPT_PREFIX, "", V->TypeKey, V->Name);
}

bool orc_rt_jit_parseVarCompanion(const char *Symbol, orc_rt_jit_KeptVar *Out) {
  size_t P = strlen(COMPANION_PREFIX);
  if (strncmp(Symbol, COMPANION_PREFIX, P) ||
      (Symbol[P] != 'E' && Symbol[P] != 'L') ||
      (Symbol[P + 1] != 'A' && Symbol[P + 1] != 'K') || Symbol[P + 2] != ':')
    return false;
  const char *Type = Symbol + P + 3;
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
  *Out = (orc_rt_jit_KeptVar){Name, TypeKey, Symbol[P] == 'E',
                              Symbol[P + 1] == 'K'};
  return true;
}

void orc_rt_jit_KeptVar_dispose(orc_rt_jit_KeptVar *V) {
  free(V->Name);
  free(V->TypeKey);
  V->Name = V->TypeKey = NULL;
}

/*---- Keeping ----*/

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

/* G, whose type key is TypeKey: kept if Keep has it, and its companion
 * added. */
static orc_rt_ErrorRef keepOne(LLVMModuleRef M, LLVMValueRef G, char *TypeKey,
                               const orc_rt_jit_KeptVar *Keep, size_t N) {
  orc_rt_jit_KeptVar V = {strdup(LLVMGetValueName(G)), TypeKey,
                          orc_rt_jit_isExported(G), false};
  bool IsKept = V.Name && find(Keep, N, V.Name, V.TypeKey);
  V.Kept = IsKept;
  char *Companion = V.Name ? orc_rt_jit_varCompanionName(&V) : NULL;
  char *Kept = IsKept ? orc_rt_jit_keptSymbolName(&V) : NULL;
  bool Ok = Companion && IsKept == (Kept != NULL);
  if (Ok && Kept) {
    LLVMValueRef Storage = declareKept(M, G, Kept);
    LLVMContextRef C = LLVMGetModuleContext(M);
    LLVMValueRef P =
        LLVMAddGlobal(M, LLVMPointerTypeInContext(C, 0), Companion);
    LLVMSetInitializer(P, Storage);
    LLVMSetGlobalConstant(P, true);
    LLVMSetLinkage(P, LLVMExternalLinkage);
  } else if (Ok) {
    LLVMValueRef A =
        LLVMAddAlias2(M, LLVMGlobalGetValueType(G),
                      LLVMGetPointerAddressSpace(LLVMTypeOf(G)), G, Companion);
    LLVMSetLinkage(A, LLVMExternalLinkage);
  }
  free(Companion);
  free(Kept);
  orc_rt_jit_KeptVar_dispose(&V);
  return Ok ? NULL : orc_rt_Error_create("out of memory");
}

/* Keeping a variable deletes it and adds globals after the last one (its
 * declaration and its companion), which are not keepable: one walk, the
 * next global taken before each is kept. */
orc_rt_ErrorRef orc_rt_jit_keepVariables(LLVMModuleRef M,
                                         const orc_rt_jit_KeptVar *Keep,
                                         size_t N) {
  /* A variable an alias names is not kept: a kept variable becomes a
   * declaration, which an alias cannot name. Found before any companion (an
   * alias too) is added. */
  orc_rt_jit_PtrSet Aliased = {0};
  for (LLVMValueRef A = LLVMGetFirstGlobalAlias(M); A;
       A = LLVMGetNextGlobalAlias(A)) {
    LLVMValueRef V = orc_rt_jit_aliasedVariable(A);
    if (V && orc_rt_jit_PtrSet_insert(&Aliased, V) < 0) {
      orc_rt_jit_PtrSet_free(&Aliased);
      return orc_rt_Error_create("out of memory");
    }
  }
  orc_rt_ErrorRef Err = NULL;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M), Next; G && !Err; G = Next) {
    Next = LLVMGetNextGlobal(G);
    /* A common (tentative) definition, which no alias can name, becomes what
     * the link makes of it when no other definition comes: zeroed storage,
     * weak, as a strong definition elsewhere would win. */
    if (LLVMGetLinkage(G) == LLVMCommonLinkage)
      LLVMSetLinkage(G, LLVMWeakAnyLinkage);
    char *TypeKey = orc_rt_jit_PtrSet_has(&Aliased, G)
                        ? NULL
                        : orc_rt_jit_typeKey(G); /* NULL: not keepable */
    if (TypeKey)
      Err = keepOne(M, G, TypeKey, Keep, N);
  }
  orc_rt_jit_PtrSet_free(&Aliased);
  return Err;
}
