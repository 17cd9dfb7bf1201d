/*===- lib/jit/program/JITDylibs.c - lli's -jd: JITDylibs linked with main ===*/
/* See JITDylibs.h. The export tables are written while modules are added and
 * only read once link() has added the generators, which may then run on any
 * thread: no lock. */

#include "jit/program/JITDylibs.h"
#include "jit/compile/SymbolImport.h"
#include "jit/program/ObjectSymbols.h"
#include "jit/support/GrowArray.h"

#include <llvm-c/LLJIT.h>

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *Name;
  bool Function;
  bool Stubbed;  /* a function with a lazy stub of its own (orc-lazy) */
  bool Hidden;   /* seen from its own JITDylib only */
  unsigned Unit; /* the module or object that defines it (Units) */
  unsigned Part; /* an object's: the part (1 + section) that defines it */
  /* Which definition of a name a lookup in the JITDylib finds first: 0 for
   * its modules' and -extra-objects' (definitions), then each archive's
   * member, (archive's position + 1) << 32. */
  uint64_t Rank;
} Export;

/* A reference from a part of unit From to a global. A module's parts:
 * PartData (its variables' initializers), PartCode + K (its K-th function,
 * one part with all the others unless orc-lazy compiles each body apart; one
 * part with the variables too with lli's cache); an object's: PartEmit (its
 * link, which needs every symbol it uses resolved) and 1 + s for each section
 * s (ready once the link is done and what the section refers to is ready:
 * JITLink tracks a symbol's dependencies by its block, here its section). */
enum { PartData, PartCode };
enum { PartEmit };
typedef struct {
  unsigned From, Part;
  char *Name;      /* NULL: part ToPart of unit From */
  unsigned ToPart; /* for a part of unit From */
} Ref;

/* What links as one: a noted module (Index: the input, -extra-module I + 1),
 * then, from link() on, each -extra-object and each archive member that some
 * name of the archive's symbol table pulls in; and its JITDylib. */
typedef struct {
  size_t Dylib;
  bool Noted;
  bool Object;       /* an object file: parts by section */
  bool Member;       /* an archive's: linked only if a reference pulls it in */
  bool BodiesApart;  /* a module whose functions orc-lazy compiles apart */
  unsigned NumParts; /* a module's: 1 + its functions (at least 2) */
  unsigned char *Stubbed; /* a module's: its parts with a lazy stub, or NULL */
} Unit;

typedef struct {
  orc_rt_jit_JITDylibs *Owner;
  LLVMOrcJITDylibRef JD;
  Export *Exports; /* sorted by name, then rank, once linked */
  size_t NumExports, Capacity;
  bool Archives; /* has -extra-archives */
} Dylib;

struct orc_rt_jit_JITDylibs {
  orc_rt_jit_Jit *Jit;
  const orc_rt_jit_Options *Opts;
  LLVMOrcLLJITRef LLJIT;
  char GlobalPrefix;
  Dylib *Dylibs; /* [0] is the main JITDylib, then the -jd ones, in order */
  size_t NumDylibs;
  /* The -jd ones with archives, exported symbols only: where main looks for
   * what no module or member it knows of exports. */
  LLVMOrcCJITDylibSearchOrderElement *Named;
  size_t NumNamed;
  /* Which objects wait for which (see waitForEachOther). */
  Unit *Units;
  size_t NumUnits, UnitCap;
  Ref *Refs;
  size_t NumRefs, RefCap;
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
                                 bool Function, bool Hidden, unsigned Unit,
                                 uint64_t Rank) {
  if (!orc_rt_jit_growArray(&Y->Exports, &Y->Capacity, Y->NumExports + 1,
                            sizeof(*Y->Exports)))
    return orc_rt_Error_create("out of memory");
  char *Copy = strndup(Name, Len);
  if (!Copy)
    return orc_rt_Error_create("out of memory");
  Y->Exports[Y->NumExports++] =
      (Export){Copy, Function, false, Hidden, Unit, PartEmit, Rank};
  return NULL;
}

/* A definition other modules can link against: in its JITDylib, and in
 * others' link orders unless hidden. */
static bool isLinkable(LLVMValueRef V) {
  LLVMLinkage L = LLVMGetLinkage(V);
  bool Definition =
      LLVMIsAGlobalAlias(V) || LLVMIsAGlobalIFunc(V) || !LLVMIsDeclaration(V);
  return Definition && L != LLVMInternalLinkage && L != LLVMPrivateLinkage &&
         L != LLVMAvailableExternallyLinkage;
}

static orc_rt_ErrorRef noteValue(Dylib *Y, LLVMValueRef V, bool Function,
                                 unsigned Module, unsigned Part) {
  size_t Len;
  const char *Name = LLVMGetValueName2(V, &Len);
  if (!Len || !isLinkable(V))
    return NULL;
  orc_rt_ErrorRef Err =
      addExport(Y, Name, Len, Function,
                LLVMGetVisibility(V) == LLVMHiddenVisibility, Module, 0);
  if (!Err)
    Y->Exports[Y->NumExports - 1].Part = Part;
  return Err;
}

/*---- Which objects wait for which ----*/

/* A module being noted: its functions by address, for their parts. */
typedef struct {
  LLVMValueRef F;
  unsigned Part;
} FnPart;

typedef struct {
  orc_rt_jit_JITDylibs *D;
  unsigned Module;
  FnPart *Fns; /* sorted by F */
  size_t NumFns;
} ModuleNote;

static int byValue(const void *A, const void *B) {
  uintptr_t X = (uintptr_t)((const FnPart *)A)->F;
  uintptr_t Y = (uintptr_t)((const FnPart *)B)->F;
  return (X > Y) - (X < Y);
}

/* The part that defines G, a global value of the module. */
static unsigned partOf(const ModuleNote *N, LLVMValueRef G) {
  if (LLVMIsAGlobalAlias(G) || LLVMIsAGlobalIFunc(G))
    G = LLVMIsAGlobalAlias(G) ? LLVMAliasGetAliasee(G)
                              : LLVMGetGlobalIFuncResolver(G);
  if (!G || !LLVMIsAFunction(G))
    return PartData;
  FnPart Key = {G, 0};
  const FnPart *P =
      N->NumFns ? bsearch(&Key, N->Fns, N->NumFns, sizeof(FnPart), byValue)
                : NULL;
  return P ? P->Part : PartCode;
}

static orc_rt_ErrorRef addRef(orc_rt_jit_JITDylibs *D, Ref R, const char *Name,
                              size_t Len) {
  if (!orc_rt_jit_growArray(&D->Refs, &D->RefCap, D->NumRefs + 1,
                            sizeof(*D->Refs)))
    return orc_rt_Error_create("out of memory");
  R.Name = Name ? strndup(Name, Len) : NULL;
  if (Name && !R.Name)
    return orc_rt_Error_create("out of memory");
  D->Refs[D->NumRefs++] = R;
  return NULL;
}

static orc_rt_ErrorRef noteRef(const ModuleNote *N, unsigned Part,
                               LLVMValueRef G) {
  bool Defined =
      !LLVMIsDeclaration(G) || LLVMIsAGlobalAlias(G) || LLVMIsAGlobalIFunc(G);
  size_t Len = 0;
  const char *Name = Defined ? NULL : LLVMGetValueName2(G, &Len);
  if (!Defined && !Len)
    return NULL;
  return addRef(N->D, (Ref){N->Module, Part, NULL, partOf(N, G)}, Name, Len);
}

/* Notes the global values V refers to (through constants, not through
 * other globals' initializers). */
static orc_rt_ErrorRef noteRefsIn(const ModuleNote *N, unsigned Part,
                                  LLVMValueRef V, int Depth) {
  if (LLVMIsAGlobalValue(V))
    return noteRef(N, Part, V);
  if (Depth > 64 || !LLVMIsAConstant(V))
    return NULL;
  int Ops = LLVMGetNumOperands(V);
  orc_rt_ErrorRef Err = NULL;
  for (int I = 0; I < Ops && !Err; ++I)
    Err = noteRefsIn(N, Part, LLVMGetOperand(V, (unsigned)I), Depth + 1);
  return Err;
}

static orc_rt_ErrorRef noteRefs(const ModuleNote *N, LLVMModuleRef M) {
  orc_rt_ErrorRef Err = NULL;
  for (LLVMValueRef G = LLVMGetFirstGlobal(M); G && !Err;
       G = LLVMGetNextGlobal(G))
    if (LLVMGetInitializer(G))
      Err = noteRefsIn(N, PartData, LLVMGetInitializer(G), 0);
  unsigned Part = PartCode;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F && !Err;
       F = LLVMGetNextFunction(F), ++Part)
    for (LLVMBasicBlockRef B = LLVMGetFirstBasicBlock(F); B && !Err;
         B = LLVMGetNextBasicBlock(B))
      for (LLVMValueRef I = LLVMGetFirstInstruction(B); I && !Err;
           I = LLVMGetNextInstruction(I)) {
        int Ops = LLVMGetNumOperands(I);
        for (int K = 0; K < Ops && !Err; ++K)
          Err = noteRefsIn(N, Part, LLVMGetOperand(I, (unsigned)K), 0);
      }
  return Err;
}

/* Room for unit Index (units between, not noted, stay zero). */
static orc_rt_ErrorRef haveUnit(orc_rt_jit_JITDylibs *D, size_t Index) {
  size_t Old = D->NumUnits;
  if (Index < Old)
    return NULL;
  if (!orc_rt_jit_growArray(&D->Units, &D->UnitCap, Index + 1,
                            sizeof(*D->Units)))
    return orc_rt_Error_create("out of memory");
  memset(D->Units + Old, 0, (Index + 1 - Old) * sizeof(*D->Units));
  D->NumUnits = Index + 1;
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_JITDylibs_noteModule(orc_rt_jit_JITDylibs *D,
                                                unsigned Index,
                                                LLVMModuleRef M) {
  if (!D)
    return NULL;
  Dylib *Y = dylibOf(D, orc_rt_jit_JITDylibs_ofModule(D, Index));
  ModuleNote N = {D, Index, NULL, 0};
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    ++N.NumFns;
  N.Fns = malloc((N.NumFns ? N.NumFns : 1) * sizeof(*N.Fns));
  orc_rt_ErrorRef Err =
      N.Fns ? haveUnit(D, Index) : orc_rt_Error_create("out of memory");
  if (Err) {
    free(N.Fns);
    return Err;
  }
  unsigned Part = PartCode;
  for (LLVMValueRef F = LLVMGetFirstFunction(M); F; F = LLVMGetNextFunction(F))
    N.Fns[Part - PartCode] = (FnPart){F, Part}, ++Part;
  qsort(N.Fns, N.NumFns, sizeof(*N.Fns), byValue);
  D->Units[Index] =
      (Unit){(size_t)(Y - D->Dylibs),
             true,
             false,
             false,
             false,
             (unsigned)N.NumFns + 1 < 2 ? 2 : (unsigned)N.NumFns + 1,
             NULL};
  Err = noteRefs(&N, M);
  Part = PartCode;
  for (LLVMValueRef V = LLVMGetFirstFunction(M); V && !Err;
       V = LLVMGetNextFunction(V))
    Err = noteValue(Y, V, true, Index, Part++);
  for (LLVMValueRef V = LLVMGetFirstGlobal(M); V && !Err;
       V = LLVMGetNextGlobal(V))
    Err = noteValue(Y, V, false, Index, PartData);
  for (LLVMValueRef V = LLVMGetFirstGlobalAlias(M); V && !Err;
       V = LLVMGetNextGlobalAlias(V))
    Err = noteValue(Y, V, LLVMIsAFunction(LLVMAliasGetAliasee(V)) != NULL,
                    Index, partOf(&N, V));
  for (LLVMValueRef V = LLVMGetFirstGlobalIFunc(M); V && !Err;
       V = LLVMGetNextGlobalIFunc(V))
    Err = noteValue(Y, V, true, Index, partOf(&N, V));
  free(N.Fns);
  return Err;
}

static int byNameThenRank(const void *A, const void *B) {
  const Export *X = A, *Y = B;
  int C = strcmp(X->Name, Y->Name);
  if (C)
    return C;
  return X->Rank < Y->Rank ? -1 : X->Rank > Y->Rank;
}

/* The definition of Name a lookup in Y finds first; from another JITDylib
 * (FromItself false) its hidden ones are not seen. */
static const Export *findExport(const Dylib *Y, const char *Name,
                                bool FromItself) {
  size_t Lo = 0, Hi = Y->NumExports;
  while (Lo < Hi) { /* the first entry not before Name */
    size_t Mid = Lo + (Hi - Lo) / 2;
    if (strcmp(Y->Exports[Mid].Name, Name) < 0)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  for (; Lo < Y->NumExports && !strcmp(Y->Exports[Lo].Name, Name); ++Lo)
    if (FromItself || !Y->Exports[Lo].Hidden)
      return &Y->Exports[Lo];
  return NULL;
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

/* Whether another JITDylib reaches export E through a stub of its own: a
 * function without a stub (compiled whole, an object's, under orc-lazy one
 * whose address is taken or of a module kept whole), so that the caller does
 * not wait for E's object (see waitForEachOther). */
static bool throughStub(const Export *E) { return E->Function && !E->Stubbed; }

/* Defines Name, an export E of From, in To (a duplicate, from a lookup on
 * another thread, is dropped). */
static void reexport(orc_rt_jit_JITDylibs *D, Dylib *To, Dylib *From,
                     const Export *E) {
  if (throughStub(E)) {
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
 * exports (its modules', its archives' members'), the first that has the
 * name (not for the entry points); the rest (names no symbol table showed)
 * looked up in those with archives. */
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
    while (K < D->NumDylibs && !(E = findExport(&D->Dylibs[K], Name, false)))
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
 * definitions), the process, the main JITDylib's exports (its modules',
 * -extra-objects', archives' members'); the rest (names no symbol table
 * showed) looked up there if it has archives. */
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
    } else if ((E = findExport(Main, Name, false))) {
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

/*---- -extra-objects and archives' members ----*/

/* An entry of an archive's symbol table. */
typedef struct {
  const char *Name;
  size_t Len;
  uint64_t Member; /* its header's offset */
  size_t Index;    /* its position in the table */
  bool Noted;      /* found among its member's definitions */
} TableEntry;

typedef struct {
  TableEntry *Items;
  size_t Size, Capacity;
  bool OutOfMemory;
} Table;

static void addTableEntry(void *Ctx, const char *Name, size_t Len,
                          uint64_t Member) {
  Table *T = Ctx;
  if (T->OutOfMemory || !orc_rt_jit_growArray(&T->Items, &T->Capacity,
                                              T->Size + 1, sizeof(*T->Items)))
    T->OutOfMemory = true;
  else
    T->Items[T->Size] = (TableEntry){Name, Len, Member, T->Size, false},
    ++T->Size;
}

static int compareNames(const char *A, size_t ALen, const char *B,
                        size_t BLen) {
  int C = memcmp(A, B, ALen < BLen ? ALen : BLen);
  return C ? C : (ALen > BLen) - (ALen < BLen);
}

/* By name; for one name, the entry last in the table first: LLVM's archive
 * generator maps a name to the last member the table lists for it. */
static int byNameLastFirst(const void *A, const void *B) {
  const TableEntry *X = A, *Y = B;
  int C = compareNames(X->Name, X->Len, Y->Name, Y->Len);
  return C ? C : (X->Index < Y->Index) - (X->Index > Y->Index);
}

/* For a search once each name has one entry. */
static int byName(const void *A, const void *B) {
  const TableEntry *X = A, *Y = B;
  return compareNames(X->Name, X->Len, Y->Name, Y->Len);
}

static int byOffset(const void *A, const void *B) {
  uint64_t X = *(const uint64_t *)A, Y = *(const uint64_t *)B;
  return (X > Y) - (X < Y);
}

/* What one object says, noted for unit Unit of JITDylib Y. */
typedef struct {
  orc_rt_jit_JITDylibs *D;
  Dylib *Y;
  unsigned Unit;
  uint64_t Rank;
  /* A member: the table's names (one entry each) and the member's offset;
   * an -extra-object: NULL. */
  Table *Names;
  uint64_t Member;
  orc_rt_ErrorRef Err;
} ObjectNote;

static const char *unprefixed(orc_rt_jit_JITDylibs *D, const char *Name,
                              size_t *Len) {
  if (D->GlobalPrefix && *Len > 1 && *Name == D->GlobalPrefix)
    ++Name, --*Len;
  return Name;
}

static void objectSymbol(void *Ctx, const char *Name, size_t Len,
                         unsigned Flags, size_t Section) {
  ObjectNote *N = Ctx;
  if (N->Err)
    return;
  if (!(Flags & orc_rt_jit_ObjectSymbol_Defined)) {
    /* The link looks every undefined symbol up. */
    const char *Plain = unprefixed(N->D, Name, &Len);
    N->Err = addRef(N->D, (Ref){N->Unit, PartEmit, NULL, 0}, Plain, Len);
    return;
  }
  if (N->Names) { /* a member defines what the table picks it for */
    TableEntry Key = {Name, Len, 0, 0, false};
    TableEntry *E = bsearch(&Key, N->Names->Items, N->Names->Size,
                            sizeof(TableEntry), byName);
    if (!E || E->Member != N->Member || E->Noted)
      return;
    E->Noted = true;
  }
  const char *Plain = unprefixed(N->D, Name, &Len);
  N->Err = addExport(N->Y, Plain, Len, Flags & orc_rt_jit_ObjectSymbol_Function,
                     Flags & orc_rt_jit_ObjectSymbol_Hidden, N->Unit, N->Rank);
  if (!N->Err)
    N->Y->Exports[N->Y->NumExports - 1].Part = 1 + (unsigned)Section;
}

static void objectReference(void *Ctx, size_t From, const char *Name,
                            size_t Len, unsigned Flags, size_t To) {
  ObjectNote *N = Ctx;
  if (N->Err)
    return;
  /* A definition of its own that no other can replace: that section. */
  if (To && !(Flags & orc_rt_jit_ObjectSymbol_Weak)) {
    N->Err =
        addRef(N->D, (Ref){N->Unit, 1 + (unsigned)From, NULL, 1 + (unsigned)To},
               NULL, 0);
  } else if (Len && !(Flags & orc_rt_jit_ObjectSymbol_Local)) {
    const char *Plain = unprefixed(N->D, Name, &Len);
    N->Err =
        addRef(N->D, (Ref){N->Unit, 1 + (unsigned)From, NULL, 0}, Plain, Len);
  }
}

/* Reads object Data into unit N->Unit: what it defines and uses, and its
 * parts: each section is ready once the link is (not readable: the link
 * alone). */
static void readObjectInto(ObjectNote *N, const char *Data, size_t Size) {
  static const orc_rt_jit_ObjectVisitor Visitor = {objectSymbol,
                                                   objectReference};
  size_t NumSections = 0;
  if (Data && !orc_rt_jit_readObject(Data, Size, &Visitor, N, &NumSections))
    NumSections = 0;
  if (NumSections > 0xffffff)
    NumSections = 0; /* not an object JITLink would take */
  N->D->Units[N->Unit].NumParts = 1 + (unsigned)NumSections;
  for (size_t S = 0; !N->Err && S < NumSections; ++S)
    N->Err =
        addRef(N->D, (Ref){N->Unit, 1 + (unsigned)S, NULL, PartEmit}, NULL, 0);
}

static orc_rt_ErrorRef readFile(const char *Path, LLVMMemoryBufferRef *Buf) {
  char *Msg = NULL;
  if (!LLVMCreateMemoryBufferWithContentsOfFile(Path, Buf, &Msg))
    return NULL;
  orc_rt_ErrorRef E = orc_rt_Error_createf("%s: %s", Path, Msg);
  LLVMDisposeMessage(Msg);
  return E;
}

static orc_rt_ErrorRef newUnit(orc_rt_jit_JITDylibs *D, Dylib *Y, bool Member,
                               unsigned *Out) {
  *Out = (unsigned)D->NumUnits;
  orc_rt_ErrorRef Err = haveUnit(D, D->NumUnits);
  if (!Err)
    D->Units[*Out] =
        (Unit){(size_t)(Y - D->Dylibs), true, true, Member, false, 1, NULL};
  return Err;
}

/* An -extra-object, in the main JITDylib (lli's): all it defines. An object
 * LLVM cannot link either (not ELF64) notes nothing; its link fails. */
static orc_rt_ErrorRef noteObject(orc_rt_jit_JITDylibs *D, const char *Path) {
  LLVMMemoryBufferRef Buf = NULL;
  orc_rt_ErrorRef Err = readFile(Path, &Buf);
  ObjectNote N = {D, &D->Dylibs[0], 0, 0, NULL, 0, NULL};
  if (!Err)
    Err = newUnit(D, N.Y, false, &N.Unit);
  if (!Err) {
    readObjectInto(&N, LLVMGetBufferStart(Buf), LLVMGetBufferSize(Buf));
    Err = N.Err;
  }
  if (Buf)
    LLVMDisposeMemoryBuffer(Buf);
  return Err;
}

/* A thin archive's member, by its stored path: relative to the archive's
 * directory unless absolute, as LLVM reads it. */
static orc_rt_ErrorRef readThinMember(const char *Archive, const char *Name,
                                      size_t Len, LLVMMemoryBufferRef *Buf) {
  const char *Slash = *Name == '/' ? NULL : strrchr(Archive, '/');
  size_t Dir = Slash ? (size_t)(Slash - Archive) + 1 : 0;
  char *Path = malloc(Dir + Len + 1);
  if (!Path)
    return orc_rt_Error_create("out of memory");
  memcpy(Path, Archive, Dir);
  memcpy(Path + Dir, Name, Len);
  Path[Dir + Len] = '\0';
  orc_rt_ErrorRef Err = readFile(Path, Buf);
  free(Path);
  return Err;
}

/* The members of archive I that a name of its symbol table pulls in, as
 * units of its JITDylib (ranked after its definitions and earlier archives),
 * each exporting the names the table maps to it. */
static orc_rt_ErrorRef noteArchive(orc_rt_jit_JITDylibs *D, size_t I) {
  const char *Path = D->Opts->ExtraArchives.Items[I];
  LLVMMemoryBufferRef Buf;
  orc_rt_ErrorRef Err = readFile(Path, &Buf);
  if (Err)
    return Err;
  const char *Bytes = LLVMGetBufferStart(Buf);
  size_t Size = LLVMGetBufferSize(Buf);
  Table T = {NULL, 0, 0, false};
  bool Thin = false;
  uint64_t *Members = NULL;
  size_t NumMembers = 0;
  /* Not an archive, or no table: LLVM refuses it or pulls nothing. */
  orc_rt_jit_forEachArchiveSymbol(Bytes, Size, &Thin, addTableEntry, &T);
  if (T.OutOfMemory)
    Err = orc_rt_Error_create("out of memory");
  if (!Err && T.Size) {
    /* One entry per name, the table's last; its members, once each. */
    qsort(T.Items, T.Size, sizeof(TableEntry), byNameLastFirst);
    size_t K = 0;
    for (size_t E = 0; E < T.Size; ++E)
      if (!K || compareNames(T.Items[K - 1].Name, T.Items[K - 1].Len,
                             T.Items[E].Name, T.Items[E].Len))
        T.Items[K++] = T.Items[E];
    T.Size = K;
    Members = malloc(T.Size * sizeof(*Members));
    if (!Members)
      Err = orc_rt_Error_create("out of memory");
    for (size_t E = 0; !Err && E < T.Size; ++E)
      Members[E] = T.Items[E].Member;
    if (!Err) {
      qsort(Members, T.Size, sizeof(*Members), byOffset);
      for (size_t E = 0; E < T.Size; ++E)
        if (!NumMembers || Members[NumMembers - 1] != Members[E])
          Members[NumMembers++] = Members[E];
    }
  }
  Dylib *Y = dylibOf(D, orc_rt_jit_JITDylibs_ofArchive(D, I));
  unsigned First = (unsigned)D->NumUnits;
  uint64_t Rank = (uint64_t)(I + 1) << 32;
  for (size_t M = 0; !Err && M < NumMembers; ++M) {
    ObjectNote N = {D, Y, 0, Rank, &T, Members[M], NULL};
    const char *Data;
    size_t DataSize;
    LLVMMemoryBufferRef Ext = NULL;
    Err = newUnit(D, Y, true, &N.Unit);
    if (Err ||
        !orc_rt_jit_archiveMember(Bytes, Size, Members[M], &Data, &DataSize))
      continue; /* LLVM cannot pull it either */
    if (Thin) { /* unreadable: LLVM fails to pull it, and says so */
      orc_rt_Error_consume(readThinMember(Path, Data, DataSize, &Ext));
      Data = Ext ? LLVMGetBufferStart(Ext) : NULL;
      DataSize = Ext ? LLVMGetBufferSize(Ext) : 0;
    }
    readObjectInto(&N, Data, DataSize);
    Err = N.Err;
    if (Ext)
      LLVMDisposeMemoryBuffer(Ext);
  }
  /* Names the member's symbol table does not show (not an ELF object): data,
   * exported, so that what refers to it is still seen to wait for it. */
  for (size_t E = 0; !Err && E < T.Size; ++E) {
    if (T.Items[E].Noted)
      continue;
    uint64_t *At = bsearch(&T.Items[E].Member, Members, NumMembers,
                           sizeof(*Members), byOffset);
    size_t Len = T.Items[E].Len;
    const char *Plain = unprefixed(D, T.Items[E].Name, &Len);
    Err = addExport(Y, Plain, Len, false, false,
                    First + (unsigned)(At - Members), Rank);
  }
  free(Members);
  free(T.Items);
  LLVMDisposeMemoryBuffer(Buf);
  return Err;
}

/*---- Objects that would wait for each other ----*/

/* The definition a reference from unit From to Name links against, along
 * its JITDylib's link order as the generators give it: its own definitions
 * and archives (the main JITDylib's own include mini-lli's, ProgramRuntime.h),
 * mini-lli's and the process's symbols, then the main JITDylib's exports or
 * (from main) each named one's. NULL: none of the units' (the process's, or
 * missing). */
static const Export *resolve(orc_rt_jit_JITDylibs *D, unsigned From,
                             const char *Name) {
  size_t J = D->Units[From].Dylib;
  LLVMJITEvaluatedSymbol Sym;
  if (!J && findOverride(Name, &Sym))
    return NULL;
  const Export *E = findExport(&D->Dylibs[J], Name, true);
  if (!E && (findOverride(Name, &Sym) || findInProcess(D->Opts, Name, &Sym)))
    return NULL;
  if (!E && J)
    E = findExport(&D->Dylibs[0], Name, false);
  for (size_t K = 1; !E && !J && K < D->NumDylibs; ++K)
    if (!isEntryPoint(D->Opts, Name))
      E = findExport(&D->Dylibs[K], Name, false);
  return E && E->Unit < D->NumUnits && D->Units[E->Unit].Noted ? E : NULL;
}

/* Node From links against node To: From is ready only once To is; if they
 * are in two JITDylibs, From's lookup of To waits for that (Across). */
typedef struct {
  size_t From, To;
  bool Waits, Across;
} Edge;

/* One node per part of each unit: unit U's are Base[U] ... */
typedef struct {
  size_t N;      /* nodes */
  size_t *Base;  /* per unit; Base[NumUnits] == N */
  Edge *Edges;   /* by From */
  size_t *Start; /* node U's edges: Edges[Start[U]] .. Edges[Start[U + 1]] */
  size_t NumEdges;
} Graph;

/* The node of part Part of unit U: a module's functions are one object
 * unless orc-lazy compiles them apart, and with lli's cache the module is
 * one object. */
static size_t nodeOf(const orc_rt_jit_JITDylibs *D, const Graph *G, unsigned U,
                     unsigned Part) {
  const Unit *X = &D->Units[U];
  if (!X->Object && D->Opts->EnableCacheManager)
    Part = PartData;
  else if (!X->Object && !X->BodiesApart && Part > PartCode)
    Part = PartCode;
  return G->Base[U] + Part;
}

static orc_rt_ErrorRef buildGraph(orc_rt_jit_JITDylibs *D, Graph *G) {
  G->Base = malloc((D->NumUnits + 1) * sizeof(*G->Base));
  if (!G->Base)
    return orc_rt_Error_create("out of memory");
  G->N = 0;
  for (size_t U = 0; U < D->NumUnits; ++U) {
    G->Base[U] = G->N;
    G->N += D->Units[U].NumParts;
  }
  G->Base[D->NumUnits] = G->N;
  G->Edges = malloc((D->NumRefs ? D->NumRefs : 1) * sizeof(*G->Edges));
  G->Start = calloc(G->N + 1, sizeof(*G->Start));
  G->NumEdges = 0;
  if (!G->Edges || !G->Start)
    return orc_rt_Error_create("out of memory");
  for (size_t I = 0; I < D->NumRefs; ++I) {
    const Ref *R = &D->Refs[I];
    const Unit *X = &D->Units[R->From];
    unsigned To = R->From, Part = R->ToPart;
    /* Within a module or object: waits, but for a call to one of the
     * module's functions with a stub of its own. */
    bool Waits = !(X->Stubbed && Part < X->NumParts && X->Stubbed[Part]);
    bool Across = false;
    if (R->Name) {
      const Export *E = resolve(D, R->From, R->Name);
      if (!E)
        continue;
      To = E->Unit;
      Part = E->Part;
      Across = X->Dylib != D->Units[To].Dylib;
      /* A function of another JITDylib is reached through a stub, one with
       * a stub of its own through that (throughStub). */
      Waits = !E->Function || (!Across && !E->Stubbed);
    }
    /* An object's link needs its own JITDylib's symbols resolved only: it
     * does not wait for them to be ready. */
    if (X->Object && R->Part == PartEmit && !Across)
      Waits = false;
    if (R->Part >= X->NumParts || Part >= D->Units[To].NumParts)
      continue; /* (cannot happen: parts come from the same reading) */
    size_t U = nodeOf(D, G, R->From, R->Part), V = nodeOf(D, G, To, Part);
    if (U != V)
      G->Edges[G->NumEdges++] = (Edge){U, V, Waits, Across};
  }
  /* Counting sort by From. */
  for (size_t I = 0; I < G->NumEdges; ++I)
    ++G->Start[G->Edges[I].From + 1];
  for (size_t U = 0; U < G->N; ++U)
    G->Start[U + 1] += G->Start[U];
  Edge *Sorted = malloc((G->NumEdges ? G->NumEdges : 1) * sizeof(*Sorted));
  size_t *Next = malloc((G->N ? G->N : 1) * sizeof(*Next));
  if (!Sorted || !Next) {
    free(Sorted), free(Next);
    return orc_rt_Error_create("out of memory");
  }
  memcpy(Next, G->Start, G->N * sizeof(*Next));
  for (size_t I = 0; I < G->NumEdges; ++I)
    Sorted[Next[G->Edges[I].From]++] = G->Edges[I];
  free(Next);
  free(G->Edges);
  G->Edges = Sorted;
  return NULL;
}

/* Marks what is linked: the modules, the -extra-objects, and what they pull
 * in (archives' members), through any reference. */
static void markLinked(orc_rt_jit_JITDylibs *D, const Graph *G,
                       unsigned char *Linked, size_t *Stack) {
  size_t Top = 0;
  for (size_t X = 0; X < D->NumUnits; ++X)
    for (size_t U = G->Base[X]; U < G->Base[X + 1]; ++U) {
      Linked[U] = D->Units[X].Noted && !D->Units[X].Member;
      if (Linked[U])
        Stack[Top++] = U;
    }
  while (Top) {
    size_t U = Stack[--Top];
    for (size_t I = G->Start[U]; I < G->Start[U + 1]; ++I)
      if (!Linked[G->Edges[I].To]) {
        Linked[G->Edges[I].To] = 1;
        Stack[Top++] = G->Edges[I].To;
      }
  }
}

/* Tarjan's strongly connected components of the linked nodes, along the
 * edges that wait (iteratively: a long chain must not overflow the stack).
 * Comp[U] names U's component. */
static void components(const Graph *G, const unsigned char *Linked,
                       size_t *Comp, size_t *Index, size_t *Low,
                       unsigned char *OnStack, size_t *Stack, size_t *Calls,
                       size_t *Pos) {
  const size_t None = SIZE_MAX;
  size_t Counter = 0, Top = 0;
  for (size_t U = 0; U < G->N; ++U)
    Index[U] = None, OnStack[U] = 0;
  for (size_t Root = 0; Root < G->N; ++Root) {
    if (!Linked[Root] || Index[Root] != None)
      continue;
    size_t Depth = 0;
    Calls[Depth] = Root, Pos[Depth++] = G->Start[Root];
    Index[Root] = Low[Root] = Counter++;
    Stack[Top++] = Root, OnStack[Root] = 1;
    while (Depth) {
      size_t V = Calls[Depth - 1];
      if (Pos[Depth - 1] < G->Start[V + 1]) {
        const Edge *E = &G->Edges[Pos[Depth - 1]++];
        size_t W = E->To;
        if (!E->Waits || !Linked[W])
          continue;
        if (Index[W] == None) {
          Index[W] = Low[W] = Counter++;
          Stack[Top++] = W, OnStack[W] = 1;
          Calls[Depth] = W, Pos[Depth++] = G->Start[W];
        } else if (OnStack[W] && Index[W] < Low[V]) {
          Low[V] = Index[W];
        }
        continue;
      }
      if (Low[V] == Index[V]) { /* V roots a component: pop it */
        size_t W;
        do {
          W = Stack[--Top];
          OnStack[W] = 0;
          Comp[W] = V;
        } while (W != V);
      }
      if (--Depth && Low[V] < Low[Calls[Depth - 1]])
        Low[Calls[Depth - 1]] = Low[V];
    }
  }
}

/* LLVM-C's lookups wait until a symbol is ready: an object that uses
 * another JITDylib's symbol waits for the object defining it, and for all
 * that one depends on. Objects that so wait, through another JITDylib, for
 * themselves would wait forever: a waiting edge across JITDylibs inside a
 * strongly connected component of waiting edges. They are refused before
 * anything links. */
static orc_rt_ErrorRef waitForEachOther(orc_rt_jit_JITDylibs *D) {
  Graph G = {0, NULL, NULL, NULL, 0};
  orc_rt_ErrorRef Err = buildGraph(D, &G);
  size_t N = G.N ? G.N : 1;
  unsigned char *Linked = malloc(N), *OnStack = malloc(N);
  size_t *Comp = malloc(N * sizeof(size_t)),
         *Index = malloc(N * sizeof(size_t)), *Low = malloc(N * sizeof(size_t)),
         *Stack = malloc(N * sizeof(size_t)),
         *Calls = malloc(N * sizeof(size_t)), *Pos = malloc(N * sizeof(size_t));
  if (!Err && (!Linked || !OnStack || !Comp || !Index || !Low || !Stack ||
               !Calls || !Pos))
    Err = orc_rt_Error_create("out of memory");
  bool Cycle = false;
  if (!Err) {
    markLinked(D, &G, Linked, Stack);
    components(&G, Linked, Comp, Index, Low, OnStack, Stack, Calls, Pos);
    for (size_t I = 0; I < G.NumEdges && !Cycle; ++I) {
      const Edge *E = &G.Edges[I];
      Cycle = E->Waits && E->Across && Linked[E->From] && Linked[E->To] &&
              Comp[E->From] == Comp[E->To];
    }
  }
  free(Linked), free(OnStack), free(Comp), free(Index), free(Low);
  free(Stack), free(Calls), free(Pos);
  free(G.Base), free(G.Edges), free(G.Start);
  if (Err || !Cycle)
    return Err;
  return orc_rt_Error_create(
      "the -jd JITDylibs cannot be linked: their objects wait for each other "
      "(LLVM-C looks a symbol up only once everything it refers to is "
      "linked)");
}

static int byString(const void *A, const void *B) {
  return strcmp(*(const char *const *)A, *(const char *const *)B);
}

orc_rt_ErrorRef orc_rt_jit_JITDylibs_noteStubs(orc_rt_jit_JITDylibs *D,
                                               unsigned Index,
                                               const char *const *Names,
                                               size_t N, bool BodiesApart) {
  if (!D || Index >= D->NumUnits || !D->Units[Index].Noted)
    return NULL;
  Unit *X = &D->Units[Index];
  X->BodiesApart = BodiesApart;
  if (!N)
    return NULL;
  free(X->Stubbed);
  X->Stubbed = calloc(X->NumParts, 1);
  const char **Sorted = malloc(N * sizeof(*Sorted));
  if (!Sorted)
    return orc_rt_Error_create("out of memory");
  memcpy(Sorted, Names, N * sizeof(*Sorted));
  qsort(Sorted, N, sizeof(*Sorted), byString);
  Dylib *Y = &D->Dylibs[D->Units[Index].Dylib];
  for (size_t I = 0; I < Y->NumExports; ++I) {
    Export *E = &Y->Exports[I];
    const char *Key = E->Name;
    if (E->Unit == Index && E->Function &&
        bsearch(&Key, Sorted, N, sizeof(*Sorted), byString)) {
      E->Stubbed = true;
      if (X->Stubbed && E->Part < X->NumParts)
        X->Stubbed[E->Part] = 1;
    }
  }
  free(Sorted);
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_JITDylibs_link(orc_rt_jit_JITDylibs *D) {
  if (!D)
    return NULL;
  /* What the -extra-objects and archives' members define and use. */
  orc_rt_ErrorRef Err = NULL;
  for (size_t I = 0; !Err && I < D->Opts->ExtraObjects.Size; ++I)
    Err = noteObject(D, D->Opts->ExtraObjects.Items[I]);
  for (size_t I = 0; !Err && I < D->Opts->ExtraArchives.Size; ++I)
    Err = noteArchive(D, I);
  if (Err)
    return Err;
  /* (Out of memory: main does not see the named ones' archives.) */
  D->Named = calloc(D->NumDylibs, sizeof(*D->Named));
  for (size_t I = 1; D->Named && I < D->NumDylibs; ++I)
    if (D->Dylibs[I].Archives)
      D->Named[D->NumNamed++] = (LLVMOrcCJITDylibSearchOrderElement){
          D->Dylibs[I].JD, LLVMOrcJITDylibLookupFlagsMatchExportedSymbolsOnly};
  for (size_t I = 0; I < D->NumDylibs; ++I) {
    Dylib *Y = &D->Dylibs[I];
    if (Y->NumExports)
      qsort(Y->Exports, Y->NumExports, sizeof(Export), byNameThenRank);
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
  for (size_t I = 0; I < D->NumUnits; ++I)
    free(D->Units[I].Stubbed);
  free(D->Units);
  free(D->Dylibs);
  free(D->Named);
  free(D);
}
