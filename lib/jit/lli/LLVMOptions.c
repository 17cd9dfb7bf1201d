/*===- lib/jit/lli/LLVMOptions.c - The options LLVM's own parser knows ----===*/

#include "jit/lli/LLVMOptions.h"

#include "jit/lli/Options.h"
#include "jit/support/GrowArray.h"

#include <llvm-c/Support.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  char *Names; /* "name\0name\0...", each followed by its kind byte */
  size_t Size; /* bytes used in Names */
  int State;   /* 0: not read yet, 1: read, -1: unavailable */
} OptionList;

static OptionList List;

char *orc_rt_jit_llvmParseInChild(int Argc, const char *const *Argv, int Fd,
                                  size_t *Size) {
  int Pipe[2];
  *Size = 0;
  if (pipe(Pipe))
    return NULL;
  fflush(NULL); /* the child's exit must not flush our buffers twice */
  pid_t Pid = fork();
  if (Pid == 0) {
    dup2(Pipe[1], Fd);
    close(Pipe[0]);
    close(Pipe[1]);
    LLVMParseCommandLineOptions(Argc, Argv, "");
    _exit(0);
  }
  close(Pipe[1]);
  size_t Cap = 1 << 16, N = 0;
  char *Buf = Pid > 0 ? malloc(Cap) : NULL;
  while (Buf) {
    /* Room to read one byte more, and the NUL. */
    if (!orc_rt_jit_growArray(&Buf, &Cap, N + 2, 1)) {
      free(Buf);
      Buf = NULL;
      break;
    }
    ssize_t R = read(Pipe[0], Buf + N, Cap - 1 - N);
    if (R < 0 && errno == EINTR)
      continue;
    if (R <= 0)
      break;
    N += (size_t)R;
  }
  close(Pipe[0]);
  int Status = 0;
  if (Pid > 0)
    waitpid(Pid, &Status, 0);
  if (Buf && (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)) {
    free(Buf);
    Buf = NULL;
  }
  if (Buf)
    Buf[N] = '\0';
  *Size = Buf ? N : 0;
  return Buf;
}

static char *findEntry(const char *Name, size_t Len) {
  for (size_t I = 0; I < List.Size;) {
    size_t L = strlen(List.Names + I);
    if (L == Len && !memcmp(List.Names + I, Name, Len))
      return List.Names + I + L + 1;
    I += L + 2;
  }
  return NULL;
}

/* Keeps "name" and its kind from each "  --name=<...>  - help" (requires a
 * value) or "  --name  - help" (a flag) line, in place. An option listed both
 * ways takes an optional value: it never takes the next argument, so it is a
 * flag here. */
static void load(void) {
  if (List.State)
    return;
  static const char *const Argv[] = {"mini-lli", "--help-list-hidden"};
  size_t N;
  char *Buf = orc_rt_jit_llvmParseInChild(2, Argv, STDOUT_FILENO, &N);
  List.State = -1;
  if (!Buf)
    return;
  List.Names = Buf;
  size_t Out = 0;
  for (size_t I = 0; I < N;) {
    size_t End = I;
    while (End < N && Buf[End] != '\n')
      ++End;
    if (End - I > 3 && Buf[I] == ' ' && Buf[I + 1] == ' ' &&
        Buf[I + 2] == '-') {
      size_t J = I + 2;
      while (J < End && Buf[J] == '-')
        ++J;
      size_t K = J;
      while (K < End && Buf[K] != '=' && Buf[K] != ' ' && Buf[K] != '<' &&
             Buf[K] != '[')
        ++K;
      char Kind = K < End && Buf[K] == '=' ? orc_rt_jit_LLVMOption_Value
                                           : orc_rt_jit_LLVMOption_Flag;
      /* Out never passes J: each entry is shorter than its line. */
      List.Size = Out;
      char *Seen = K > J ? findEntry(Buf + J, K - J) : NULL;
      if (Seen) {
        if (Kind == orc_rt_jit_LLVMOption_Flag)
          *Seen = Kind;
      } else if (K > J) {
        memmove(Buf + Out, Buf + J, K - J);
        Out += K - J;
        Buf[Out++] = '\0';
        Buf[Out++] = Kind;
      }
    }
    I = End + 1;
  }
  List.Size = Out;
  List.State = 1;
}

orc_rt_jit_LLVMOptionKind orc_rt_jit_llvmOptionKind(const char *Name,
                                                    size_t Len) {
  load();
  const char *Kind = findEntry(Name, Len);
  return Kind ? (orc_rt_jit_LLVMOptionKind)*Kind
              : orc_rt_jit_LLVMOption_Unknown;
}

int orc_rt_jit_llvmOptionsKnown(void) {
  load();
  return List.State == 1;
}

const char *orc_rt_jit_llvmNearestOption(const char *Name, size_t Len,
                                         size_t *Dist) {
  load();
  const char *Best = NULL;
  *Dist = SIZE_MAX;
  for (size_t I = 0; I < List.Size;) {
    size_t L = strlen(List.Names + I);
    size_t D = orc_rt_jit_editDistance(Name, Len, List.Names + I, L);
    if (D < *Dist) {
      *Dist = D;
      Best = List.Names + I;
    }
    I += L + 2;
  }
  return Best;
}
