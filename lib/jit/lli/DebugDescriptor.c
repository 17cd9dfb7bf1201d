/*===- lib/jit/lli/DebugDescriptor.c - lli's GDB JIT interface dumps ------===*/
/* See DebugDescriptor.h. The walk is lli's: the first call starts at the
 * descriptor's first entry, later calls follow next_entry from the last entry
 * reported. (Registration prepends, so entries registered later than the
 * first one reported are not seen; lli prints the same.) */

#include "jit/lli/DebugDescriptor.h"
#include "services/JITLoaderGDB.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

/* The descriptor is liborc-rt-c's (services/JITLoaderGDB.h), which LLVM's
 * registrars in this process update. */

/* Objects may be linked on several threads: one walk at a time. */
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static struct jit_code_entry *Latest; /* the last entry reported */

bool orc_rt_jit_isDescriptorDump(orc_rt_jit_DumpKind Kind) {
  return Kind == orc_rt_jit_Dump_DebugDescriptor ||
         Kind == orc_rt_jit_Dump_DebugObjects;
}

void orc_rt_jit_DebugDescriptor_start(orc_rt_jit_DumpKind Kind) {
  if (Kind != orc_rt_jit_Dump_DebugDescriptor)
    return;
  pthread_mutex_lock(&Lock);
  fprintf(stderr, "jit_debug_descriptor 0x%016" PRIx64 "\n",
          (uint64_t)(uintptr_t)__jit_debug_descriptor.first_entry);
  pthread_mutex_unlock(&Lock);
}

static struct jit_code_entry *nextEntry(void) {
  return Latest ? Latest->next_entry : __jit_debug_descriptor.first_entry;
}

void orc_rt_jit_DebugDescriptor_dumpNew(orc_rt_jit_DumpKind Kind) {
  if (!orc_rt_jit_isDescriptorDump(Kind))
    return;
  pthread_mutex_lock(&Lock);
  for (struct jit_code_entry *E; (E = nextEntry()); Latest = E) {
    if (Kind == orc_rt_jit_Dump_DebugDescriptor)
      fprintf(stderr, "jit_debug_descriptor 0x%016" PRIx64 "\n",
              (uint64_t)(uintptr_t)E);
    else
      fwrite(E->symfile_addr, 1, E->symfile_size, stdout);
  }
  fflush(stdout);
  pthread_mutex_unlock(&Lock);
}
