/*===- lib/jit/support/AbsolutePath.c - A path as an absolute one ---------===*/

#include "jit/support/AbsolutePath.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *orc_rt_jit_absolutePath(const char *Path) {
  char Cwd[PATH_MAX];
  if (Path[0] == '/' || !getcwd(Cwd, sizeof(Cwd)))
    return strdup(Path);
  size_t N = strlen(Cwd) + strlen(Path) + 2;
  char *Abs = malloc(N);
  if (Abs)
    snprintf(Abs, N, "%s/%s", Cwd, Path);
  return Abs;
}
