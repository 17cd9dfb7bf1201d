/*===- orc-rt-c/SPS.h - Simple Packed Serialization -------------*- C -*-===*\
|* Part of orc-rt-c. Bounds-checked readers and growable writers for the SPS  *|
|* encoding ORC wrapper functions use on the wire.                            *|
\*===----------------------------------------------------------------------===*/
/*
 * SPS in brief: integers are little-endian, bool is one byte (any non-zero is
 * true), a sequence or string is a u64 count then the elements, a tuple is its
 * elements back to back, an optional is a bool then the value. There is no
 * padding and no tag. Error and Expected use OPPOSITE bool polarity:
 *   SPSError      00 = success,  01 + string = failure
 *   SPSExpected   01 + value     00 + string = failure
 *
 * Reader: every read checks the bytes that remain; the first failing read marks
 * the reader Failed and every later read fails too, so a decoder can read a
 * whole structure and check once. No read allocates; strings and byte sequences
 * are returned as views into the input. orc_rt_SPSReader_readCount rejects
 * element counts that could not fit in the remaining bytes, so callers may size
 * arrays from a count safely.
 *
 * Writer: appends grow a heap buffer; an allocation failure marks the writer
 * Failed (later appends are ignored) and finish then yields an OOB "out of
 * memory" buffer. Nothing here blocks; readers and writers are not shared
 * between threads.
 */

#ifndef ORC_RT_C_SPS_H
#define ORC_RT_C_SPS_H

#include "orc-rt-c/Config.h"
#include "orc-rt-c/Error.h"
#include "orc-rt-c/WrapperFunction.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

ORC_RT_C_EXTERN_C_BEGIN

/*---- Reader ----*/

typedef struct {
  const char *Data; /* next unread byte */
  size_t Remaining; /* bytes left */
  bool Failed;      /* a read ran past the end or found a malformed value */
} orc_rt_SPSReader;

ORC_RT_C_API void orc_rt_SPSReader_init(orc_rt_SPSReader *R, const char *Data,
                                        size_t Size);
ORC_RT_C_API bool orc_rt_SPSReader_readU8(orc_rt_SPSReader *R, uint8_t *V);
ORC_RT_C_API bool orc_rt_SPSReader_readU16(orc_rt_SPSReader *R, uint16_t *V);
ORC_RT_C_API bool orc_rt_SPSReader_readU32(orc_rt_SPSReader *R, uint32_t *V);
ORC_RT_C_API bool orc_rt_SPSReader_readU64(orc_rt_SPSReader *R, uint64_t *V);
ORC_RT_C_API bool orc_rt_SPSReader_readI32(orc_rt_SPSReader *R, int32_t *V);
ORC_RT_C_API bool orc_rt_SPSReader_readI64(orc_rt_SPSReader *R, int64_t *V);
ORC_RT_C_API bool orc_rt_SPSReader_readBool(orc_rt_SPSReader *R, bool *V);
/** An SPSExecutorAddr (u64). */
ORC_RT_C_API bool orc_rt_SPSReader_readAddr(orc_rt_SPSReader *R, uint64_t *V);
/** N raw bytes, as a view into the input. */
ORC_RT_C_API bool orc_rt_SPSReader_readRaw(orc_rt_SPSReader *R, size_t N,
                                           const char **Data);
/** An SPSString / SPSSequence<char|uint8_t>, as a view (not NUL-terminated). */
ORC_RT_C_API bool orc_rt_SPSReader_readBytes(orc_rt_SPSReader *R,
                                             const char **Data, size_t *Size);
/**
 * A sequence's element count, rejected (Failed) unless N * MinElemSize bytes
 * can still follow. MinElemSize is the smallest encoding of one element (>= 1).
 */
ORC_RT_C_API bool orc_rt_SPSReader_readCount(orc_rt_SPSReader *R, uint64_t *N,
                                             size_t MinElemSize);
/** True if nothing failed and every byte has been read. */
ORC_RT_C_API bool orc_rt_SPSReader_atEnd(const orc_rt_SPSReader *R);
/** An SPSError: *Err = NULL for success, or a new error
 * carrying the message. */
ORC_RT_C_API bool orc_rt_SPSReader_readError(orc_rt_SPSReader *R,
                                             orc_rt_ErrorRef *Err);
/**
 * The head of an SPSExpected: on a value returns true with *Err = NULL (the
 * value follows); on an error returns true with *Err set (nothing follows).
 */
ORC_RT_C_API bool orc_rt_SPSReader_readExpectedHead(orc_rt_SPSReader *R,
                                                    orc_rt_ErrorRef *Err);

/*---- Writer ----*/

typedef struct {
  char *Data;
  size_t Size, Capacity;
  bool Failed; /* an allocation failed; the content is incomplete */
} orc_rt_SPSWriter;

ORC_RT_C_API void orc_rt_SPSWriter_init(orc_rt_SPSWriter *W);
ORC_RT_C_API void orc_rt_SPSWriter_appendRaw(orc_rt_SPSWriter *W,
                                             const void *Data, size_t Size);
ORC_RT_C_API void orc_rt_SPSWriter_appendU8(orc_rt_SPSWriter *W, uint8_t V);
ORC_RT_C_API void orc_rt_SPSWriter_appendU16(orc_rt_SPSWriter *W, uint16_t V);
ORC_RT_C_API void orc_rt_SPSWriter_appendU32(orc_rt_SPSWriter *W, uint32_t V);
ORC_RT_C_API void orc_rt_SPSWriter_appendU64(orc_rt_SPSWriter *W, uint64_t V);
ORC_RT_C_API void orc_rt_SPSWriter_appendBool(orc_rt_SPSWriter *W, bool V);
ORC_RT_C_API void orc_rt_SPSWriter_appendAddr(orc_rt_SPSWriter *W, uint64_t V);
/** An SPSString / SPSSequence<char>: u64 length then the bytes. */
ORC_RT_C_API void orc_rt_SPSWriter_appendBytes(orc_rt_SPSWriter *W,
                                               const char *Data, size_t Size);
/** appendBytes of a NUL-terminated string (without the NUL). */
ORC_RT_C_API void orc_rt_SPSWriter_appendString(orc_rt_SPSWriter *W,
                                                const char *S);
/** An SPSError: success if Err is NULL, else 01 + message. Consumes Err. */
ORC_RT_C_API void orc_rt_SPSWriter_appendError(orc_rt_SPSWriter *W,
                                               orc_rt_ErrorRef Err);
/** The head of an SPSExpected value (01); the caller appends the value next. */
ORC_RT_C_API void orc_rt_SPSWriter_appendExpectedValueHead(orc_rt_SPSWriter *W);
/** An SPSExpected error: 00 + message. Consumes Err (not NULL). */
ORC_RT_C_API void orc_rt_SPSWriter_appendExpectedError(orc_rt_SPSWriter *W,
                                                       orc_rt_ErrorRef Err);
/** Moves the content into a wrapper-function buffer and resets W. */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_SPSWriter_finish(orc_rt_SPSWriter *W);
/** Frees W's content without producing a buffer. */
ORC_RT_C_API void orc_rt_SPSWriter_dispose(orc_rt_SPSWriter *W);

/*---- Whole results ----*/

/** A result buffer holding one SPSError (consumes Err; NULL = success). */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_SPS_errorResult(orc_rt_ErrorRef Err);
/** A result buffer holding an SPSExpected error (consumes Err, not NULL). */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_SPS_expectedErrorResult(orc_rt_ErrorRef Err);
/** A result buffer holding SPSExpected<SPSExecutorAddr> with value Addr. */
ORC_RT_C_API orc_rt_CWrapperFunctionBuffer
orc_rt_SPS_expectedAddrResult(uint64_t Addr);
/**
 * Decodes a wrapper result as an SPSError: an OOB error becomes its message, an
 * undecodable one "Could not deserialize result from serialized wrapper
 * function call". Consumes B. Returns NULL on success.
 */
ORC_RT_C_API orc_rt_ErrorRef
orc_rt_SPS_takeErrorResult(orc_rt_CWrapperFunctionBuffer *B);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_SPS_H */
