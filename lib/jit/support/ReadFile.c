/*===- lib/jit/support/ReadFile.c - A file's bytes, read -----------------===*/

#include "jit/support/ReadFile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

char *orc_rt_jit_readFile(const char *Path, size_t *Size) {
  int Fd = open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return NULL;
  size_t Have = 0, Cap = 1 << 16;
  char *Data = malloc(Cap);
  while (Data) {
    if (Have == Cap) {
      char *Grown = realloc(Data, Cap *= 2);
      if (!Grown)
        free(Data);
      Data = Grown;
      continue;
    }
    ssize_t N = read(Fd, Data + Have, Cap - Have);
    if (N == 0)
      break;
    if (N > 0)
      Have += (size_t)N;
    else if (errno != EINTR) {
      free(Data);
      Data = NULL;
    }
  }
  int Errno = errno; /* (read's, or malloc's ENOMEM) */
  close(Fd);
  *Size = Have;
  errno = Errno;
  return Data;
}
