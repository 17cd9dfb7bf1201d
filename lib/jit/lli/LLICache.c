/*===- lib/jit/lli/LLICache.c - lli's -enable-cache-manager object cache --===*/

#include "jit/lli/LLICache.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *orc_rt_jit_LLICache_path(const char *Dir, const char *Input) {
  if (!strcmp(Input, "-"))
    return NULL;
  size_t DirLen = Dir ? strlen(Dir) : 0;
  bool Slash = DirLen && Dir[DirLen - 1] != '/';
  size_t Size = DirLen + 1 + strlen(Input) + 3;
  char *Path = malloc(Size);
  if (!Path)
    return NULL;
  snprintf(Path, Size, "%s%s%s", DirLen ? Dir : "", Slash ? "/" : "", Input);
  char *Dot = strrchr(Path, '.');
  strcpy(Dot ? Dot : Path + strlen(Path), ".o");
  return Path;
}

void orc_rt_jit_LLICache_load(const char *Path, LLVMMemoryBufferRef *Obj) {
  char *Msg = NULL;
  *Obj = NULL;
  if (access(Path, R_OK))
    return;
  if (LLVMCreateMemoryBufferWithContentsOfFile(Path, Obj, &Msg)) {
    *Obj = NULL;
    LLVMDisposeMessage(Msg);
  }
}

/* mkdir -p of Path's parent directory. */
static void createParents(const char *Path) {
  char *Copy = strdup(Path);
  if (!Copy)
    return;
  for (char *P = Copy + 1; *P; ++P) {
    if (*P != '/')
      continue;
    *P = '\0';
    if (mkdir(Copy, 0777) && errno != EEXIST)
      break;
    *P = '/';
  }
  free(Copy);
}

void orc_rt_jit_LLICache_store(const LLVMMemoryBufferRef *Objects,
                               size_t NumObjects, void *Ctx) {
  const char *Path = Ctx;
  if (NumObjects != 1)
    return; /* lli's cache holds one object per module */
  createParents(Path);
  FILE *F = fopen(Path, "wb");
  if (!F)
    return;
  fwrite(LLVMGetBufferStart(Objects[0]), 1, LLVMGetBufferSize(Objects[0]), F);
  fclose(F);
}
