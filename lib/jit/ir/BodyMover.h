/*===- lib/jit/ir/BodyMover.h - Moving function bodies between modules ----===*/
/* Moves function bodies from one module (the source) into another of the same
 * LLVMContext (the part) without copying them: the basic blocks change parent
 * with their instructions, and only the arguments and the operands that name
 * a global value are rewritten, to the part's counterpart of that global (a
 * body moved there before, or a declaration of the same name). Dirty
 * constants (see ConstantRebuild.h) are rebuilt on the way. The cost is
 * linear in the size of the bodies moved. */

#ifndef ORC_RT_C_LIB_JIT_IR_BODYMOVER_H
#define ORC_RT_C_LIB_JIT_IR_BODYMOVER_H

#include "jit/support/PtrSet.h"

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>

/* Zero-initialise, then set Dirty and Part (and Record if wanted). */
typedef struct {
  /* The source's dirty constants (orc_rt_jit_findDirtyConstants). */
  const orc_rt_jit_PtrSet *Dirty;
  /* If set, gets the rebuilt constants that name a global of the part: its
   * dirty set, for moving bodies out of the part again later. */
  orc_rt_jit_PtrSet *Record;
  LLVMModuleRef Part; /* where the bodies go */
  char *Buf;          /* a NUL-terminated copy of a name */
  size_t BufCap;
  /* Set if an allocation failed: the part is then incomplete and must
   * be thrown away. */
  bool OutOfMemory;
} orc_rt_jit_BodyMover;

/* Name (Len bytes, not NUL-terminated), plus Suffix, NUL-terminated, in S's
 * buffer (valid until the next call); NULL if out of memory. */
const char *orc_rt_jit_BodyMover_name(orc_rt_jit_BodyMover *S, const char *Name,
                                      size_t Len, const char *Suffix);

/* Moves the body of F into S->Part as a function named NewName, and leaves F
 * a declaration. The blocks move with their instructions; only the arguments
 * and the operands that name a global value change. */
void orc_rt_jit_BodyMover_move(orc_rt_jit_BodyMover *S, LLVMValueRef F,
                               const char *NewName, LLVMLinkage Linkage,
                               LLVMVisibility Visibility);

/* Frees S's buffer (not the part). */
void orc_rt_jit_BodyMover_dispose(orc_rt_jit_BodyMover *S);

#endif
