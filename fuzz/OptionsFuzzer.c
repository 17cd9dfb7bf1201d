/*===- fuzz/OptionsFuzzer.c - libFuzzer target: mini-lli's option parser -===*/
/*
 * The input is split at NUL bytes into argv[1..] (argv[0] is "mini-lli"; at
 * most 64 arguments) and parsed by orc_rt_jit_Options_parse (lib/jit/lli/Options.c,
 * and lib/jit/lli/CodeGenFlags.c, which need neither LLVM nor the rest of lib/jit;
 * the list of LLVM's own options, which LLVMOptions.c reads from LLVM, is a
 * small stand-in here). Checked besides "no crash,
 * no leak":
 *  - an error has a non-empty message;
 *  - on success: 0 <= OptLevel <= 3, EntryFunction is non-empty, the shutdown
 *    timeout is -1 (unset) or finite and >= 0, the program's argv is a suffix
 *    of argv starting at Input (or the built-in {"-"}), every string of a list
 *    points into argv;
 *  - parsing is deterministic (a second parse gives the same result);
 *  - --help's text can be printed.
 */

#include "jit/lli/LLVMOptions.h"
#include "jit/lli/Options.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(C)                                                               \
  do {                                                                         \
    if (!(C))                                                                  \
      __builtin_trap();                                                        \
  } while (0)

enum { MaxArgs = 64 };

/* Stand-in for lib/jit/lli/LLVMOptions.c (which asks LLVM): one option of each
 * kind, so both `-name value` and `-name` reach the parser. */
orc_rt_jit_LLVMOptionKind orc_rt_jit_llvmOptionKind(const char *Name,
                                                    size_t Len) {
  if (Len == 10 && !memcmp(Name, "debug-pass", 10))
    return orc_rt_jit_LLVMOption_Value;
  if (Len == 11 && !memcmp(Name, "time-passes", 11))
    return orc_rt_jit_LLVMOption_Flag;
  return orc_rt_jit_LLVMOption_Unknown;
}

static bool inArgv(const char *S, char **Argv, int Argc) {
  for (int I = 0; I < Argc; ++I) {
    size_t L = strlen(Argv[I]);
    if (S >= Argv[I] && S <= Argv[I] + L)
      return true;
  }
  return false;
}

static void checkList(const orc_rt_jit_StringList *L, char **Argv, int Argc) {
  CHECK(L->Size <= L->Capacity);
  for (size_t I = 0; I < L->Size; ++I)
    CHECK(inArgv(L->Items[I], Argv, Argc));
}

int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  /* One heap block per argument, so ASan sees any read past an argument. */
  char *Argv[MaxArgs + 2];
  int Argc = 0;
  static char Prog[] = "mini-lli";
  Argv[Argc++] = Prog;
  size_t Start = 0;
  for (size_t I = 0; I <= Size && Argc <= MaxArgs; ++I)
    if (I == Size || Data[I] == 0) {
      if (I == Size && I == Start && Argc > 1)
        break; /* no empty argument from a trailing NUL */
      size_t L = I - Start;
      char *A = malloc(L + 1);
      memcpy(A, Data + Start, L);
      A[L] = 0;
      Argv[Argc++] = A;
      Start = I + 1;
    }
  Argv[Argc] = NULL;

  orc_rt_jit_Options O;
  orc_rt_ErrorRef Err = orc_rt_jit_Options_parse(&O, Argc, Argv);
  orc_rt_jit_Options O2;
  orc_rt_ErrorRef Err2 = orc_rt_jit_Options_parse(&O2, Argc, Argv);
  CHECK(!Err == !Err2);
  if (Err) {
    const char *M = orc_rt_Error_getMessage(Err);
    CHECK(M && *M);
    CHECK(!strcmp(M, orc_rt_Error_getMessage(Err2)));
  } else {
    CHECK(O.OptLevel >= 0 && O.OptLevel <= 3);
    CHECK(O.EntryFunction && *O.EntryFunction);
    CHECK(O.ShutdownTimeout == -1 ||
          (isfinite(O.ShutdownTimeout) && O.ShutdownTimeout >= 0));
    CHECK(O.Input && O.ProgramArgc >= 1 && O.ProgramArgv);
    CHECK(!strcmp(O.ProgramArgv[0], O.Input));
    if (O.ProgramArgv != Argv + Argc - O.ProgramArgc) {
      CHECK(O.ProgramArgc == 1 && !strcmp(O.Input, "-"));
    } else {
      CHECK(O.ProgramArgc <= Argc - 1);
      CHECK(O.ProgramArgv[O.ProgramArgc] == NULL);
    }
    CHECK(O.EntryFunction == O2.EntryFunction && O.Input == O2.Input &&
          O.OptLevel == O2.OptLevel && O.Lazy == O2.Lazy &&
          O.ProgramArgc == O2.ProgramArgc);
    if (strcmp(O.EntryFunction, "main"))
      CHECK(inArgv(O.EntryFunction, Argv, Argc));
    if (O.FakeArgv0)
      CHECK(inArgv(O.FakeArgv0, Argv, Argc));
    if (O.Passes)
      CHECK(inArgv(O.Passes, Argv, Argc));
    checkList(&O.ExtraModules, Argv, Argc);
    checkList(&O.ExtraObjects, Argv, Argc);
    checkList(&O.ExtraArchives, Argv, Argc);
    checkList(&O.DLOpens, Argv, Argc);
    checkList(&O.ThreadEntries, Argv, Argc);
    checkList(&O.MAttrs, Argv, Argc);
    checkList(&O.Plugins, Argv, Argc);
    if (O.Help || O.HelpHidden || O.HelpList || O.HelpListHidden) {
      FILE *Null = fopen("/dev/null", "w");
      if (Null) {
        orc_rt_jit_printHelp(Null, O.HelpHidden || O.HelpListHidden,
                             O.HelpList || O.HelpListHidden);
        fclose(Null);
      }
    }
  }
  orc_rt_Error_consume(Err);
  orc_rt_Error_consume(Err2);
  orc_rt_jit_Options_dispose(&O);
  orc_rt_jit_Options_dispose(&O2);
  for (int I = 1; I < Argc; ++I)
    free(Argv[I]);
  return 0;
}
