/*===- lib/jit/lli/DebugDescriptor.h - lli's GDB JIT interface dumps ------===*/
/* -orc-lazy-debug=jit-debug-descriptor and jit-debug-objects, as lli prints
 * them. The LLJIT registers each JIT'd object with the GDB JIT interface
 * (__jit_debug_descriptor, defined by liborc-rt-c); these read the descriptor
 * and report the entries that appeared since the last call:
 *   jit-debug-descriptor  "jit_debug_descriptor 0x%016llx" on stderr, once for
 *                         the (empty) descriptor at start-up, then once for
 *                         each new entry;
 *   jit-debug-objects     each new entry's in-memory debug object, raw, on
 *                         stdout (tool output for llvm-dwarfdump and
 *                         llvm-objdump). */

#ifndef ORC_RT_C_LIB_JIT_LLI_DEBUGDESCRIPTOR_H
#define ORC_RT_C_LIB_JIT_LLI_DEBUGDESCRIPTOR_H

#include "jit/lli/Options.h"

/* Whether Kind is one of the two dumps above. */
bool orc_rt_jit_isDescriptorDump(orc_rt_jit_DumpKind Kind);

/* At start-up: jit-debug-descriptor prints the descriptor's first entry. */
void orc_rt_jit_DebugDescriptor_start(orc_rt_jit_DumpKind Kind);

/* Reports the entries registered since the last call. */
void orc_rt_jit_DebugDescriptor_dumpNew(orc_rt_jit_DumpKind Kind);

#endif
