/*===- lib/jit/program/JITDylibs.c - lli's -jd: JITDylibs linked with main ===*/
/* See JITDylibs.h. The export tables are written while modules are added and
 * only read once link() has added the generators, which may then run on any
 * thread: no lock. */

#include "jit/program/JITDylibs.h"
#include "jit/compile/SymbolImport.h"
#include "jit/support/GrowArray.h"

#include <llvm-c/LLJIT.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *Name;
  bool Function;
  unsigned Module; /* which noted module defines it */
} Export;

/* A reference from a part of module From (PartData: its variables'
 * initializers; PartCode: its functions) to a global value. */
enum { PartData, PartCode };
typedef struct {
  unsigned From, Part;
  char *Name;      /* NULL: a definition of module From */
  unsigned ToPart; /* for a definition of module From */
} Ref;

/* A noted module: its JITDylib, and whether its functions are reached
 * without stubs (orc-lazy adds modules with aliases, ifuncs or blockaddress
 * constants whole, LazySplit.h). */
typedef struct {
  size_t Dylib;
  bool NoStubs;
  bool Noted;
} ModuleInfo;

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
  /* Which objects wait for which (see waitForEachOther). */
  ModuleInfo *Modules;
  size_t NumModules;
  Ref *Refs;
  size_t NumRefs, RefCap;
  unsigned char *Edges; /* [From node][To node], 2 nodes per module */
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
                                 bool Function, unsigned Module) {
  if (!orc_rt_jit_growArray(&Y->Exports, &Y->Capacity, Y->NumExports + 1,
                            sizeof(*Y->Exports)))
    return orc_rt_Error_create("out of memory");
  char *Copy = strndup(Name, Len);
  if (!Copy)
    return orc_rt_Error_create("out of memory");
  Y->Exports[Y->NumExports++] = (Export){Copy, Function, Module};
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

static orc_rt_ErrorRef noteValue(Dylib *Y, LLVMValueRef V, bool Function,
                                 unsigned Module) {
  size_t Len;
  const char *Name = LLVMGetValueName2(V, &Len);
  return Len && isExported(V) ? addExport(Y, Name, Len, Function, Module)
                              : NULL;
}

/*---- Which objects wait for which ----*/

static bool isFunctionValue(LLVMValueRef G) {
  if (LLVMIsAGlobalAlias(G))
    return LLVMIsAFunction(LLVMAliasGetAliasee(G)) != NULL;
  return LLVMIsAFunction(G) || LLVMIsAGlobalIFunc(G);
}

/* The part of a module that defines G: with one object per module (lli's
 * cache), there is one. */
static unsigned partOf(orc_rt_jit_JITDylibs *D, bool Function) {
  return Function && !D->Opts->EnableCacheManager ? PartCode : PartData;
}

static unsigned nodeOf(unsigned Module, unsigned Part) {
  return 2 * Module + Part;
}

static orc_rt_ErrorRef noteRef(orc_rt_jit_JITDylibs *D, unsigned Module,
                               unsigned Part, LLVMValueRef G) {
  if (D->Opts->EnableCacheManager)
    Part = PartData;
  bool Defined =
      !LLVMIsDeclaration(G) || LLVMIsAGlobalAlias(G) || LLVMIsAGlobalIFunc(G);
  size_t Len = 0;
  const char *Name = Defined ? NULL : LLVMGetValueName2(G, &Len);
  if (!Defined && !Len)
    return NULL;
  if (!orc_rt_jit_growArray(&D->Refs, &D->RefCap, D->NumRefs + 1,
                            sizeof(*D->Refs)))
    return orc_rt_Error_create("out of memory");
  char *Copy = Name ? strndup(Name, Len) : NULL;
  if (Name && !Copy)
    return orc_rt_Error_create("out of memory");
  D->Refs[D->NumRefs++] =
      (Ref){Module, Part, Copy, partOf(D, isFunctionValue(G))};
  return NULL;
}

/* Notes the global values V refers to (through constants, not through
 * other globals' initializers). */
static orc_rt_ErrorRef noteRefsIn(orc_rt_jit_JITDylibs *D, unsigned Module,
                                  unsigned Part, LLVMValueRef V, int Depth) {
  if (LLVMIsAGlobalValue(V))
    return noteRef(D, Module, Part, V);
  if (LLVMIsABlockAddress(V) && D->Opts->Lazy && !D->Opts->EnableCacheManager)
    D->Modules[Module].NoStubs = true; /* kept whole (LazySplit.h) */
  if (Depth > 64 || !LLVMIsAConstant(V))
    return NULL;
  int N = LLVMGetNumOperands(V);
  orc_rt_ErrorRef Err = NULL;
  for (int I = 0; I < N && !Err; ++I)
    Err =
        noteRefsIn(D, Module, Part, LLVMGetOperand(V, (unsigned)I), Depth + 1);
  return Err;
}

static orc_rt_ErrorRef noteRefs(orc_rt_jit_JITDylibs *D, unsigned Module,
                                LLVMModuleRef M) {
  orc_rt_ErrorRef Err = NULL;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G && !Err;
       G = LLVMGetNextGlobal(G))
    if (LLVMGetInitializer(G))
      Err = noteRefsIn(D, Module, PartData, LLVMGetInitializer(G), 0);
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && !Err;
       F = LLVMGetNextFunction(F))
    for (LLVMBasicBlockRef B = LLVMGetFirstBasicBlock(F); B && !Err;
         B = LLVMGetNextBasicBlock(B))
      for (LLVMValueRef I = LLVMGetFirstInstruction(B); I && !Err;
           I = LLVMGetNextInstruction(I)) {
        int N = LLVMGetNumOperands(I);
        for (int K = 0; K < N && !Err; ++K)
          Err = noteRefsIn(D, Module, PartCode, LLVMGetOperand(I, (unsigned)K),
                           0);
      }
  return Err;
}

static orc_rt_ErrorRef noteModuleInfo(orc_rt_jit_JITDylibs *D, unsigned Index,
                                      size_t Dylib, LLVMModuleRef M) {
  if (Index >= D->NumModules) {
    ModuleInfo *N = realloc(D->Modules, (Index + 1) * sizeof(*N));
    if (!N)
      return orc_rt_Error_create("out of memory");
    memset(N + D->NumModules, 0, (Index + 1 - D->NumModules) * sizeof(*N));
    D->Modules = N;
    D->NumModules = Index + 1;
  }
  D->Modules[Index] = (ModuleInfo){
      Dylib,
      D->Opts->Lazy && !D->Opts->EnableCacheManager &&
          (LLVMGetFirstGlobalAlias(M) || LLVMGetFirstGlobalIFunc(M)),
      true};
  return noteRefs(D, Index, M);
}

orc_rt_ErrorRef orc_rt_jit_JITDylibs_noteModule(orc_rt_jit_JITDylibs *D,
                                                unsigned Index,
                                                LLVMModuleRef M) {
  if (!D)
    return NULL;
  Dylib *Y = dylibOf(D, orc_rt_jit_JITDylibs_ofModule(D, Index));
  orc_rt_ErrorRef Err = noteModuleInfo(D, Index, (size_t)(Y - D->Dylibs), M);
  for (LLVMValueRef V = LLVMGetFirstFunction(M); V && !Err;
       V = LLVMGetNextFunction(V))
    Err = noteValue(Y, V, true, Index);
  for (LLVMValueRef V = LLVMGetFirstGlobal(M); V && !Err;
       V = LLVMGetNextGlobal(V))
    Err = noteValue(Y, V, false, Index);
  for (LLVMValueRef V = LLVMGetFirstGlobalAlias(M); V && !Err;
       V = LLVMGetNextGlobalAlias(V))
    Err =
        noteValue(Y, V, LLVMIsAFunction(LLVMAliasGetAliasee(V)) != NULL, Index);
  for (LLVMValueRef V = LLVMGetFirstGlobalIFunc(M); V && !Err;
       V = LLVMGetNextGlobalIFunc(V))
    Err = noteValue(Y, V, true, Index);
  return Err;
}

static int byName(const void *A, const void *B) {
  return strcmp(((const Export *)A)->Name, ((const Export *)B)->Name);
}

static const Export *findExport(const Dylib *Y, const char *Name) {
  Export Key = {(char *)Name, false, 0};
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

/*---- Objects that would wait for each other ----*/

/* The module that a reference from module From finds Name in, through its
 * JITDylib's link order (its own JITDylib, then main or the named ones). */
static const Export *resolve(orc_rt_jit_JITDylibs *D, unsigned From,
                             const char *Name) {
  size_t J = D->Modules[From].Dylib;
  const Export *E = findExport(&D->Dylibs[J], Name);
  for (size_t K = 1; !E && !J && K < D->NumDylibs; ++K)
    E = findExport(&D->Dylibs[K], Name);
  if (!E && J)
    E = findExport(&D->Dylibs[0], Name);
  return E && E->Module < D->NumModules && D->Modules[E->Module].Noted ? E
                                                                       : NULL;
}

/* Whether a use of a function of module To from module From waits for To's
 * code object: not through a stub (orc's lazy reexport of another
 * JITDylib's function, orc-lazy's own stubs). */
static bool callWaits(orc_rt_jit_JITDylibs *D, unsigned From, unsigned To) {
  if (D->Modules[From].Dylib != D->Modules[To].Dylib && D->Whole)
    return false;
  return !D->Opts->Lazy || D->Opts->EnableCacheManager ||
         D->Modules[To].NoStubs;
}

/* Whether node To waits, through the edges, for node From. */
static bool reaches(orc_rt_jit_JITDylibs *D, size_t N, size_t From, size_t To,
                    unsigned char *Seen, size_t *Stack) {
  size_t Top = 0;
  memset(Seen, 0, N);
  Stack[Top++] = From;
  Seen[From] = 1;
  while (Top) {
    size_t U = Stack[--Top];
    if (U == To)
      return true;
    for (size_t V = 0; V < N; ++V)
      if (D->Edges[U * N + V] && !Seen[V]) {
        Seen[V] = 1;
        Stack[Top++] = V;
      }
  }
  return false;
}

/* LLVM-C's lookups wait until a symbol is ready: an object that uses
 * another JITDylib's symbol waits for the object defining it, and for all
 * that one depends on. Objects that so wait, through another JITDylib, for
 * themselves would wait forever; they are refused before anything links. */
static orc_rt_ErrorRef waitForEachOther(orc_rt_jit_JITDylibs *D) {
  size_t N = 2 * D->NumModules;
  if (!N)
    return NULL;
  D->Edges = calloc(N * N, 1);
  unsigned char *Seen = malloc(N);
  size_t *Stack = malloc(N * sizeof(*Stack));
  if (!D->Edges || !Seen || !Stack) {
    free(Seen), free(Stack);
    return orc_rt_Error_create("out of memory");
  }
  for (size_t I = 0; I < D->NumRefs; ++I) {
    const Ref *R = &D->Refs[I];
    unsigned To = R->From, Part = R->ToPart;
    bool Function = Part == PartCode;
    if (R->Name) {
      const Export *E = resolve(D, R->From, R->Name);
      if (!E)
        continue;
      To = E->Module;
      Function = E->Function;
      Part = partOf(D, Function);
    }
    if (Function && !callWaits(D, R->From, To))
      continue;
    size_t U = nodeOf(R->From, R->Part), V = nodeOf(To, Part);
    if (U != V)
      D->Edges[U * N + V] =
          D->Modules[R->From].Dylib != D->Modules[To].Dylib ? 2 : 1;
  }
  bool Cycle = false;
  for (size_t U = 0; U < N && !Cycle; ++U)
    for (size_t V = 0; V < N && !Cycle; ++V)
      Cycle = D->Edges[U * N + V] == 2 && reaches(D, N, V, U, Seen, Stack);
  free(Seen);
  free(Stack);
  return Cycle ? orc_rt_Error_create(
                     "the -jd JITDylibs cannot be linked: their objects wait "
                     "for each other (LLVM-C looks a symbol up only once "
                     "everything it refers to is linked)")
               : NULL;
}

orc_rt_ErrorRef orc_rt_jit_JITDylibs_link(orc_rt_jit_JITDylibs *D) {
  if (!D)
    return NULL;
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
  return waitForEachOther(D);
}

void orc_rt_jit_JITDylibs_dispose(orc_rt_jit_JITDylibs *D) {
  if (!D)
    return;
  for (size_t I = 0; I < D->NumDylibs; ++I) {
    for (size_t K = 0; K < D->Dylibs[I].NumExports; ++K)
      free(D->Dylibs[I].Exports[K].Name);
    free(D->Dylibs[I].Exports);
  }
  for (size_t I = 0; I < D->NumRefs; ++I)
    free(D->Refs[I].Name);
  free(D->Refs);
  free(D->Modules);
  free(D->Edges);
  free(D->Dylibs);
  free(D->Named);
  free(D);
}
