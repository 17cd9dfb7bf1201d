/*===- lib/jit/program/ProgramRuntime.c - What mini-lli gives JIT'd code --===*/
/* The table of the driver's definitions (RuntimeExit.c, RuntimeThreads.c, and
 * the thread_local helper below). One JIT'd program per process, so the state
 * behind them is global. */

#include "jit/program/ProgramRuntime.h"
#include "jit/ir/EmuTLS.h"
#include "jit/program/IRDlopen.h"
#include "jit/program/RuntimeParts.h"
#include "jit/program/ThreadInterpose.h"
#include "orc-rt-c/ManagedThread.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*---- thread_local variables declared but not defined by a module ----*/

/* See EmuTLS.h. */
static void *orc_rt_jit_tls_address(void *Ctl, const char *Name) {
  void *Addr = orc_rt_jit_emuTLSAddress(Ctl, Name);
  if (Addr)
    return Addr;
  fflush(stdout);
  fprintf(stderr, "mini-lli: error: thread_local variable '%s' not found\n",
          Name);
  _exit(1);
}

void orc_rt_jit_Runtime_dispose(void) {
  orc_rt_jit_internal_disposeExit();
  orc_rt_jit_internal_disposeThreads();
}

/*---- libgcc's CPU model ----*/

/* __builtin_cpu_supports / __builtin_cpu_is in JIT'd code read these. They
 * live in libgcc.a (linked into mini-lli), so no shared library exports them;
 * the driver hands JIT'd code its own copies. */
extern char __cpu_model[];
extern char __cpu_features2[];
extern int __cpu_indicator_init(void);

/*---- The table ----*/

const orc_rt_jit_Override *orc_rt_jit_Runtime_overrides(size_t *Count) {
  orc_rt_jit_ThreadInterpose_set(orc_rt_jit_pthread_create);
  static orc_rt_jit_Override Table[29];
  Table[0] =
      (orc_rt_jit_Override){"atexit", (uintptr_t)orc_rt_jit_atexit, true};
  Table[1] = (orc_rt_jit_Override){"__cxa_atexit",
                                   (uintptr_t)orc_rt_jit_cxa_atexit, true};
  Table[2] = (orc_rt_jit_Override){
      "__dso_handle", (uintptr_t)&orc_rt_jit_internal_ProgramDso, false};
  Table[3] = (orc_rt_jit_Override){"exit", (uintptr_t)orc_rt_jit_exit, true};
  Table[4] = (orc_rt_jit_Override){"pthread_create",
                                   (uintptr_t)orc_rt_jit_pthread_create, true};
  Table[5] = (orc_rt_jit_Override){"thrd_create",
                                   (uintptr_t)orc_rt_jit_thrd_create, true};
  Table[6] = (orc_rt_jit_Override){"pthread_exit",
                                   (uintptr_t)orc_rt_jit_pthread_exit, true};
  Table[7] =
      (orc_rt_jit_Override){"thrd_exit", (uintptr_t)orc_rt_jit_thrd_exit, true};
  Table[8] = (orc_rt_jit_Override){
      "__cxa_thread_atexit", (uintptr_t)orc_rt_jit_cxa_thread_atexit, true};
  Table[9] = (orc_rt_jit_Override){"at_quick_exit",
                                   (uintptr_t)orc_rt_jit_at_quick_exit, true};
  Table[10] = (orc_rt_jit_Override){
      "__cxa_at_quick_exit", (uintptr_t)orc_rt_jit_cxa_at_quick_exit, true};
  Table[11] = (orc_rt_jit_Override){"quick_exit",
                                    (uintptr_t)orc_rt_jit_quick_exit, true};
  Table[12] = (orc_rt_jit_Override){ORC_RT_JIT_TLS_ADDRESS,
                                    (uintptr_t)orc_rt_jit_tls_address, true};
  Table[13] = (orc_rt_jit_Override){
      "pthread_key_create", (uintptr_t)orc_rt_jit_pthread_key_create, true};
  Table[14] = (orc_rt_jit_Override){
      "pthread_key_delete", (uintptr_t)orc_rt_jit_pthread_key_delete, true};
  Table[15] = (orc_rt_jit_Override){"tss_create",
                                    (uintptr_t)orc_rt_jit_tss_create, true};
  Table[16] = (orc_rt_jit_Override){"tss_delete",
                                    (uintptr_t)orc_rt_jit_tss_delete, true};
  Table[17] =
      (orc_rt_jit_Override){"__cpu_model", (uintptr_t)__cpu_model, false};
  Table[18] = (orc_rt_jit_Override){"__cpu_features2",
                                    (uintptr_t)__cpu_features2, false};
  Table[19] = (orc_rt_jit_Override){"__cpu_indicator_init",
                                    (uintptr_t)__cpu_indicator_init, true};
  /* glibc's thrd_join bypasses ThreadSanitizer; the runtime's joins through
   * pthread_join, which is what glibc does underneath anyway. */
  Table[20] =
      (orc_rt_jit_Override){"thrd_join", (uintptr_t)orc_rt_thrd_join, true};
  /* dlopen and friends: LLVM IR modules are JIT'd (IRDlopen.c). */
  Table[21] =
      (orc_rt_jit_Override){"dlopen", (uintptr_t)orc_rt_jit_dlopen, true};
  Table[22] = (orc_rt_jit_Override){"dlsym", (uintptr_t)orc_rt_jit_dlsym, true};
  Table[23] =
      (orc_rt_jit_Override){"dlclose", (uintptr_t)orc_rt_jit_dlclose, true};
  Table[24] =
      (orc_rt_jit_Override){"dlerror", (uintptr_t)orc_rt_jit_dlerror, true};
  Table[25] =
      (orc_rt_jit_Override){"dladdr", (uintptr_t)orc_rt_jit_dladdr, true};
  Table[26] =
      (orc_rt_jit_Override){"dlinfo", (uintptr_t)orc_rt_jit_dlinfo, true};
  Table[27] = (orc_rt_jit_Override){"pthread_atfork",
                                    (uintptr_t)orc_rt_jit_pthread_atfork, true};
  Table[28] =
      (orc_rt_jit_Override){"on_exit", (uintptr_t)orc_rt_jit_on_exit, true};
  *Count = sizeof(Table) / sizeof(Table[0]);
  return Table;
}
