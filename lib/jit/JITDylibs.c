/*===- lib/jit/JITDylibs.c - lli's -jd: JITDylibs linked with main --------===*/
/* See JITDylibs.h. The export tables are written while modules are added and
 * only read once link() has added the generators, which may then run on any
 * thread: no lock. */

#include "jit/JITDylibs.h"
#include "jit/SymbolImport.h"

#include <llvm-c/LLJIT.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *Name;
  bool Function;
} Export;

typedef struct {
  orc_rt_jit_JITDylibs *Owner;
  LLVMOrcJITDylibRef JD;
  Export *Exports; /* sorted by name once linked */
  size_t NumExports, Capacity;
  bool Archives; /* has -extra-archives: symbols the IR does not tell */
} Dylib;

struct orc_rt_jit_JITDylibs {
  orc_rt_jit_Jit *Jit;
  const orc_rt_jit_Options *Opts;
  LLVMOrcLLJITRef LLJIT;
  char GlobalPrefix;
  bool Whole;    /* functions are compiled whole: reexported through stubs */
  Dylib *Dylibs; /* [0] is the main JITDylib, then the -jd ones, in order */
  size_t NumDylibs;
  /* The -jd ones with archives, exported symbols only: where main looks for
   * what no module exports. */
  LLVMOrcCJITDylibSearchOrderElement *Named;
  size_t NumNamed;
};

static Dylib *dylibOf(orc_rt_jit_JITDylibs *D, LLVMOrcJITDylibRef JD) {
  for (size_t I = 1; I < D->NumDylibs; ++I)
    if (D->Dylibs[I].JD == JD)
      return &D->Dylibs[I];
  return &D->Dylibs[0];
}

static LLVMOrcJITDylibRef placed(orc_rt_jit_JITDylibs *D, const char *Name) {
  LLVMOrcJITDylibRef JD = NULL;
  if (D && Name)
    orc_rt_Error_consume(orc_rt_jit_Jit_dylib(D->Jit, Name, &JD));
  return D && JD != D->Dylibs[0].JD ? JD : NULL;
}

orc_rt_ErrorRef orc_rt_jit_JITDylibs_create(orc_rt_jit_JITDylibs **Out,
                                            orc_rt_jit_Jit *J,
                                            const orc_rt_jit_Options *O) {
  *Out = NULL;
  if (!O->JITDylibs.Size || O->Engine == orc_rt_jit_Engine_MCJIT ||
      O->Engine == orc_rt_jit_Engine_Interpreter)
    return NULL;
  orc_rt_jit_JITDylibs *D = calloc(1, sizeof(*D));
  Dylib *Ds = calloc(O->JITDylibs.Size + 1, sizeof(*Ds));
  if (!D || !Ds) {
    free(D);
    free(Ds);
    return orc_rt_Error_create("out of memory");
  }
  D->Jit = J;
  D->Opts = O;
  D->Dylibs = Ds;
  orc_rt_ErrorRef Err =
      orc_rt_jit_Jit_dylib(J, NULL, &D->Dylibs[D->NumDylibs].JD);
  D->Dylibs[D->NumDylibs++].Owner = D;
  for (size_t I = 0; !Err && I < O->JITDylibs.Size; ++I) {
    LLVMOrcJITDylibRef JD;
    Err = orc_rt_jit_Jit_dylib(J, O->JITDylibs.Items[I], &JD);
    if (Err || dylibOf(D, JD)->JD == JD || JD == D->Dylibs[0].JD)
      continue; /* named before, or "main" */
    D->Dylibs[D->NumDylibs++] = (Dylib){D, JD, NULL, 0, 0, false};
  }
  for (size_t I = 0; !Err && I < O->ExtraArchives.Size; ++I)
    dylibOf(D, placed(D, O->ExtraArchiveJDs.Items[I]))->Archives = true;
  if (Err) {
    orc_rt_jit_JITDylibs_dispose(D);
    return Err;
  }
  D->LLJIT = orc_rt_jit_Jit_llJIT(J);
  D->GlobalPrefix = LLVMOrcLLJITGetGlobalPrefix(D->LLJIT);
  /* orc-lazy's functions are stubs already (but not with lli's cache, which
   * compiles modules whole; see Jit_addModule). */
  D->Whole = !O->Lazy || O->EnableCacheManager;
  *Out = D;
  return NULL;
}

LLVMOrcJITDylibRef orc_rt_jit_JITDylibs_ofModule(orc_rt_jit_JITDylibs *D,
                                                 unsigned Index) {
  return Index && D ? placed(D, D->Opts->ExtraModuleJDs.Items[Index - 1])
                    : NULL;
}

LLVMOrcJITDylibRef orc_rt_jit_JITDylibs_ofArchive(orc_rt_jit_JITDylibs *D,
                                                  size_t I) {
  return D ? placed(D, D->Opts->ExtraArchiveJDs.Items[I]) : NULL;
}

/*---- What each JITDylib exports ----*/

static orc_rt_ErrorRef addExport(Dylib *Y, const char *Name, size_t Len,
                                 bool Function) {
  if (Y->NumExports == Y->Capacity) {
    size_t Cap = Y->Capacity ? 2 * Y->Capacity : 32;
    Export *N = realloc(Y->Exports, Cap * sizeof(*N));
    if (!N)
      return orc_rt_Error_create("out of memory");
    Y->Exports = N;
    Y->Capacity = Cap;
  }
  char *Copy = strndup(Name, Len);
  if (!Copy)
    return orc_rt_Error_create("out of memory");
  Y->Exports[Y->NumExports++] = (Export){Copy, Function};
  return NULL;
}

/* An exported definition: what another JITDylib's link order can see. */
static bool isExported(LLVMValueRef V) {
  LLVMLinkage L = LLVMGetLinkage(V);
  bool Definition =
      LLVMIsAGlobalAlias(V) || LLVMIsAGlobalIFunc(V) || !LLVMIsDeclaration(V);
  return Definition && L != LLVMInternalLinkage && L != LLVMPrivateLinkage &&
         L != LLVMAvailableExternallyLinkage &&
         LLVMGetVisibility(V) != LLVMHiddenVisibility;
}

static orc_rt_ErrorRef noteValue(Dylib *Y, LLVMValueRef V, bool Function) {
  size_t Len;
  const char *Name = LLVMGetValueName2(V, &Len);
  return Len && isExported(V) ? addExport(Y, Name, Len, Function) : NULL;
}

orc_rt_ErrorRef orc_rt_jit_JITDylibs_noteModule(orc_rt_jit_JITDylibs *D,
                                                unsigned Index,
                                                LLVMModuleRef M) {
  if (!D)
    return NULL;
  Dylib *Y = dylibOf(D, orc_rt_jit_JITDylibs_ofModule(D, Index));
  orc_rt_ErrorRef Err = NULL;
  for (LLVMValueRef V = LLVMGetFirstFunction(M); V && !Err;
       V = LLVMGetNextFunction(V))
    Err = noteValue(Y, V, true);
  for (LLVMValueRef V = LLVMGetFirstGlobal(M); V && !Err;
       V = LLVMGetNextGlobal(V))
    Err = noteValue(Y, V, false);
  for (LLVMValueRef V = LLVMGetFirstGlobalAlias(M); V && !Err;
       V = LLVMGetNextGlobalAlias(V))
    Err = noteValue(Y, V, LLVMIsAFunction(LLVMAliasGetAliasee(V)) != NULL);
  for (LLVMValueRef V = LLVMGetFirstGlobalIFunc(M); V && !Err;
       V = LLVMGetNextGlobalIFunc(V))
    Err = noteValue(Y, V, true);
  return Err;
}

static int byName(const void *A, const void *B) {
  return strcmp(((const Export *)A)->Name, ((const Export *)B)->Name);
}

static const Export *findExport(const Dylib *Y, const char *Name) {
  Export Key = {(char *)Name, false};
  return Y->NumExports
             ? bsearch(&Key, Y->Exports, Y->NumExports, sizeof(Export), byName)
             : NULL;
}

/*---- Reexports ----*/

/* A symbol of another JITDylib, looked up there when something needs it. */
typedef struct {
  LLVMOrcExecutionSessionRef ES;
  LLVMOrcJITDylibRef From;
  LLVMOrcSymbolStringPoolEntryRef Name;
  LLVMJITSymbolFlags Flags;
  LLVMOrcMaterializationResponsibilityRef MR;
} Reexport;

static void freeReexport(void *Ctx) {
  Reexport *R = Ctx;
  LLVMOrcReleaseSymbolStringPoolEntry(R->Name);
  free(R);
}

static void reexportFound(LLVMErrorRef Err, LLVMOrcCSymbolMapPairs Result,
                          size_t NumPairs, void *Ctx) {
  Reexport *R = Ctx;
  if (!Err && NumPairs == 1) {
    LLVMOrcCSymbolMapPair Pair = {R->Name, {Result[0].Sym.Address, R->Flags}};
    Err = LLVMOrcMaterializationResponsibilityNotifyResolved(R->MR, &Pair, 1);
    if (!Err)
      Err = LLVMOrcMaterializationResponsibilityNotifyEmitted(R->MR, NULL, 0);
  }
  if (Err || NumPairs != 1) {
    /* The lookup's own error went to the session's reporter; this unit
     * fails with it ("Failed to materialize symbols"). */
    if (Err)
      LLVMConsumeError(Err);
    LLVMOrcMaterializationResponsibilityFailMaterialization(R->MR);
  }
  LLVMOrcDisposeMaterializationResponsibility(R->MR);
  freeReexport(R);
}

static void materializeReexport(void *Ctx,
                                LLVMOrcMaterializationResponsibilityRef MR) {
  Reexport *R = Ctx; /* ours from here (the unit no longer destroys it) */
  R->MR = MR;
  LLVMOrcRetainSymbolStringPoolEntry(R->Name); /* the lookup's */
  LLVMOrcCLookupSetElement Sym = {R->Name,
                                  LLVMOrcSymbolLookupFlagsRequiredSymbol};
  LLVMOrcCJITDylibSearchOrderElement Order = {
      R->From, LLVMOrcJITDylibLookupFlagsMatchExportedSymbolsOnly};
  LLVMOrcExecutionSessionLookup(R->ES, LLVMOrcLookupKindStatic, &Order, 1, &Sym,
                                1, reexportFound, R);
}

static void discardReexport(void *Ctx, LLVMOrcJITDylibRef JD,
                            LLVMOrcSymbolStringPoolEntryRef Name) {
  (void)Ctx, (void)JD, (void)Name;
}

/* Defines Name, an export E of From, in To (a duplicate, from a lookup on
 * another thread, is dropped). */
static void reexport(orc_rt_jit_JITDylibs *D, Dylib *To, Dylib *From,
                     const Export *E) {
  if (E->Function && D->Whole) {
    orc_rt_Error_consume(
        orc_rt_jit_Jit_defineReexport(D->Jit, To->JD, From->JD, E->Name));
    return;
  }
  Reexport *R = malloc(sizeof(*R));
  if (!R)
    return; /* missing: the link that needed it fails and says so */
  R->ES = LLVMOrcLLJITGetExecutionSession(D->LLJIT);
  R->From = From->JD;
  R->Name = LLVMOrcLLJITMangleAndIntern(D->LLJIT, E->Name);
  R->Flags = (LLVMJITSymbolFlags){
      LLVMJITSymbolGenericFlagsExported |
          (E->Function ? LLVMJITSymbolGenericFlagsCallable : 0),
      0};
  LLVMOrcRetainSymbolStringPoolEntry(R->Name); /* the unit's */
  LLVMOrcCSymbolFlagsMapPair Sym = {R->Name, R->Flags};
  LLVMOrcMaterializationUnitRef MU = LLVMOrcCreateCustomMaterializationUnit(
      E->Name, R, &Sym, 1, NULL, materializeReexport, discardReexport,
      freeReexport);
  LLVMErrorRef Err = LLVMOrcJITDylibDefine(To->JD, MU);
  if (Err) {
    LLVMConsumeError(Err);
    LLVMOrcDisposeMaterializationUnit(MU);
  }
}

/*---- The generators ----*/

static bool isEntryPoint(const orc_rt_jit_Options *O, const char *Name) {
  if (!strcmp(Name, O->EntryFunction))
    return true;
  for (size_t I = 0; I < O->ThreadEntries.Size; ++I)
    if (!strcmp(Name, O->ThreadEntries.Items[I]))
      return true;
  return false;
}

static bool findOverride(const char *Name, LLVMJITEvaluatedSymbol *Sym) {
  size_t N;
  const orc_rt_jit_Override *O = orc_rt_jit_Runtime_overrides(&N);
  for (size_t I = 0; I < N; ++I)
    if (!strcmp(O[I].Name, Name)) {
      *Sym = (LLVMJITEvaluatedSymbol){
          O[I].Addr,
          {LLVMJITSymbolGenericFlagsExported |
               (O[I].Callable ? LLVMJITSymbolGenericFlagsCallable : 0),
           0}};
      return true;
    }
  return false;
}

/* The process's symbols, as the process generator of the main JITDylib
 * gives them (not the host's own `main`). */
static bool findInProcess(const orc_rt_jit_Options *O, const char *Name,
                          LLVMJITEvaluatedSymbol *Sym) {
  if (O->NoProcessSyms || !strcmp(Name, "main"))
    return false;
  void *Addr = dlsym(RTLD_DEFAULT, Name);
  *Sym = (LLVMJITEvaluatedSymbol){(uintptr_t)Addr,
                                  {LLVMJITSymbolGenericFlagsExported, 0}};
  return Addr != NULL;
}

/* The main JITDylib, after its own generators: each named JITDylib's
 * exports, the first that has the name (not for the entry points); the
 * rest (their archives' members) looked up in them. */
static LLVMErrorRef generateForMain(Dylib *Main, LLVMOrcLookupStateRef *State,
                                    LLVMOrcCLookupSet Set, size_t N) {
  orc_rt_jit_JITDylibs *D = Main->Owner;
  LLVMOrcCLookupSetElement *Rest = calloc(N + 1, sizeof(*Rest));
  if (!Rest)
    return LLVMCreateStringError("out of memory");
  size_t NR = 0;
  for (size_t I = 0; I < N; ++I) {
    const char *Name = LLVMOrcSymbolStringPoolEntryStr(Set[I].Name);
    if (D->GlobalPrefix && *Name == D->GlobalPrefix)
      ++Name;
    if (isEntryPoint(D->Opts, Name))
      continue;
    const Export *E = NULL;
    size_t K = 1;
    while (K < D->NumDylibs && !(E = findExport(&D->Dylibs[K], Name)))
      ++K;
    if (E) {
      reexport(D, Main, &D->Dylibs[K], E);
    } else if (D->NumNamed) {
      LLVMOrcRetainSymbolStringPoolEntry(Set[I].Name); /* the lookup's */
      Rest[NR++].Name = Set[I].Name;
    }
  }
  LLVMErrorRef Err = NR ? orc_rt_jit_importInto(
                              LLVMOrcLLJITGetExecutionSession(D->LLJIT),
                              Main->JD, State, D->Named, D->NumNamed, Rest, NR)
                        : NULL;
  free(Rest);
  return Err;
}

/* A named JITDylib, after its archives: the platform (mini-lli's
 * definitions), the process, the main JITDylib's exports; the rest (its
 * archives' members) looked up there. */
static LLVMErrorRef generateForNamed(Dylib *Y, LLVMOrcLookupStateRef *State,
                                     LLVMOrcCLookupSet Set, size_t N) {
  orc_rt_jit_JITDylibs *D = Y->Owner;
  Dylib *Main = &D->Dylibs[0];
  LLVMOrcCSymbolMapPairs Found = calloc(N + 1, sizeof(*Found));
  LLVMOrcCLookupSetElement *Rest = calloc(N + 1, sizeof(*Rest));
  if (!Found || !Rest) {
    free(Found), free(Rest);
    return LLVMCreateStringError("out of memory");
  }
  size_t NF = 0, NR = 0;
  for (size_t I = 0; I < N; ++I) {
    const char *Name = LLVMOrcSymbolStringPoolEntryStr(Set[I].Name);
    if (D->GlobalPrefix && *Name == D->GlobalPrefix)
      ++Name;
    const Export *E;
    if (findOverride(Name, &Found[NF].Sym) ||
        findInProcess(D->Opts, Name, &Found[NF].Sym)) {
      Found[NF++].Name = Set[I].Name;
    } else if ((E = findExport(Main, Name))) {
      reexport(D, Y, Main, E);
    } else if (Main->Archives) {
      LLVMOrcRetainSymbolStringPoolEntry(Set[I].Name); /* the lookup's */
      Rest[NR++].Name = Set[I].Name;
    }
  }
  orc_rt_jit_defineAbsolute(Y->JD, Found, NF);
  free(Found);
  LLVMOrcCJITDylibSearchOrderElement Order = {
      Main->JD, LLVMOrcJITDylibLookupFlagsMatchExportedSymbolsOnly};
  LLVMErrorRef Err =
      NR ? orc_rt_jit_importInto(LLVMOrcLLJITGetExecutionSession(D->LLJIT),
                                 Y->JD, State, &Order, 1, Rest, NR)
         : NULL;
  free(Rest);
  return Err;
}

static LLVMErrorRef generate(LLVMOrcDefinitionGeneratorRef G, void *Ctx,
                             LLVMOrcLookupStateRef *State,
                             LLVMOrcLookupKind Kind, LLVMOrcJITDylibRef JD,
                             LLVMOrcJITDylibLookupFlags Flags,
                             LLVMOrcCLookupSet Set, size_t N) {
  (void)G, (void)Kind, (void)JD;
  Dylib *Y = Ctx;
  /* From another JITDylib's link order: a link order is not transitive. */
  if (Flags != LLVMOrcJITDylibLookupFlagsMatchAllSymbols)
    return NULL;
  if (Y == &Y->Owner->Dylibs[0])
    return generateForMain(Y, State, Set, N);
  return generateForNamed(Y, State, Set, N);
}

void orc_rt_jit_JITDylibs_link(orc_rt_jit_JITDylibs *D) {
  if (!D)
    return;
  /* (Out of memory: main does not see the named ones' archives.) */
  D->Named = calloc(D->NumDylibs, sizeof(*D->Named));
  for (size_t I = 1; D->Named && I < D->NumDylibs; ++I)
    if (D->Dylibs[I].Archives)
      D->Named[D->NumNamed++] = (LLVMOrcCJITDylibSearchOrderElement){
          D->Dylibs[I].JD, LLVMOrcJITDylibLookupFlagsMatchExportedSymbolsOnly};
  for (size_t I = 0; I < D->NumDylibs; ++I) {
    Dylib *Y = &D->Dylibs[I];
    if (Y->NumExports)
      qsort(Y->Exports, Y->NumExports, sizeof(Export), byName);
    LLVMOrcJITDylibAddGenerator(
        Y->JD, LLVMOrcCreateCustomCAPIDefinitionGenerator(generate, Y, NULL));
  }
}

void orc_rt_jit_JITDylibs_dispose(orc_rt_jit_JITDylibs *D) {
  if (!D)
    return;
  for (size_t I = 0; I < D->NumDylibs; ++I) {
    for (size_t K = 0; K < D->Dylibs[I].NumExports; ++K)
      free(D->Dylibs[I].Exports[K].Name);
    free(D->Dylibs[I].Exports);
  }
  free(D->Dylibs);
  free(D->Named);
  free(D);
}
