/*===- orc-rt-c/WrapperFunction.h - Wrapper-function buffers ----*- C -*-===*\
|* Part of orc-rt-c. The C ABI every ORC wrapper function uses: a 16-byte     *|
|* result buffer holding small values inline, big ones on the heap, and       *|
|* out-of-band (OOB) error messages.                                          *|
\*===----------------------------------------------------------------------===*/
/*
 * orc_rt_CWrapperFunctionBuffer is layout- and ABI-identical to LLVM's
 * CWrapperFunctionBuffer (returned in RAX:RDX on x86-64 SysV):
 *   Size > 8                the bytes are at Data.ValuePtr, a malloc block
 *                           the receiver frees
 *                           (orc_rt_CWrapperFunctionBuffer_dispose);
 *   1 <= Size <= 8          the bytes are inline in Data.Value;
 *   Size == 0, Ptr NULL     empty (a void result);
 *   Size == 0, Ptr != NULL  an out-of-band error: Ptr is a malloc'd
 *                           NUL-terminated message.
 * A buffer is owned by exactly one holder and disposed exactly once. No
 * function here blocks; all are thread-safe on distinct buffers.
 */

#ifndef ORC_RT_C_WRAPPERFUNCTION_H
#define ORC_RT_C_WRAPPERFUNCTION_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Error.h"

#include <stdbool.h>
#include <stddef.h>

ORC_RT_C_EXTERN_C_BEGIN

typedef struct {
  union {
    char *ValuePtr;
    char Value[8];
  } Data;
  size_t Size;
} orc_rt_CWrapperFunctionBuffer;

/** A wrapper function: decodes ArgData, does the work, returns
 * an encoded result. */
typedef orc_rt_CWrapperFunctionBuffer (*orc_rt_WrapperFunctionFn)(
    const char *ArgData, size_t ArgSize);

/** An empty buffer (Size 0, no error). */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_CWrapperFunctionBuffer_empty(void);

/**
 * Makes *B a buffer of Size bytes and returns where to write them. If memory is
 * exhausted, *B becomes an OOB "out of memory" error and NULL is returned.
 */
ORC_RT_C_API char *
orc_rt_CWrapperFunctionBuffer_allocate(orc_rt_CWrapperFunctionBuffer *B,
                                       size_t Size);

/** A buffer holding a copy of Size bytes at Data (an OOB error if
 * out of memory). */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_CWrapperFunctionBuffer_copy(const char *Data, size_t Size);

/** An OOB error buffer carrying a copy of Msg. */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_CWrapperFunctionBuffer_fromErrorMessage(const char *Msg);

/** An OOB error buffer carrying Err's message (consumes Err, which must
 * not be NULL). */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_CWrapperFunctionBuffer_fromError(orc_rt_ErrorRef Err);

/** The bytes of B (NULL when Size is 0). B stays the owner. */
ORC_RT_C_API const char *
orc_rt_CWrapperFunctionBuffer_data(const orc_rt_CWrapperFunctionBuffer *B);

/** The OOB error message of B, or NULL if B is not an OOB error. */
ORC_RT_C_API const char *orc_rt_CWrapperFunctionBuffer_getOutOfBandError(
    const orc_rt_CWrapperFunctionBuffer *B);

/** Frees B's storage and leaves it empty. */
ORC_RT_C_API void
orc_rt_CWrapperFunctionBuffer_dispose(orc_rt_CWrapperFunctionBuffer *B);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_WRAPPERFUNCTION_H */
