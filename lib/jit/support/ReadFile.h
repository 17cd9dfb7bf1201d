/*===- lib/jit/support/ReadFile.h - A file's bytes, read -----------------===*/

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_READFILE_H
#define ORC_RT_C_LIB_JIT_SUPPORT_READFILE_H

#include <stddef.h>

/* The bytes of the file at Path (malloc'ed, *Size of them), read to its end
 * -- not mapped: a file truncated while it is read, as an editor saving it
 * does, is then a short read, where a mapping's pages past the new end raise
 * SIGBUS; and a pipe works. NULL and errno if it cannot be read. */
char *orc_rt_jit_readFile(const char *Path, size_t *Size);

#endif
