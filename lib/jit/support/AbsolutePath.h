/*===- lib/jit/support/AbsolutePath.h - A path as an absolute one ---------===*/
/* A directory named on a command line or in options is taken where it was
 * named: the program may change its current directory before it is used. */

#ifndef ORC_RT_C_LIB_JIT_SUPPORT_ABSOLUTEPATH_H
#define ORC_RT_C_LIB_JIT_SUPPORT_ABSOLUTEPATH_H

/* Path as an absolute path (malloc'ed; NULL if out of memory): a relative
 * one is taken against the current directory now (as it is if that cannot
 * be read). */
char *orc_rt_jit_absolutePath(const char *Path);

#endif
