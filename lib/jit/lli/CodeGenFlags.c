/*===- lib/jit/lli/CodeGenFlags.c - lli's code generation flags -----------===*/
/* The table of lli-22's codegen and MC flags (llvm/lib/CodeGen/
 * CommandFlags.cpp, llvm/lib/MC/MCTargetOptionsCommandFlags.cpp, as lli-22
 * lists them in --help-hidden), with lli's names, values, help and default,
 * and what each does under lli's MCJIT (see CodeGenFlags.h). */

#include "jit/lli/CodeGenFlags.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NONE orc_rt_jit_CGEffect_None
#define MCJIT orc_rt_jit_CGEffect_MCJIT
#define BOOL(Name, Help, Effect)                                               \
  { Name, orc_rt_jit_CGValue_Bool, NULL, NULL, Help, false, Effect }
#define ENUM(Name, Values, Help, Effect)                                       \
  { Name, orc_rt_jit_CGValue_Enum, Values, "<value>", Help, false, Effect }

/* Alphabetical, as lli's --help. */
const orc_rt_jit_CodeGenFlag orc_rt_jit_CodeGenFlags[] = {
    BOOL("W", "Alias for --no-warn", NONE),
    BOOL("addrsig", "Emit an address-significance table", NONE),
    {"align-loops", orc_rt_jit_CGValue_UInt, NULL, "<uint>",
     "Default alignment for loops", false, NONE},
    {"as-secure-log-file", orc_rt_jit_CGValue_String, NULL, "<string>",
     "As secure log file name", true, NONE},
    BOOL("asm-show-inst",
         "Emit internal instruction representation to assembly file", NONE),
    BOOL("basic-block-address-map", "Emit the basic block address map section",
         NONE),
    {"basic-block-sections", orc_rt_jit_CGValue_String, NULL,
     "<all | <function list (file)> | labels | none>",
     "Emit basic blocks into separate sections", false, NONE},
    BOOL("call-graph-section", "Emit a call graph section", NONE),
    BOOL("crel", "Use CREL relocation format for ELF", NONE),
    BOOL("data-sections", "Emit data into separate sections", NONE),
    BOOL("debug-entry-values", "Enable debug info for the debug entry values.",
         NONE),
    ENUM("debugger-tune", "gdb|lldb|dbx|sce",
         "Tune debug info for a particular debugger", NONE),
    ENUM("denormal-fp-math", "ieee|preserve-sign|positive-zero|dynamic",
         "Select which denormal numbers the code is permitted to require",
         NONE),
    ENUM("denormal-fp-math-f32", "ieee|preserve-sign|positive-zero|dynamic",
         "Select which denormal numbers the code is permitted to require for "
         "float",
         NONE),
    BOOL("disable-tail-calls", "Never emit tail calls", NONE),
    {"dwarf-version", orc_rt_jit_CGValue_Int, NULL, "<int>", "Dwarf version",
     false, NONE},
    BOOL("dwarf64", "Generate debugging info in the 64-bit DWARF format", NONE),
    BOOL("emit-call-site-info",
         "Emit call site debug information, if debug information is enabled.",
         NONE),
    BOOL("emit-compact-unwind-non-canonical",
         "Whether to try to emit Compact Unwind for non canonical entries.",
         NONE),
    ENUM("emit-dwarf-unwind", "always|no-compact-unwind|dwarf-only|default",
         "Whether to emit DWARF EH frame entries.", NONE),
    BOOL("emit-gnuas-syntax-on-zos", "Emit GNU Assembly Syntax on z/OS.", NONE),
    BOOL("enable-jmc-instrument",
         "Instrument functions with a call to __CheckForDebuggerJustMyCode",
         MCJIT),
    BOOL("enable-no-infs-fp-math",
         "Enable FP math optimizations that assume no +-Infs", NONE),
    BOOL("enable-no-nans-fp-math",
         "Enable FP math optimizations that assume no NaNs", NONE),
    BOOL("enable-no-signed-zeros-fp-math",
         "Enable FP math optimizations that assume the sign of 0 is "
         "insignificant",
         NONE),
    BOOL("enable-no-trapping-fp-math",
         "Enable setting the FP exceptions build attribute not to use "
         "exceptions",
         NONE),
    {"enable-sign-dependent-rounding-fp-math", orc_rt_jit_CGValue_Bool, NULL,
     NULL,
     "Force codegen to assume rounding mode can change "
     "dynamically",
     true, NONE},
    BOOL("enable-tlsdesc", "Enable the use of TLS Descriptors", NONE),
    ENUM("exception-model", "default|dwarf|sjlj|arm|wineh|wasm",
         "exception model", MCJIT),
    BOOL("fatal-warnings", "Treat warnings as errors", MCJIT),
    BOOL("fdpic", "Use the FDPIC ABI", NONE),
    ENUM("filetype", "asm|obj|null",
         "Choose a file type (not all types are supported by all targets):",
         NONE),
    ENUM("float-abi", "default|soft|hard", "Choose float ABI type", NONE),
    BOOL("force-dwarf-frame-section", "Always emit a debug frame section.",
         NONE),
    ENUM("fp-contract", "fast|on|off",
         "Enable aggressive formation of fused FP ops", MCJIT),
    ENUM("frame-pointer", "all|non-leaf|non-leaf-no-reserve|reserved|none",
         "Specify frame pointer elimination optimization", NONE),
    BOOL("function-sections", "Emit functions into separate sections", NONE),
    BOOL("gsframe", "Whether to emit .sframe unwind sections.", NONE),
    BOOL("ignore-xcoff-visibility",
         "Not emit the visibility attribute for asm in AIX OS or give all "
         "symbols 'unspecified' visibility in XCOFF object file",
         NONE),
    BOOL("implicit-mapsyms",
         "Allow mapping symbol at section beginning to be implicit, lowering "
         "number of mapping symbols at the expense of some portability.",
         NONE),
    BOOL("incremental-linker-compatible",
         "When used with filetype=obj, emit an object file which can be used "
         "with an incremental linker",
         NONE),
    {"large-data-threshold", orc_rt_jit_CGValue_UInt, NULL, "<ulong>",
     "Choose large data threshold for x86_64 medium code model", false, NONE},
    BOOL("mc-relax-all",
         "When used with filetype=obj, relax all fixups in the emitted object "
         "file",
         NONE),
    ENUM("meabi", "default|4|5|gnu",
         "Set EABI type (default depends on triple):", NONE),
    BOOL("mxcoff-roptr",
         "When set to true, const objects with relocatable address values are "
         "put into the RO data section.",
         NONE),
    BOOL("no-deprecated-warn", "Suppress all deprecated warnings", NONE),
    BOOL("no-integrated-as", "Disable integrated assembler", NONE),
    BOOL("no-type-check", "Suppress type errors (Wasm)", NONE),
    BOOL("no-warn", "Suppress all warnings", NONE),
    BOOL("nozero-initialized-in-bss",
         "Don't place zero-initialized symbols into bss section", NONE),
    BOOL("partition-static-data-sections",
         "Partition data sections using profile information.", NONE),
    BOOL("save-temp-labels", "Don't discard temporary labels", NONE),
    BOOL("separate-named-sections",
         "Use separate unique sections for named sections", NONE),
    BOOL("split-machine-functions",
         "Split out cold basic blocks from machine functions based on profile "
         "information",
         NONE),
    BOOL("stack-size-section", "Emit a section containing stack size metadata",
         NONE),
    BOOL("stack-symbol-ordering", "Order local stack symbols.", NONE),
    BOOL("stackrealign", "Force align the stack to the minimum alignment",
         NONE),
    BOOL("strict-dwarf", "use strict dwarf", NONE),
    ENUM("swift-async-fp", "auto|always|never",
         "Determine when the Swift async frame pointer should be set", NONE),
    BOOL("tailcallopt",
         "Turn fastcc calls into tail calls by (potentially) changing ABI.",
         MCJIT),
    {"target-abi", orc_rt_jit_CGValue_String, NULL, "<string>",
     "The name of the ABI to be targeted from the backend.", false, MCJIT},
    ENUM("thread-model", "posix|single", "Choose threading model", NONE),
    {"tls-size", orc_rt_jit_CGValue_UInt, NULL, "<uint>",
     "Bit size of immediate TLS offsets", false, NONE},
    {"trap-func", orc_rt_jit_CGValue_String, NULL, "<string>",
     "Emit a call to trap function rather than a trap instruction", true, NONE},
    BOOL("unique-basic-block-section-names",
         "Give unique names to every basic block section", NONE),
    BOOL("unique-section-names", "Give unique names to every section", NONE),
    BOOL("use-ctors", "Use .ctors instead of .init_array.", NONE),
    BOOL("vec-extabi", "Enable the AIX Extended Altivec ABI.", NONE),
    BOOL("x86-relax-relocations",
         "Emit GOTPCRELX/REX_GOTPCRELX/CODE_4_GOTPCRELX instead of GOTPCREL on "
         "x86-64 ELF",
         NONE),
    BOOL("x86-sse2avx",
         "Specify that the assembler should encode SSE instructions with VEX "
         "prefix",
         MCJIT),
    BOOL("xcoff-traceback-table", "Emit the XCOFF traceback table", NONE),
    BOOL("xray-function-index", "Emit xray_fn_idx section", NONE),
};

const size_t orc_rt_jit_CodeGenFlagCount =
    sizeof(orc_rt_jit_CodeGenFlags) / sizeof(orc_rt_jit_CodeGenFlags[0]);
_Static_assert(sizeof(orc_rt_jit_CodeGenFlags) /
                       sizeof(orc_rt_jit_CodeGenFlags[0]) <=
                   ORC_RT_JIT_CODEGEN_FLAGS_MAX,
               "orc_rt_jit_Options::CodeGenValues is too small");

const orc_rt_jit_CodeGenFlag *orc_rt_jit_findCodeGenFlag(const char *Name,
                                                         size_t Len) {
  for (size_t I = 0; I < orc_rt_jit_CodeGenFlagCount; ++I) {
    const char *N = orc_rt_jit_CodeGenFlags[I].Name;
    if (strlen(N) == Len && !strncmp(N, Name, Len))
      return &orc_rt_jit_CodeGenFlags[I];
  }
  return NULL;
}

/* Whether V is one of the '|'-separated words of List. */
static bool inList(const char *V, const char *List) {
  size_t Len = strlen(V);
  for (const char *P = List; P;) {
    const char *Bar = strchr(P, '|');
    size_t L = Bar ? (size_t)(Bar - P) : strlen(P);
    if (L == Len && !strncmp(P, V, L))
      return true;
    P = Bar ? Bar + 1 : NULL;
  }
  return false;
}

static bool isNumber(const char *V, bool Signed) {
  const char *D = Signed && *V == '-' ? V + 1 : V;
  if (!*D || strspn(D, "0123456789") != strlen(D))
    return false;
  errno = 0;
  char *End;
  if (Signed) {
    long long N = strtoll(V, &End, 10);
    return !errno && N >= -2147483647LL - 1 && N <= 2147483647LL;
  }
  strtoull(V, &End, 10);
  return !errno;
}

orc_rt_ErrorRef orc_rt_jit_CodeGenFlag_check(const orc_rt_jit_CodeGenFlag *F,
                                             const char *Value) {
  switch (F->Kind) {
  case orc_rt_jit_CGValue_Enum:
    if (!inList(Value, F->Values))
      return orc_rt_Error_createf(
          "for the --%s option: Cannot find option named '%s'!", F->Name,
          Value);
    break;
  case orc_rt_jit_CGValue_UInt:
    if (!isNumber(Value, false))
      return orc_rt_Error_createf(
          "for the --%s option: '%s' value invalid "
          "for %s argument!",
          F->Name, Value, strcmp(F->ValueName, "<ulong>") ? "uint" : "ulong");
    break;
  case orc_rt_jit_CGValue_Int:
    if (!isNumber(Value, true))
      return orc_rt_Error_createf("for the --%s option: '%s' value invalid "
                                  "for integer argument!",
                                  F->Name, Value);
    break;
  case orc_rt_jit_CGValue_Bool:   /* parsed by the caller: "true"/"false" */
  case orc_rt_jit_CGValue_String: /* any text */
    break;
  }
  return NULL;
}

const char *orc_rt_jit_CodeGenFlag_value(const char *const *Values,
                                         const char *Name) {
  const orc_rt_jit_CodeGenFlag *F =
      orc_rt_jit_findCodeGenFlag(Name, strlen(Name));
  return F ? Values[F - orc_rt_jit_CodeGenFlags] : NULL;
}
