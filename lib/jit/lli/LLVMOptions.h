/*===- lib/jit/lli/LLVMOptions.h - The options LLVM's own parser knows ----===*/
/* LLVM's library options (-time-passes, -debug-pass=..., -x86-asm-syntax=...)
 * as this process's LLVM registers them. LLVM-C cannot list them, so the list
 * is read once from LLVM's --help-list-hidden in a child process (LLVM's
 * parser exits after printing it) and kept for the life of the process.
 *
 * The option parser needs it to read an option as lli's cl:: parser does:
 * `-debug-pass Structure` gives the next argument to an option that requires
 * a value, while `-time-passes prog.ll` leaves it alone. Call on the main
 * thread only, before other threads exist (the cache is not locked, and the
 * child is forked). */

#ifndef ORC_RT_C_LIB_JIT_LLI_LLVMOPTIONS_H
#define ORC_RT_C_LIB_JIT_LLI_LLVMOPTIONS_H

#include <stddef.h>

typedef enum {
  orc_rt_jit_LLVMOption_Unknown, /* not LLVM's (or the list is unavailable) */
  orc_rt_jit_LLVMOption_Flag,    /* -name or -name=value; never the next arg */
  orc_rt_jit_LLVMOption_Value    /* requires a value: -name=value or -name v */
} orc_rt_jit_LLVMOptionKind;

/* Name[0, Len) without dashes. */
orc_rt_jit_LLVMOptionKind orc_rt_jit_llvmOptionKind(const char *Name,
                                                    size_t Len);

/* True once the list has been read successfully (false: LLVM's parser is
 * left to judge every option). */
int orc_rt_jit_llvmOptionsKnown(void);

/* The LLVM option nearest to Name[0, Len) by edit distance, or NULL; *Dist is
 * its distance. */
const char *orc_rt_jit_llvmNearestOption(const char *Name, size_t Len,
                                         size_t *Dist);

/* Runs LLVM's parser on Argv in a child process and returns what it wrote to
 * Fd (STDOUT_FILENO or STDERR_FILENO), NUL-terminated, *Size bytes long; the
 * caller frees it. NULL if the child could not run or did not exit 0. */
char *orc_rt_jit_llvmParseInChild(int Argc, const char *const *Argv, int Fd,
                                  size_t *Size);

#endif
