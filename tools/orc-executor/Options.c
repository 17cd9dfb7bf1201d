/*===- tools/orc-executor/Options.c - Command-line parsing ----------------===*/

#include "Options.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

const char ExecutorUsage[] =
    "Usage:\n"
    "  orc-executor <input fd> <output fd>\n"
    "  orc-executor [test-*] filedescs=<infd>,<outfd> [args...]\n"
    "  orc-executor [test-*] listen=<host>:<port> [args...]\n"
    "Options (anywhere; also from ORC_EXECUTOR_OPTIONS, space-separated):\n"
    "  --idle-close=<s>          close the connection once idle that long "
    "(TCP)\n"
    "  --idle-close-ms=<ms>      the same, in milliseconds\n"
    "  --shutdown-timeout=<s>|forever\n"
    "                            once the controller is gone, wait that long\n"
    "                            for JIT'd code still running (default: end\n"
    "                            at once, as llvm-jitlink-executor)\n";

static bool parseUnsigned(const char *S, unsigned long long Max,
                          unsigned long long *V) {
  if (!*S || *S == '-' || *S == '+')
    return false;
  char *End;
  errno = 0;
  unsigned long long X = strtoull(S, &End, 10);
  if (errno || *End || X > Max)
    return false;
  *V = X;
  return true;
}

static orc_rt_ErrorRef parseFD(const char *S, int *FD) {
  unsigned long long V;
  if (!parseUnsigned(S, 0x7fffffff, &V) || fcntl((int)V, F_GETFD) == -1)
    return orc_rt_Error_createf("%s is not a valid file descriptor", S);
  *FD = (int)V;
  return NULL;
}

static orc_rt_ErrorRef parseFileDescs(const char *Spec, ExecutorOptions *O) {
  const char *Comma = strchr(Spec, ',');
  if (!Comma)
    return orc_rt_Error_createf("filedescs=%s: expected <infd>,<outfd>", Spec);
  char In[32];
  size_t L = (size_t)(Comma - Spec);
  if (L >= sizeof(In))
    return orc_rt_Error_createf("%.*s is not a valid file descriptor", (int)L,
                                Spec);
  memcpy(In, Spec, L);
  In[L] = 0;
  orc_rt_ErrorRef Err = parseFD(In, &O->InFD);
  return Err ? Err : parseFD(Comma + 1, &O->OutFD);
}

static orc_rt_ErrorRef parseListen(const char *Spec, ExecutorOptions *O) {
  const char *Colon = strrchr(Spec, ':');
  if (!Colon)
    return orc_rt_Error_createf("listen=%s: expected <host>:<port>", Spec);
  unsigned long long Port;
  if (!parseUnsigned(Colon + 1, 65535, &Port))
    return orc_rt_Error_createf("port number '%s' is not a valid integer",
                                Colon + 1);
  O->Host = strndup(Spec, (size_t)(Colon - Spec));
  O->Port = strdup(Colon + 1);
  if (!O->Host || !O->Port)
    return orc_rt_Error_create("out of memory");
  /* [::1]:port style */
  size_t HL = strlen(O->Host);
  if (HL >= 2 && O->Host[0] == '[' && O->Host[HL - 1] == ']') {
    memmove(O->Host, O->Host + 1, HL - 2);
    O->Host[HL - 2] = 0;
  }
  O->Listen = true;
  return NULL;
}

/* Applies one "--" option. */
static orc_rt_ErrorRef parseOption(const char *A, ExecutorOptions *O) {
  unsigned long long V;
  if (strcmp(A, "--help") == 0 || strcmp(A, "-h") == 0) {
    O->Help = true;
    return NULL;
  }
  if (strncmp(A, "--idle-close=", 13) == 0) {
    if (!parseUnsigned(A + 13, 4000000, &V))
      return orc_rt_Error_createf("invalid %s (seconds expected)", A);
    O->IdleCloseMs = (unsigned)(V * 1000);
    return NULL;
  }
  if (strncmp(A, "--idle-close-ms=", 16) == 0) {
    if (!parseUnsigned(A + 16, 4000000000ULL, &V))
      return orc_rt_Error_createf("invalid %s (milliseconds expected)", A);
    O->IdleCloseMs = (unsigned)V;
    return NULL;
  }
  if (strncmp(A, "--shutdown-timeout=", 19) == 0) {
    if (strcmp(A + 19, "forever") == 0)
      O->ShutdownTimeoutMs = -1;
    else if (parseUnsigned(A + 19, 4000000, &V))
      O->ShutdownTimeoutMs = (long)(V * 1000);
    else
      return orc_rt_Error_createf("invalid %s (seconds or 'forever' expected)",
                                  A);
    O->Drain = true;
    return NULL;
  }
  return orc_rt_Error_createf("unknown option %s", A);
}

/* Options from ORC_EXECUTOR_OPTIONS (space-separated): the clients start
 * the executor with a fixed command line, so this is how options reach
 * it under llvm-jitlink/lli. */
static orc_rt_ErrorRef parseEnvironment(ExecutorOptions *O) {
  const char *Env = getenv("ORC_EXECUTOR_OPTIONS");
  if (!Env)
    return NULL;
  char *Copy = strdup(Env);
  if (!Copy)
    return orc_rt_Error_create("out of memory");
  orc_rt_ErrorRef Err = NULL;
  char *Save = NULL;
  for (char *T = strtok_r(Copy, " \t", &Save); T && !Err;
       T = strtok_r(NULL, " \t", &Save))
    Err = parseOption(T, O);
  free(Copy);
  if (Err) {
    orc_rt_ErrorRef Where = orc_rt_Error_createf("in ORC_EXECUTOR_OPTIONS: %s",
                                                 orc_rt_Error_getMessage(Err));
    orc_rt_Error_consume(Err);
    return Where;
  }
  return NULL;
}

orc_rt_ErrorRef parseExecutorOptions(int Argc, char **Argv,
                                     ExecutorOptions *O) {
  memset(O, 0, sizeof(*O));
  O->InFD = O->OutFD = -1;
  orc_rt_ErrorRef Err = parseEnvironment(O);
  if (Err)
    return Err;
  /* Our options first, wherever they are; what is left is positional. */
  const char *Pos[3];
  int NPos = 0;
  for (int I = 1; I < Argc; ++I) {
    const char *A = Argv[I];
    if (strncmp(A, "--", 2) == 0 || strcmp(A, "-h") == 0) {
      if ((Err = parseOption(A, O)) || O->Help)
        return Err;
      continue;
    }
    if (NPos < 3)
      Pos[NPos] = A;
    ++NPos;
  }
  if (NPos == 0)
    return orc_rt_Error_create("insufficient arguments");
  int First = 0;
  if (strncmp(Pos[0], "test-", 5) == 0) {
    First = 1; /* test-* flags; only test-jitloadergdb has an effect */
    O->TestJITLoaderGDB = strcmp(Pos[0], "test-jitloadergdb") == 0;
  }
  if (First < NPos && First < 3) {
    const char *Spec = Pos[First];
    if (strncmp(Spec, "filedescs=", 10) == 0)
      return parseFileDescs(Spec + 10, O);
    if (strncmp(Spec, "listen=", 7) == 0)
      return parseListen(Spec + 7, O);
  }
  /* lli-child-target form: exactly two descriptors. */
  if (NPos == 2 && First == 0) {
    orc_rt_ErrorRef Err = parseFD(Pos[0], &O->InFD);
    return Err ? Err : parseFD(Pos[1], &O->OutFD);
  }
  if (First >= NPos)
    return orc_rt_Error_create("insufficient arguments");
  const char *Spec = Pos[First];
  const char *Eq = strchr(Spec, '=');
  return orc_rt_Error_createf("invalid specifier type \"%.*s\"",
                              (int)(Eq ? Eq - Spec : (long)strlen(Spec)), Spec);
}

void freeExecutorOptions(ExecutorOptions *O) {
  free(O->Host);
  free(O->Port);
}
