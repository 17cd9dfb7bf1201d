/*===- lib/jit/program/IRDlopen.h - dlopen and friends for LLVM IR modules ===*/
/* JIT'd code's dlopen / dlsym / dlclose / dlerror / dladdr / dlinfo. A file
 * that holds LLVM IR (bitcode by its magic, text if it is not ELF and has no
 * NUL byte in its first 4 KiB) is loaded by the host JIT library's loader
 * (orc-rt-c/Jit.h, over the program's LLJIT): compiled and linked into a
 * JITDylib of its own that resolves against the program and the process (and
 * modules opened RTLD_GLOBAL), its constructors run, and the handle is
 * returned; everything else goes to the real functions. A module's exported
 * functions are reached through permanent token-taking entries; dlclose at
 * count zero runs its destructors and the atexit handlers it registered,
 * closes its task group (nested under the Session's), and its code is freed
 * once the last token is back -- without waiting for it. docs/Design.md
 * argues the rules. */

#ifndef ORC_RT_C_LIB_JIT_PROGRAM_IRDLOPEN_H
#define ORC_RT_C_LIB_JIT_PROGRAM_IRDLOPEN_H

#include "jit/lli/Options.h"
#include "jit/program/Jit.h"

#include "orc-rt-c/Session.h"

#include <dlfcn.h>
#include <stdio.h>

/* Makes dlopen of IR work for the program of S and J (one per process). The
 * first IR dlopen makes the loader, a Session service that, when shutdown is
 * requested, finalizes the modules still loaded (in glibc's _dl_fini order)
 * and closes their groups, and frees them after the drain: the service that
 * frees J must be older. */
void orc_rt_jit_Dlopen_attach(orc_rt_SessionRef S, orc_rt_jit_Jit *J,
                              const orc_rt_jit_Options *Opts);

/* The symbols defined for JIT'd code (see ProgramRuntime.c). */
void *orc_rt_jit_dlopen(const char *Path, int Flags);
void *orc_rt_jit_dlsym(void *Handle, const char *Name);
int orc_rt_jit_dlclose(void *Handle);
char *orc_rt_jit_dlerror(void);
int orc_rt_jit_dladdr(const void *Addr, Dl_info *Info);
int orc_rt_jit_dlinfo(void *Handle, int Request, void *Arg);

/* Runs an atexit handler taken from the program's list at exit if it was
 * registered by a loaded module (with its __dso_handle): under the module's
 * token, as dlclose runs it. False if it is not a loaded module's. */
bool orc_rt_jit_Dlopen_runHandler(const orc_rt_jit_Handler *H);

/* For the -shutdown-timeout report: frames live inside modules. */
size_t orc_rt_jit_Dlopen_reportLiveFrames(FILE *Out);

#endif
