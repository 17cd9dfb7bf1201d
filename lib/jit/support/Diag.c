/*===- lib/jit/support/Diag.c - LLVM errors and diagnostics as runtime errors ===*/

#include "jit/support/Diag.h"

#include <stdbool.h>

#include <llvm-c/Core.h>

#include <ctype.h>
#include <string.h>

static bool isNameChar(char C) {
  return isalnum((unsigned char)C) || C == '_' || C == '.' || C == '$';
}

/* Length of ".__mini_lli.<digits>.<digits>" at S, or 0. */
static size_t uniqueSuffixAt(const char *S) {
  static const char Tag[] = ".__mini_lli.";
  if (strncmp(S, Tag, sizeof(Tag) - 1))
    return 0;
  const char *P = S + sizeof(Tag) - 1;
  size_t Digits = strspn(P, "0123456789");
  if (!Digits || P[Digits] != '.')
    return 0;
  P += Digits + 1;
  Digits = strspn(P, "0123456789");
  return Digits && !isNameChar(P[Digits]) ? (size_t)(P + Digits - S) : 0;
}

void orc_rt_jit_restoreUserNames(char *Msg) {
  /* ORC names the program's JITDylib as lli's is named (see JITDylibs.h). */
  static const char Program[] = "(<program>, ", Main[] = "(main, ";
  char *Out = Msg;
  for (const char *In = Msg; *In;) {
    if (!strncmp(In, Program, sizeof(Program) - 1)) {
      memcpy(Out, Main, sizeof(Main) - 1);
      Out += sizeof(Main) - 1;
      In += sizeof(Program) - 1;
      continue;
    }
    size_t Skip = 0;
    if (In != Msg && isNameChar(In[-1]) && In[-1] != '.') {
      /* A lazy body, and a tiered function's tier-0 stub, code and tier 1
       * (tier/Tiers.h). */
      static const char *const Suffixes[] = {"$body", "$tier0code", "$tier0",
                                             "$tier1"};
      for (size_t I = 0; !Skip && I < sizeof(Suffixes) / sizeof(*Suffixes);
           ++I) {
        size_t Len = strlen(Suffixes[I]);
        if (!strncmp(In, Suffixes[I], Len) && !isNameChar(In[Len]))
          Skip = Len;
      }
      if (!Skip)
        Skip = uniqueSuffixAt(In);
    }
    if (Skip) {
      In += Skip;
      continue;
    }
    *Out++ = *In++;
  }
  *Out = '\0';
}

orc_rt_ErrorRef orc_rt_jit_fromLLVMError(LLVMErrorRef E, const char *Prefix) {
  if (!E)
    return NULL;
  char *Msg = LLVMGetErrorMessage(E);
  orc_rt_jit_restoreUserNames(Msg);
  orc_rt_ErrorRef R = Prefix ? orc_rt_Error_createf("%s%s", Prefix, Msg)
                             : orc_rt_Error_create(Msg);
  LLVMDisposeErrorMessage(Msg);
  return R;
}

orc_rt_ErrorRef orc_rt_jit_fromDiagnostic(char *Msg) {
  if (!Msg)
    return orc_rt_Error_create("unknown error");
  /* Drop trailing newlines; cut " error:" out of the first line. */
  size_t Len = strlen(Msg);
  while (Len && Msg[Len - 1] == '\n')
    Msg[--Len] = '\0';
  char *NL = strchr(Msg, '\n');
  char *Tag = strstr(Msg, ": error: ");
  orc_rt_ErrorRef R;
  if (Tag && (!NL || Tag < NL))
    R = orc_rt_Error_createf("%.*s: %s", (int)(Tag - Msg), Msg,
                             Tag + strlen(": error: "));
  else
    R = orc_rt_Error_create(Msg);
  LLVMDisposeMessage(Msg);
  return R;
}

void orc_rt_jit_keepFirstError(LLVMDiagnosticInfoRef DI, void *Ctx) {
  char **First = Ctx;
  if (LLVMGetDiagInfoSeverity(DI) == LLVMDSError && !*First)
    *First = LLVMGetDiagInfoDescription(DI);
}
