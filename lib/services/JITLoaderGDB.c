/*===- lib/services/JITLoaderGDB.c - GDB JIT interface registration -------===*/
/* The GDB JIT interface: debuggers read __jit_debug_descriptor and break on
 * __jit_debug_register_code. The alloc action prepends an entry for a JIT'd
 * debug object and, if asked, notifies the debugger. Lock serialises
 * descriptor updates. */

#include "services/JITLoaderGDB.h"
#include "services/ServiceWire.h"
#include "support/FaultInjection.h"

#include <pthread.h>
#include <stdlib.h>

struct jit_descriptor __jit_debug_descriptor = {1, 0, NULL, NULL};

/* Debuggers set a breakpoint here; it must not be inlined or folded away. */
ORC_RT_C_API __attribute__((noinline)) void __jit_debug_register_code(void);
void __jit_debug_register_code(void) { __asm__ volatile("" ::: "memory"); }

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;

/* Error(AddrRange DebugObject, bool AutoRegister). */
orc_rt_CWrapperFunctionBuffer
llvm_orc_registerJITLoaderGDBAllocAction(const char *Data, size_t Size) {
  orc_rt_SPSReader R;
  orc_rt_SPSReader_init(&R, Data, Size);
  uint64_t Start, End;
  bool AutoRegister;
  if (!orc_rt_SPSReader_readAddr(&R, &Start) ||
      !orc_rt_SPSReader_readAddr(&R, &End) ||
      !orc_rt_SPSReader_readBool(&R, &AutoRegister) || End < Start)
    return orc_rt_internal_badArgs();
  struct jit_code_entry *E = orc_rt_internal_calloc(1, sizeof(*E));
  if (!E)
    return orc_rt_SPS_errorResult(orc_rt_Error_create("out of memory"));
  E->symfile_addr = (const char *)(uintptr_t)Start;
  E->symfile_size = End - Start;
  pthread_mutex_lock(&Lock);
  E->next_entry = __jit_debug_descriptor.first_entry;
  if (E->next_entry)
    E->next_entry->prev_entry = E;
  __jit_debug_descriptor.first_entry = E;
  __jit_debug_descriptor.relevant_entry = E;
  __jit_debug_descriptor.action_flag = 1;
  if (AutoRegister)
    __jit_debug_register_code();
  pthread_mutex_unlock(&Lock);
  return orc_rt_SPS_errorResult(NULL);
}

uint64_t orc_rt_JITLoaderGDB_lastEntry(void) {
  pthread_mutex_lock(&Lock);
  struct jit_code_entry *E = __jit_debug_descriptor.first_entry;
  while (E && E->next_entry)
    E = E->next_entry;
  pthread_mutex_unlock(&Lock);
  return (uint64_t)(uintptr_t)E;
}

/*---- The service ----*/

static const orc_rt_internal_ServiceFn Functions[] = {
    {"llvm_orc_registerJITLoaderGDBAllocAction",
     llvm_orc_registerJITLoaderGDBAllocAction},
};

orc_rt_ErrorRef orc_rt_internal_addJITLoaderGDB(orc_rt_ExecutorServicesRef ES) {
  return orc_rt_internal_ExecutorServices_addFunctions(
      ES, Functions, sizeof(Functions) / sizeof(Functions[0]));
}
