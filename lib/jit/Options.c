/*===- lib/jit/Options.c - mini-lli's command line ------------------------===*/
/* A table of options and a parser that accepts every form lli's cl::opt does:
 * -name=value, -name value, --name..., -O2 / -O=2 / -O 2, booleans as -name or
 * -name=true|false|1|0. Errors use cl::'s words where lli has them. */

#include "jit/Options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { Kind_Bool, Kind_Value, Kind_List } Kind;

typedef struct {
  const char *Name;
  Kind K;
  size_t Offset; /* of the field in orc_rt_jit_Options */
  const char *ValueName;
  const char *Help;
} OptionInfo;

#define FIELD(F) offsetof(orc_rt_jit_Options, F)

/* Options whose value needs checking (jit-kind, shutdown-timeout) are stored as
 * strings first, in these slots, then interpreted by finish(). */
typedef struct {
  const char *JitKind;
  const char *ShutdownTimeout;
  const char *CompileThreads;
} RawValues;

static const OptionInfo Table[] = {
    {"entry-function", Kind_Value, FIELD(EntryFunction), "<function>",
     "Specify the entry function (default = 'main') of the executable"},
    {"extra-module", Kind_List, FIELD(ExtraModules), "<input bitcode>",
     "Extra modules to be loaded"},
    {"extra-object", Kind_List, FIELD(ExtraObjects), "<input object>",
     "Extra object files to be loaded"},
    {"extra-archive", Kind_List, FIELD(ExtraArchives), "<input archive>",
     "Extra archive files to be loaded"},
    {"dlopen", Kind_List, FIELD(DLOpens), "<string>",
     "Dynamic libraries to load before linking"},
    {"fake-argv0", Kind_Value, FIELD(FakeArgv0), "<executable>",
     "Override the 'argv[0]' value passed into the executing program"},
    {"thread-entry", Kind_List, FIELD(ThreadEntries), "<string>",
     "calls the given entry-point on a new thread (entered through the "
     "Session)"},
    {"passes", Kind_Value, FIELD(Passes), "<pipeline>",
     "Run an IR optimisation pipeline first, e.g. default<O2>"},
    {"object-cache-dir", Kind_Value, FIELD(ObjectCacheDir), "<dir>",
     "Directory to store cached object files (jit-kind=orc; created if "
     "missing)"},
    {"no-process-syms", Kind_Bool, FIELD(NoProcessSyms), NULL,
     "Do not resolve mini-lli process symbols in JIT'd code"},
    {"per-module-lazy", Kind_Bool, FIELD(PerModuleLazy), NULL,
     "Performs lazy compilation on whole module boundaries rather than "
     "individual functions"},
    {"trace-shutdown", Kind_Bool, FIELD(TraceShutdown), NULL,
     "Print each shutdown phase to stderr (mini-lli only)"},
    {"help", Kind_Bool, FIELD(Help), NULL, "Display available options"},
    {"version", Kind_Bool, FIELD(Version), NULL,
     "Display the version of this program"},
    /* Checked after parsing; the offsets point into RawValues instead. */
    {"jit-kind", Kind_Value, 0, "<value>",
     "Choose underlying JIT kind: orc (default) or orc-lazy"},
    {"compile-threads", Kind_Value, 0, "<uint>",
     "Choose the number of compile threads (default: one per CPU; 0 or 1 "
     "compiles on the main thread)"},
    {"shutdown-timeout", Kind_Value, 0, "<seconds|forever>",
     "Before the process ends, wait this long for threads still inside "
     "JIT'd code (mini-lli only; default: do not wait, as the native "
     "program)"},
};

static const size_t TableSize = sizeof(Table) / sizeof(Table[0]);

static orc_rt_ErrorRef push(orc_rt_jit_StringList *L, const char *S) {
  if (L->Size == L->Capacity) {
    size_t NewCap = L->Capacity ? 2 * L->Capacity : 4;
    const char **NewItems = realloc(L->Items, NewCap * sizeof(*NewItems));
    if (!NewItems)
      return orc_rt_Error_create("out of memory");
    L->Items = NewItems;
    L->Capacity = NewCap;
  }
  L->Items[L->Size++] = S;
  return NULL;
}

static const OptionInfo *find(const char *Name, size_t Len) {
  for (size_t I = 0; I < TableSize; ++I)
    if (strlen(Table[I].Name) == Len && !strncmp(Table[I].Name, Name, Len))
      return &Table[I];
  return NULL;
}

static orc_rt_ErrorRef parseBool(const OptionInfo *O, const char *V,
                                 bool *Out) {
  if (!V || !strcmp(V, "true") || !strcmp(V, "TRUE") || !strcmp(V, "True") ||
      !strcmp(V, "1"))
    *Out = true;
  else if (!strcmp(V, "false") || !strcmp(V, "FALSE") || !strcmp(V, "False") ||
           !strcmp(V, "0"))
    *Out = false;
  else
    return orc_rt_Error_createf("for the --%s option: '%s' is invalid value "
                                "for boolean argument! Try 0 or 1",
                                O->Name, V);
  return NULL;
}

static orc_rt_ErrorRef parseOptLevel(const char *V, int *Out) {
  if (V && V[0] >= '0' && V[0] <= '3' && V[1] == '\0') {
    *Out = V[0] - '0';
    return NULL;
  }
  return orc_rt_Error_createf("invalid optimization level '-O%s' (expected "
                              "-O0, -O1, -O2 or -O3)",
                              V ? V : "");
}

static orc_rt_ErrorRef finish(orc_rt_jit_Options *Opts, RawValues *Raw) {
  if (Raw->JitKind) {
    if (!strcmp(Raw->JitKind, "orc"))
      Opts->Lazy = false;
    else if (!strcmp(Raw->JitKind, "orc-lazy"))
      Opts->Lazy = true;
    else if (!strcmp(Raw->JitKind, "mcjit"))
      return orc_rt_Error_create("for the --jit-kind option: 'mcjit' is not "
                                 "supported by mini-lli (use orc or orc-lazy)");
    else
      return orc_rt_Error_createf(
          "for the --jit-kind option: Cannot find option named '%s'!",
          Raw->JitKind);
  }
  if (Raw->CompileThreads) {
    const char *V = Raw->CompileThreads;
    char *End;
    errno = 0;
    unsigned long N = strtoul(V, &End, 10);
    if (!*V || *End || strspn(V, "0123456789") != strlen(V) || errno ||
        N > 1024)
      return orc_rt_Error_createf("for the --compile-threads option: '%s' "
                                  "value invalid for uint argument!",
                                  V);
    Opts->CompileThreads = (unsigned)N;
  }
  if (Raw->ShutdownTimeout && !strcmp(Raw->ShutdownTimeout, "forever")) {
    Opts->Drain = true;
    Opts->ShutdownTimeout = -1;
  } else if (Raw->ShutdownTimeout) {
    /* Plain decimal seconds only (digits and at most one '.'): strtod alone
     * would also take hex floats, "inf" and exponents. */
    const char *V = Raw->ShutdownTimeout;
    bool Decimal = strspn(V, "0123456789.") == strlen(V) &&
                   strchr(V, '.') == strrchr(V, '.');
    char *End;
    double T = strtod(V, &End);
    if (!Decimal || End == V || *End || !isfinite(T) || T < 0)
      return orc_rt_Error_createf("for the --shutdown-timeout option: '%s' "
                                  "value invalid for non-negative number of "
                                  "seconds or 'forever'!",
                                  Raw->ShutdownTimeout);
    Opts->Drain = true;
    Opts->ShutdownTimeout = T;
  }
  if (!*Opts->EntryFunction)
    return orc_rt_Error_create("--entry-function name cannot be empty");
  for (size_t I = 0; I != Opts->ThreadEntries.Size; ++I)
    if (!*Opts->ThreadEntries.Items[I])
      return orc_rt_Error_create("--thread-entry name cannot be empty");
  return NULL;
}

/* True if -help/--help is among the options (before the input), wherever it
 * stands: like lli, a help request wins over every option error. */
static bool helpRequested(int Argc, char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    if (A[0] != '-' || A[1] == '\0' || !strcmp(A, "--"))
      return false;
    if (!strcmp(A, "-help") || !strcmp(A, "--help"))
      return true;
  }
  return false;
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
  if (!O)
    return orc_rt_Error_createf("unknown command line argument '%s'. Try: "
                                "'mini-lli --help'",
                                Arg);
  if (O->K == Kind_Bool)
    return parseBool(O, Value, (bool *)((char *)Opts + O->Offset));

  if (!Value) {
    if (*I + 1 >= Argc)
      return orc_rt_Error_createf("for the --%s option: requires a value!",
                                  O->Name);
    Value = Argv[++*I];
  }
  if (!strcmp(O->Name, "jit-kind"))
    Raw->JitKind = Value;
  else if (!strcmp(O->Name, "shutdown-timeout"))
    Raw->ShutdownTimeout = Value;
  else if (!strcmp(O->Name, "compile-threads"))
    Raw->CompileThreads = Value;
  else if (O->K == Kind_List)
    return push((orc_rt_jit_StringList *)((char *)Opts + O->Offset), Value);
  else
    *(const char **)((char *)Opts + O->Offset) = Value;
  return NULL;
}

static orc_rt_ErrorRef helpOverrides(orc_rt_jit_Options *Opts,
                                     orc_rt_ErrorRef Err, int Argc,
                                     char **Argv) {
  if (!Err || !helpRequested(Argc, Argv))
    return Err;
  orc_rt_Error_consume(Err);
  Opts->Help = true;
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

  RawValues Raw = {NULL, NULL, NULL};
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
  free(Opts->ExtraModules.Items);
  free(Opts->ExtraObjects.Items);
  free(Opts->ExtraArchives.Items);
  free(Opts->DLOpens.Items);
  free(Opts->ThreadEntries.Items);
}

void orc_rt_jit_printHelp(FILE *Out) {
  fprintf(Out,
          "OVERVIEW: mini-lli: runs LLVM IR in-process on the orc-rt-c "
          "runtime, like lli\n\n"
          "USAGE: mini-lli [options] <input bitcode|IR|-> <program "
          "arguments>...\n\n"
          "Options end at the input file; the input defaults to '-' "
          "(stdin).\n"
          "Every option may be written -name=value, -name value, or with two "
          "dashes.\n\nOPTIONS:\n\n");
  fprintf(Out, "  %-32s - %s\n", "-O <char>",
          "Optimization level. [-O0, -O1, -O2, or -O3] (default = '-O2')");
  for (size_t I = 0; I < TableSize; ++I) {
    char Left[64];
    snprintf(Left, sizeof(Left), "--%s%s%s", Table[I].Name,
             Table[I].ValueName ? "=" : "",
             Table[I].ValueName ? Table[I].ValueName : "");
    fprintf(Out, "  %-32s - %s\n", Left, Table[I].Help);
  }
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
  fprintf(Out,
          "mini-lli (orc-rt-c %s)\n  LLVM version %s\n  Optimized build.\n",
          ORC_RT_C_VERSION, ORC_RT_C_LLVM_VERSION);
}
