/*===- lib/jit/lli/Options.c - mini-lli's command line --------------------===*/
/* A table of options and a parser that accepts every form lli's cl::opt does:
 * -name=value, -name value, --name..., -O2 / -O=2 / -O 2, booleans as -name or
 * -name=true|false|1|0. Errors use cl::'s words where lli has them. */

#include "jit/lli/Options.h"

#include "jit/lli/CodeGenFlags.h"
#include "jit/lli/LLVMOptions.h"
#include "jit/support/AbsolutePath.h"
#include "jit/support/GrowArray.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef enum { Kind_Bool, Kind_Value, Kind_List, Kind_Raw } Kind;

/* Options whose value needs checking are stored as strings first, in these
 * slots, then interpreted by finish(). */
enum {
  Raw_JitKind,
  Raw_ShutdownTimeout,
  Raw_CompileThreads,
  Raw_RelocModel,
  Raw_CodeModel,
  Raw_JitLinker,
  Raw_LLJITPlatform,
  Raw_OrcLazyDebug,
  Raw_RemoteProcess,
  Raw_OrcRuntime,
  Raw_TierUpThreshold,
  Raw_Count
};

/* lli's booleans that mini-lli only checks in finish(). */
typedef struct {
  const char *Values[Raw_Count];
  bool ForceInterpreter, RemoteMCJIT;
  bool SawJD;
} RawValues;

typedef struct {
  const char *Name;
  Kind K;
  size_t Offset; /* of the field in orc_rt_jit_Options, or the Raw_ slot */
  const char *ValueName;
  const char *Help;
  bool Hidden; /* listed by --help-hidden only, as lli does */
  bool InRaw;  /* a Kind_Bool whose field is in RawValues */
} OptionInfo;

#define FIELD(F) offsetof(orc_rt_jit_Options, F)
#define RAWFIELD(F) offsetof(RawValues, F)

/* lli-22's own options (llvm/tools/lli/lli.cpp, the codegen flags that
 * choose its target and -load), with lli's help text, then mini-lli's. lli's
 * other codegen flags (-frame-pointer, -function-sections, ...) are in
 * CodeGenFlags.c. LLVM's library options (-time-passes, -stats, -debug-pass,
 * ...) are not in a table: they are handed to LLVM's own parser (see
 * orc_rt_jit_Options::LLVMArgs and LLVMOptions.h). */
static const OptionInfo Table[] = {
    {"code-model", Kind_Raw, Raw_CodeModel, "<value>", "Choose code model",
     false, false},
    {"compile-threads", Kind_Raw, Raw_CompileThreads, "<uint>",
     "Choose the number of compile threads (default: one per CPU; 0 or 1 "
     "compiles on the main thread)",
     false, false},
    {"disable-core-files", Kind_Bool, FIELD(DisableCoreFiles), NULL,
     "Disable emission of core files if possible", true, false},
    {"disable-lazy-compilation", Kind_Bool, FIELD(DisableLazyCompilation), NULL,
     "Disable JIT lazy compilation", false, false},
    {"dlopen", Kind_List, FIELD(DLOpens), "<string>",
     "Dynamic libraries to load before linking", false, false},
    {"emulated-tls", Kind_Bool, FIELD(EmulatedTLS), NULL,
     "Use emulated TLS model", false, false},
    {"enable-cache-manager", Kind_Bool, FIELD(EnableCacheManager), NULL,
     "Use cache manager to save/load modules", false, false},
    {"entry-function", Kind_Value, FIELD(EntryFunction), "<function>",
     "Specify the entry function (default = 'main') of the executable", false,
     false},
    {"extra-archive", Kind_List, FIELD(ExtraArchives), "<input archive>",
     "Extra archive files to be loaded", false, false},
    {"extra-module", Kind_List, FIELD(ExtraModules), "<input bitcode>",
     "Extra modules to be loaded", false, false},
    {"extra-object", Kind_List, FIELD(ExtraObjects), "<input object>",
     "Extra object files to be loaded", false, false},
    {"fake-argv0", Kind_Value, FIELD(FakeArgv0), "<executable>",
     "Override the 'argv[0]' value passed into the executing program", false,
     false},
    {"force-interpreter", Kind_Bool, RAWFIELD(ForceInterpreter), NULL,
     "Force interpretation: disable JIT", false, true},
    {"jd", Kind_List, FIELD(JITDylibs), "<string>",
     "Specifies the JITDylib to be used for any subsequent -extra-module "
     "arguments",
     false, false},
    {"jit-kind", Kind_Raw, Raw_JitKind, "<value>",
     "Choose underlying JIT kind: orc (default), orc-lazy, mcjit, "
     "orc-tiered (mini-lli only)",
     false, false},
    {"jit-linker", Kind_Raw, Raw_JitLinker, "<value>",
     "Choose the dynamic linker/loader: default, rtdyld, jitlink", false,
     false},
    {"lljit-platform", Kind_Raw, Raw_LLJITPlatform, "<value>",
     "Platform to use with LLJIT: DetectHost, ORC, GenericIR, Inactive", true,
     false},
    {"load", Kind_List, FIELD(Plugins), "<pluginfilename>",
     "Load the specified plugin", false, false},
    {"march", Kind_Value, FIELD(MArch), "<string>",
     "Architecture to generate code for (see --version)", false, false},
    {"mattr", Kind_List, FIELD(MAttrs), "<a1,+a2,-a3,...>",
     "Target specific attributes (-mattr=help for details)", false, false},
    {"mcjit-remote-process", Kind_Raw, Raw_RemoteProcess, "<filename>",
     "Specify the filename of the process to launch for remote MCJIT "
     "execution.  If none is specified,\n\tremote execution will be "
     "simulated in-process.",
     false, false},
    {"mcpu", Kind_Value, FIELD(MCPU), "<cpu-name>",
     "Target a specific cpu type (-mcpu=help for details)", false, false},
    {"mtriple", Kind_Value, FIELD(MTriple), "<string>",
     "Override target triple for module", false, false},
    {"no-process-syms", Kind_Bool, FIELD(NoProcessSyms), NULL,
     "Do not resolve mini-lli process symbols in JIT'd code", false, false},
    {"object-cache-dir", Kind_Value, FIELD(ObjectCacheDir), "<dir>",
     "Directory to store cached object files (created if missing)", false,
     false},
    {"orc-lazy-debug", Kind_Raw, Raw_OrcLazyDebug, "<value>",
     "Debug dumping for the orc-lazy JIT: no-dump, funcs-to-stdout, "
     "mods-to-stdout, mods-to-disk, jit-debug-descriptor, jit-debug-objects",
     true, false},
    {"orc-runtime", Kind_Raw, Raw_OrcRuntime, "<string>",
     "Use ORC runtime from given path (mini-lli is its own runtime: ignored)",
     false, false},
    {"per-module-lazy", Kind_Bool, FIELD(PerModuleLazy), NULL,
     "Performs lazy compilation on whole module boundaries rather than "
     "individual functions",
     false, false},
    {"relocation-model", Kind_Raw, Raw_RelocModel, "<value>",
     "Choose relocation model: static, pic, dynamic-no-pic, ropi, rwpi, "
     "ropi-rwpi",
     false, false},
    {"remote-mcjit", Kind_Bool, RAWFIELD(RemoteMCJIT), NULL,
     "Execute MCJIT'ed code in a separate process.", false, true},
    {"soft-float", Kind_Bool, FIELD(SoftFloat), NULL,
     "Generate software floating point library calls", false, false},
    {"thread-entry", Kind_List, FIELD(ThreadEntries), "<string>",
     "calls the given entry-point on a new thread (entered through the "
     "Session)",
     false, false},
    /* mini-lli's own. */
    {"passes", Kind_Value, FIELD(Passes), "<pipeline>",
     "Run an IR optimisation pipeline first, e.g. default<O2> (mini-lli "
     "only)",
     false, false},
    {"shutdown-timeout", Kind_Raw, Raw_ShutdownTimeout, "<seconds|forever>",
     "Before the process ends, wait this long for threads still inside "
     "JIT'd code (mini-lli only; default: do not wait, as the native "
     "program)",
     false, false},
    {"tier-up-threshold", Kind_Raw, Raw_TierUpThreshold, "<uint>",
     "-jit-kind=orc-tiered: calls plus loop iterations after which a "
     "function is recompiled optimized in the background (mini-lli only; "
     "default 2000)",
     false, false},
    {"tiered-stats", Kind_Bool, FIELD(TieredStats), NULL,
     "-jit-kind=orc-tiered: at exit, print how many functions reached each "
     "tier and the compile time spent per tier (mini-lli only)",
     false, false},
    {"trace-shutdown", Kind_Bool, FIELD(TraceShutdown), NULL,
     "Print each shutdown phase to stderr (mini-lli only)", false, false},
    /* Generic options, as every LLVM tool has them. */
    {"help", Kind_Bool, FIELD(Help), NULL,
     "Display available options (--help-hidden for more)", false, false},
    {"help-hidden", Kind_Bool, FIELD(HelpHidden), NULL,
     "Display all available options", true, false},
    {"help-list", Kind_Bool, FIELD(HelpList), NULL,
     "Display list of available options (--help-list-hidden for more)", false,
     false},
    {"help-list-hidden", Kind_Bool, FIELD(HelpListHidden), NULL,
     "Display list of all available options", true, false},
    {"version", Kind_Bool, FIELD(Version), NULL,
     "Display the version of this program", false, false},
};

static const size_t TableSize = sizeof(Table) / sizeof(Table[0]);

static orc_rt_ErrorRef push(orc_rt_jit_StringList *L, const char *S) {
  if (!orc_rt_jit_growArray(&L->Items, &L->Capacity, L->Size + 1,
                            sizeof(*L->Items)))
    return orc_rt_Error_create("out of memory");
  L->Items[L->Size++] = S;
  return NULL;
}

static const OptionInfo *find(const char *Name, size_t Len) {
  for (size_t I = 0; I < TableSize; ++I)
    if (strlen(Table[I].Name) == Len && !strncmp(Table[I].Name, Name, Len))
      return &Table[I];
  return NULL;
}

static orc_rt_ErrorRef parseBool(const char *Name, const char *V, bool *Out) {
  if (!V || !strcmp(V, "true") || !strcmp(V, "TRUE") || !strcmp(V, "True") ||
      !strcmp(V, "1"))
    *Out = true;
  else if (!strcmp(V, "false") || !strcmp(V, "FALSE") || !strcmp(V, "False") ||
           !strcmp(V, "0"))
    *Out = false;
  else
    return orc_rt_Error_createf("for the --%s option: '%s' is invalid value "
                                "for boolean argument! Try 0 or 1",
                                Name, V);
  return NULL;
}

static orc_rt_ErrorRef parseOptLevel(const char *V, int *Out) {
  if (V && V[0] >= '0' && V[0] <= '3' && V[1] == '\0') {
    *Out = V[0] - '0';
    return NULL;
  }
  return orc_rt_Error_createf(
      "error: invalid optimization level '-O%s' (expected "
      "-O0, -O1, -O2 or -O3)",
      V ? V : "");
}

/* Finds V among Names (NULL-terminated); -1 if absent. */
static int lookupValue(const char *V, const char *const *Names) {
  for (int I = 0; Names[I]; ++I)
    if (!strcmp(V, Names[I]))
      return I;
  return -1;
}

static orc_rt_ErrorRef enumValue(const char *Option, const char *V,
                                 const char *const *Names, int *Out) {
  int I = lookupValue(V, Names);
  if (I < 0)
    return orc_rt_Error_createf(
        "for the --%s option: Cannot find option named '%s'!", Option, V);
  *Out = I;
  return NULL;
}

static orc_rt_ErrorRef finishEnums(orc_rt_jit_Options *Opts, RawValues *Raw) {
  const char *const *V = Raw->Values;
  orc_rt_ErrorRef Err = NULL;
  int I = 0;
  if (V[Raw_JitKind]) {
    static const char *const Kinds[] = {"orc", "orc-lazy", "mcjit",
                                        "orc-tiered", NULL};
    static const orc_rt_jit_Engine Engines[] = {
        orc_rt_jit_Engine_Orc, orc_rt_jit_Engine_OrcLazy,
        orc_rt_jit_Engine_MCJIT, orc_rt_jit_Engine_OrcTiered};
    if ((Err = enumValue("jit-kind", V[Raw_JitKind], Kinds, &I)))
      return Err;
    Opts->Engine = Engines[I];
  }
  if (Raw->ForceInterpreter)
    Opts->Engine = orc_rt_jit_Engine_Interpreter;
  Opts->Tiered = Opts->Engine == orc_rt_jit_Engine_OrcTiered;
  Opts->Lazy = Opts->Engine == orc_rt_jit_Engine_OrcLazy || Opts->Tiered;
  /* The order of LLVMRelocMode and LLVMCodeModel (llvm-c/TargetMachine.h). */
  if (V[Raw_RelocModel]) {
    static const char *const Models[] = {
        "",     "static", "pic",       "dynamic-no-pic",
        "ropi", "rwpi",   "ropi-rwpi", NULL};
    if ((Err = enumValue("relocation-model", V[Raw_RelocModel], Models,
                         &Opts->RelocModel)) ||
        Opts->RelocModel == 0)
      return Err ? Err
                 : orc_rt_Error_create("for the --relocation-model option: "
                                       "Cannot find option named ''!");
  }
  if (V[Raw_CodeModel]) {
    static const char *const Models[] = {"",       "",       "tiny",  "small",
                                         "kernel", "medium", "large", NULL};
    if ((Err = enumValue("code-model", V[Raw_CodeModel], Models,
                         &Opts->CodeModel)) ||
        Opts->CodeModel < 2)
      return Err ? Err
                 : orc_rt_Error_create("for the --code-model option: "
                                       "Cannot find option named ''!");
  }
  if (V[Raw_JitLinker]) {
    static const char *const Linkers[] = {"default", "jitlink", "rtdyld", NULL};
    if ((Err = enumValue("jit-linker", V[Raw_JitLinker], Linkers, &I)))
      return Err;
    Opts->Linker = (orc_rt_jit_LinkerKind)I;
  }
  if (V[Raw_LLJITPlatform]) {
    static const char *const Platforms[] = {"DetectHost", "ORC", "GenericIR",
                                            "Inactive", NULL};
    if ((Err =
             enumValue("lljit-platform", V[Raw_LLJITPlatform], Platforms, &I)))
      return Err;
  }
  if (V[Raw_OrcLazyDebug]) {
    static const char *const Dumps[] = {"no-dump",
                                        "funcs-to-stdout",
                                        "mods-to-stdout",
                                        "mods-to-disk",
                                        "jit-debug-descriptor",
                                        "jit-debug-objects",
                                        NULL};
    if ((Err = enumValue("orc-lazy-debug", V[Raw_OrcLazyDebug], Dumps, &I)))
      return Err;
    Opts->Dump = (orc_rt_jit_DumpKind)I;
  }
  return NULL;
}

/* A count given to Option: plain decimal digits, from Min to Max; else the
 * error in cl::'s words ("value invalid for <What>!"). */
static orc_rt_ErrorRef parseCount(const char *Option, const char *V,
                                  unsigned long Min, unsigned long Max,
                                  const char *What, unsigned *Out) {
  char *End;
  errno = 0;
  unsigned long N = strtoul(V, &End, 10);
  if (!*V || *End || strspn(V, "0123456789") != strlen(V) || errno || N < Min ||
      N > Max)
    return orc_rt_Error_createf(
        "for the --%s option: '%s' value invalid for %s!", Option, V, What);
  *Out = (unsigned)N;
  return NULL;
}

static orc_rt_ErrorRef finish(orc_rt_jit_Options *Opts, RawValues *Raw) {
  orc_rt_ErrorRef Err = finishEnums(Opts, Raw);
  if (Err)
    return Err;
  if (Opts->ObjectCacheDir && *Opts->ObjectCacheDir) {
    if (!(Opts->OwnCacheDir = orc_rt_jit_absolutePath(Opts->ObjectCacheDir)))
      return orc_rt_Error_create("error: out of memory");
    Opts->ObjectCacheDir = Opts->OwnCacheDir;
  }
  if (Opts->EnableCacheManager && Opts->Engine == orc_rt_jit_Engine_MCJIT &&
      Raw->RemoteMCJIT)
    return orc_rt_Error_create(
        "error: -enable-cache-manager is not supported with -remote-mcjit: "
        "mini-lli's remote run keeps no object cache");
  /* As lli: only MCJIT runs code in another process; the ORC kinds ignore
   * both options. */
  if (Raw->RemoteMCJIT && Opts->Engine == orc_rt_jit_Engine_Interpreter)
    return orc_rt_Error_create(
        "error: -remote-mcjit requires -jit-kind=mcjit, not the interpreter");
  if (Raw->RemoteMCJIT && Opts->Engine == orc_rt_jit_Engine_MCJIT) {
    const char *Child = Raw->Values[Raw_RemoteProcess];
    struct stat St;
    if (!Child || !*Child)
      return orc_rt_Error_create(
          "error: -remote-mcjit requires -mcjit-remote-process.");
    if (stat(Child, &St) || !S_ISREG(St.st_mode) || access(Child, X_OK))
      return orc_rt_Error_createf(
          "error: unable to find usable child executable: '%s'", Child);
    if (Opts->ThreadEntries.Size)
      return orc_rt_Error_create(
          "error: -thread-entry is not supported with -remote-mcjit: the "
          "program's threads run in the executor process");
    if (Raw->Values[Raw_ShutdownTimeout])
      return orc_rt_Error_create(
          "error: -shutdown-timeout is not supported with -remote-mcjit: the "
          "executor process drains its own threads (orc-executor "
          "--shutdown-timeout)");
    Opts->RemoteProcess = Child;
  }
  /* lli's checks for -jit-kind=mcjit (and the interpreter), in its words. */
  bool ExecutionEngine = Opts->Engine == orc_rt_jit_Engine_MCJIT ||
                         Opts->Engine == orc_rt_jit_Engine_Interpreter;
  if (ExecutionEngine && Raw->Values[Raw_CompileThreads] &&
      strcmp(Raw->Values[Raw_CompileThreads], "0"))
    return orc_rt_Error_create(
        "error: -compile-threads requires -jit-kind=orc or orc-lazy");
  if (ExecutionEngine && Opts->PerModuleLazy)
    return orc_rt_Error_create(
        "error: -per-module-lazy requires -jit-kind=orc-lazy");
  if (Opts->Engine == orc_rt_jit_Engine_Interpreter && Opts->ThreadEntries.Size)
    return orc_rt_Error_create("error: -thread-entry needs a JIT: LLVM's "
                               "interpreter runs on one thread at a time");
  if (Raw->Values[Raw_CompileThreads] &&
      (Err = parseCount("compile-threads", Raw->Values[Raw_CompileThreads], 0,
                        1024, "uint argument", &Opts->CompileThreads)))
    return Err;
  /* -tier-up-threshold and -tiered-stats are ignored by the other kinds, as
   * lli's kinds ignore each other's options (-per-module-lazy). */
  if (Opts->Tiered && Opts->EnableCacheManager)
    return orc_rt_Error_create(
        "error: -enable-cache-manager is not supported with "
        "-jit-kind=orc-tiered: lli's object cache holds whole modules, "
        "compiled once (use -jit-kind=orc or orc-lazy)");
  if (Raw->Values[Raw_TierUpThreshold] &&
      (Err = parseCount("tier-up-threshold", Raw->Values[Raw_TierUpThreshold],
                        1, INT32_MAX, "a count from 1 to 2147483647",
                        &Opts->TierUpThreshold)))
    return Err;
  /* What lli's MCJIT ignores or cannot do (compile a module in parts, link
   * with JITLink), mini-lli's does not either. */
  if (Opts->Engine == orc_rt_jit_Engine_MCJIT) {
    Opts->Dump = orc_rt_jit_Dump_None;
    Opts->JITDylibs.Size = 0;
    Opts->CompileThreads = 1;
    Opts->Linker = orc_rt_jit_Linker_RTDyld;
  }
  if (Raw->Values[Raw_ShutdownTimeout] &&
      !strcmp(Raw->Values[Raw_ShutdownTimeout], "forever")) {
    Opts->Drain = true;
    Opts->ShutdownTimeout = -1;
  } else if (Raw->Values[Raw_ShutdownTimeout]) {
    /* Plain decimal seconds only (digits and at most one '.'): strtod alone
     * would also take hex floats, "inf" and exponents. */
    const char *V = Raw->Values[Raw_ShutdownTimeout];
    bool Decimal = strspn(V, "0123456789.") == strlen(V) &&
                   strchr(V, '.') == strrchr(V, '.');
    char *End;
    double T = strtod(V, &End);
    if (!Decimal || End == V || *End || !isfinite(T) || T < 0)
      return orc_rt_Error_createf("for the --shutdown-timeout option: '%s' "
                                  "value invalid for non-negative number of "
                                  "seconds or 'forever'!",
                                  V);
    Opts->Drain = true;
    Opts->ShutdownTimeout = T;
  }
  if (!*Opts->EntryFunction)
    return orc_rt_Error_create("error: --entry-function name cannot be empty");
  for (size_t I = 0; I != Opts->ThreadEntries.Size; ++I)
    if (!*Opts->ThreadEntries.Items[I])
      return orc_rt_Error_create("error: --thread-entry name cannot be empty");
  return NULL;
}

/* The help option among the options (before the input), wherever it stands:
 * like lli, a help request wins over every option error. */
static const char *helpRequested(int Argc, char **Argv) {
  static const char *const Helps[] = {"help", "help-hidden", "help-list",
                                      "help-list-hidden", NULL};
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    if (A[0] != '-' || A[1] == '\0' || !strcmp(A, "--"))
      return NULL;
    const char *Name = A + (A[1] == '-' ? 2 : 1);
    int K = lookupValue(Name, Helps);
    if (K >= 0)
      return Helps[K];
  }
  return NULL;
}

size_t orc_rt_jit_editDistance(const char *A, size_t LA, const char *B,
                               size_t LB) {
  size_t Row[128];
  if (LB >= sizeof(Row) / sizeof(Row[0]))
    return SIZE_MAX;
  for (size_t J = 0; J <= LB; ++J)
    Row[J] = J;
  for (size_t I = 1; I <= LA; ++I) {
    size_t Prev = Row[0]; /* Row[I-1][J-1] */
    Row[0] = I;
    for (size_t J = 1; J <= LB; ++J) {
      size_t Old = Row[J];
      size_t Best = Prev + (A[I - 1] != B[J - 1]);
      if (Row[J] + 1 < Best)
        Best = Row[J] + 1;
      if (Row[J - 1] + 1 < Best)
        Best = Row[J - 1] + 1;
      Row[J] = Best;
      Prev = Old;
    }
  }
  return Row[LB];
}

const char *orc_rt_jit_nearestOption(const char *Name, size_t Len,
                                     size_t *Dist) {
  const char *Best = NULL;
  *Dist = SIZE_MAX;
  for (size_t I = 0; Len && I < TableSize + orc_rt_jit_CodeGenFlagCount; ++I) {
    const char *N = I < TableSize ? Table[I].Name
                                  : orc_rt_jit_CodeGenFlags[I - TableSize].Name;
    size_t D = orc_rt_jit_editDistance(Name, Len, N, strlen(N));
    if (D < *Dist) {
      *Dist = D;
      Best = N;
    }
  }
  return Best;
}

/* An option that is not lli's nor mini-lli's. One of LLVM's own options
 * (-time-passes, -debug-pass, ...) goes to LLVM's parser, with the next
 * argument when it requires a value and was written `-name value`, as lli's
 * cl:: parser reads it. Otherwise, if it is close to one of ours, it is a
 * typo: cl::'s message with the suggestion ("Did you mean
 * '--jit-kind=orc'?"); anything else also goes to LLVM, which is then checked
 * (ProcessSetup.c) and worded the same way, with LLVM's suggestion. */
static orc_rt_ErrorRef unknownOption(orc_rt_jit_Options *Opts, int Argc,
                                     char **Argv, int *I, const char *Name,
                                     size_t Len, const char *Value) {
  const char *Arg = Argv[*I];
  orc_rt_jit_LLVMOptionKind Kind = Len && Name[0] != '-'
                                       ? orc_rt_jit_llvmOptionKind(Name, Len)
                                       : orc_rt_jit_LLVMOption_Unknown;
  if (Kind != orc_rt_jit_LLVMOption_Unknown) {
    orc_rt_ErrorRef Err = push(&Opts->LLVMArgs, Arg);
    if (Err || Kind != orc_rt_jit_LLVMOption_Value || Value || *I + 1 >= Argc)
      return Err;
    return push(&Opts->LLVMArgs, Argv[++*I]);
  }
  size_t BestDist;
  const char *Best = orc_rt_jit_nearestOption(Name, Len, &BestDist);
  bool Typo = Best && BestDist <= 2 && 2 * BestDist < Len;
  if (Len && Name[0] != '-' && !Typo)
    return push(&Opts->LLVMArgs, Arg);
  if (!Typo)
    return orc_rt_Error_createf("Unknown command line argument '%s'.  Try: "
                                "'mini-lli --help'",
                                Arg);
  return orc_rt_Error_createf("Unknown command line argument '%s'.  Try: "
                              "'mini-lli --help'\nmini-lli: Did you mean "
                              "'--%s%s%s'?",
                              Arg, Best, Value ? "=" : "", Value ? Value : "");
}

/* One of lli's codegen flags (CodeGenFlags.h): checked as lli's cl:: parser
 * checks it, and remembered (the last one given wins, as in cl::). */
static orc_rt_ErrorRef parseCodeGenFlag(const orc_rt_jit_CodeGenFlag *F,
                                        orc_rt_jit_Options *Opts, int Argc,
                                        char **Argv, int *I,
                                        const char *Value) {
  orc_rt_ErrorRef Err;
  if (F->Kind == orc_rt_jit_CGValue_Bool) {
    bool B;
    if ((Err = parseBool(F->Name, Value, &B)))
      return Err;
    Value = B ? "true" : "false";
  } else if (!Value) {
    if (*I + 1 >= Argc)
      return orc_rt_Error_createf("for the --%s option: requires a value!",
                                  F->Name);
    Value = Argv[++*I];
  }
  if ((Err = orc_rt_jit_CodeGenFlag_check(F, Value)))
    return Err;
  Opts->CodeGenValues[F - orc_rt_jit_CodeGenFlags] = Value;
  return NULL;
}

/* Handles one option argument at Argv[*I]; may consume the next argument. */
static orc_rt_ErrorRef parseOne(orc_rt_jit_Options *Opts, RawValues *Raw,
                                int Argc, char **Argv, int *I) {
  const char *Arg = Argv[*I];
  const char *Name = Arg + (Arg[1] == '-' ? 2 : 1);
  const char *Eq = strchr(Name, '=');
  size_t Len = Eq ? (size_t)(Eq - Name) : strlen(Name);
  const char *Value = Eq ? Eq + 1 : NULL;

  /* -O<level>, -O=<level>, -O <level>: the code generation level. */
  if (Name[0] == 'O') {
    if (Name[1] == '\0') {
      if (*I + 1 >= Argc)
        return orc_rt_Error_create("for the -O option: requires a value!");
      return parseOptLevel(Argv[++*I], &Opts->OptLevel);
    }
    return parseOptLevel(Name[1] == '=' ? Name + 2 : Name + 1, &Opts->OptLevel);
  }

  const OptionInfo *O = find(Name, Len);
  if (!O) {
    const orc_rt_jit_CodeGenFlag *F = orc_rt_jit_findCodeGenFlag(Name, Len);
    return F ? parseCodeGenFlag(F, Opts, Argc, Argv, I, Value)
             : unknownOption(Opts, Argc, Argv, I, Name, Len, Value);
  }
  if (O->K == Kind_Bool)
    return parseBool(
        O->Name, Value,
        (bool *)((char *)(O->InRaw ? (void *)Raw : (void *)Opts) + O->Offset));

  if (!Value) {
    if (*I + 1 >= Argc)
      return orc_rt_Error_createf("for the --%s option: requires a value!",
                                  O->Name);
    Value = Argv[++*I];
  }
  if (O->K == Kind_Raw)
    Raw->Values[O->Offset] = Value;
  else if (O->Offset == FIELD(ExtraModules) ||
           O->Offset == FIELD(ExtraArchives)) {
    /* lli's -jd applies to the -extra-modules and -extra-archives after it. */
    const orc_rt_jit_StringList *JDs = &Opts->JITDylibs;
    bool Module = O->Offset == FIELD(ExtraModules);
    orc_rt_ErrorRef Err =
        push(Module ? &Opts->ExtraModules : &Opts->ExtraArchives, Value);
    return Err ? Err
               : push(Module ? &Opts->ExtraModuleJDs : &Opts->ExtraArchiveJDs,
                      JDs->Size ? JDs->Items[JDs->Size - 1] : NULL);
  } else if (O->K == Kind_List)
    return push((orc_rt_jit_StringList *)((char *)Opts + O->Offset), Value);
  else
    *(const char **)((char *)Opts + O->Offset) = Value;
  return NULL;
}

static orc_rt_ErrorRef helpOverrides(orc_rt_jit_Options *Opts,
                                     orc_rt_ErrorRef Err, int Argc,
                                     char **Argv) {
  const char *Help = helpRequested(Argc, Argv);
  if (!Err || !Help)
    return Err;
  orc_rt_Error_consume(Err);
  Opts->Help = !strcmp(Help, "help");
  Opts->HelpHidden = !strcmp(Help, "help-hidden");
  Opts->HelpList = !strcmp(Help, "help-list");
  Opts->HelpListHidden = !strcmp(Help, "help-list-hidden");
  return NULL;
}

orc_rt_ErrorRef orc_rt_jit_Options_parse(orc_rt_jit_Options *Opts, int Argc,
                                         char **Argv) {
  static char Stdin[] = "-";
  static char *StdinArgv[] = {Stdin, NULL};
  memset(Opts, 0, sizeof(*Opts));
  Opts->Input = "-";
  Opts->EntryFunction = "main";
  Opts->OptLevel = 2;
  Opts->ShutdownTimeout = -1;
  long CPUs = sysconf(_SC_NPROCESSORS_ONLN);
  Opts->CompileThreads = CPUs < 1 ? 1 : CPUs > 64 ? 64 : (unsigned)CPUs;
  Opts->ProgramArgc = 1;
  Opts->ProgramArgv = StdinArgv;
  Opts->RelocModel = -1;
  Opts->CodeModel = -1;

  RawValues Raw;
  memset(&Raw, 0, sizeof(Raw));
  int I = 1;
  for (; I < Argc; ++I) {
    const char *Arg = Argv[I];
    if (!strcmp(Arg, "--")) {
      ++I;
      break;
    }
    if (Arg[0] != '-' || Arg[1] == '\0')
      break; /* the input: a path or "-" */
    orc_rt_ErrorRef Err = parseOne(Opts, &Raw, Argc, Argv, &I);
    if (Err)
      return helpOverrides(Opts, Err, Argc, Argv);
  }
  if (I < Argc) {
    Opts->Input = Argv[I];
    Opts->ProgramArgc = Argc - I;
    Opts->ProgramArgv = Argv + I;
  }
  return helpOverrides(Opts, finish(Opts, &Raw), Argc, Argv);
}

void orc_rt_jit_Options_dispose(orc_rt_jit_Options *Opts) {
  free(Opts->OwnCacheDir);
  free(Opts->ExtraModules.Items);
  free(Opts->ExtraObjects.Items);
  free(Opts->ExtraArchives.Items);
  free(Opts->DLOpens.Items);
  free(Opts->ThreadEntries.Items);
  free(Opts->MAttrs.Items);
  free(Opts->LLVMArgs.Items);
  free(Opts->Plugins.Items);
  free(Opts->JITDylibs.Items);
  free(Opts->ExtraModuleJDs.Items);
  free(Opts->ExtraArchiveJDs.Items);
}

void orc_rt_jit_printHelp(FILE *Out, bool Hidden, bool List) {
  fprintf(Out,
          "OVERVIEW: mini-lli: runs LLVM IR in-process on the orc-rt-c "
          "runtime, like lli\n\n"
          "USAGE: mini-lli [options] <input bitcode|IR|-> <program "
          "arguments>...\n\n"
          "Options end at the input file; the input defaults to '-' "
          "(stdin).\n"
          "Every option may be written -name=value, -name value, or with two "
          "dashes.\n\nOPTIONS:\n\n");
  if (!List)
    fputs("General options:\n\n", Out);
  fprintf(Out, "  %-32s - %s\n", "-O <char>",
          "Optimization level. [-O0, -O1, -O2, or -O3] (default = '-O2')");
  for (size_t I = 0; I < TableSize; ++I) {
    if (Table[I].Hidden && !Hidden)
      continue;
    char Left[64];
    snprintf(Left, sizeof(Left), "--%s%s%s", Table[I].Name,
             Table[I].ValueName ? "=" : "",
             Table[I].ValueName ? Table[I].ValueName : "");
    fprintf(Out, "  %-32s - %s\n", Left, Table[I].Help);
  }
  if (!List)
    fputs("\nCode generation options (lli's; see the mini-lli guide for what "
          "each does):\n\n",
          Out);
  for (size_t I = 0; I < orc_rt_jit_CodeGenFlagCount; ++I) {
    const orc_rt_jit_CodeGenFlag *F = &orc_rt_jit_CodeGenFlags[I];
    if (F->Hidden && !Hidden)
      continue;
    char Left[96];
    snprintf(Left, sizeof(Left), "%s%s%s%s", strlen(F->Name) == 1 ? "-" : "--",
             F->Name, F->ValueName ? "=" : "",
             F->ValueName ? F->ValueName : "");
    fprintf(Out, "  %-32s - %s\n", Left, F->Help);
  }
  fputs(
      "\nLLVM's own options (--time-passes, --stats, --debug-pass=..., "
      "target tuning\nflags) are accepted as -name, -name=value or -name value "
      "and passed to LLVM.\n",
      Out);
  fprintf(Out,
          "\nEXIT STATUS:\n"
          "  the entry function's return value (or exit()'s argument), "
          "as lli;\n"
          "  1    mini-lli could not run the program (an error was printed).\n"
          "  Threads still inside JIT'd code do not hold the process back: "
          "it ends\n"
          "  as the native program would. With -shutdown-timeout, mini-lli "
          "first waits\n"
          "  for them; if they are still inside when it expires, a report "
          "naming each\n"
          "  live entry is printed to stderr and the status is still the "
          "program's.\n");
}

void orc_rt_jit_printVersion(FILE *Out) {
  /* lli's words ("LLVM version ...", "Optimized build."), naming mini-lli. */
  fprintf(Out,
          "mini-lli (orc-rt-c %s)\n  LLVM version %s\n  Optimized build.\n",
          ORC_RT_C_VERSION, ORC_RT_C_LLVM_VERSION);
}
