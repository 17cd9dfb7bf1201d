/*===- orc-rt-c/Error.h - Error values --------------------------*- C -*-===*\
|* Part of orc-rt-c. The error type every fallible runtime call returns.      *|
\*===----------------------------------------------------------------------===*/
/*
 * An orc_rt_ErrorRef is either NULL (success) or an owned error carrying a
 * message. Every non-NULL error must be consumed exactly once: by
 * orc_rt_Error_consume, orc_rt_Error_toString, or by handing it to a function
 * documented to take ownership (for example orc_rt_Session_reportError). Errors
 * may be created, inspected and consumed on any thread. None of these functions
 * block.
 *
 * Creating an error never fails: if memory for the message cannot be allocated,
 * a shared static "out of memory" error is returned instead (consuming it is a
 * no-op).
 */

#ifndef ORC_RT_C_ERROR_H
#define ORC_RT_C_ERROR_H

#include "orc-rt-c/Config.h"

ORC_RT_C_EXTERN_C_BEGIN

/** An owned error, or NULL for success. */
typedef struct orc_rt_OpaqueError *orc_rt_ErrorRef;

/** Creates an error whose message is a copy of Msg. */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Error_create(const char *Msg);

/** Creates an error whose message is formatted as by printf. */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Error_createf(const char *Fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/** Returns the message of E (not NULL). The string is owned by E. */
ORC_RT_C_API const char *orc_rt_Error_getMessage(orc_rt_ErrorRef E);

/** Consumes E and frees it. E may be NULL. */
ORC_RT_C_API void orc_rt_Error_consume(orc_rt_ErrorRef E);

/**
 * Consumes E and returns its message as a string the caller frees with
 * orc_rt_String_dispose. Returns NULL if E is NULL or memory is exhausted.
 */
ORC_RT_C_API char *orc_rt_Error_toString(orc_rt_ErrorRef E);

/** Frees a string returned by the runtime. S may be NULL. */
ORC_RT_C_API void orc_rt_String_dispose(char *S);

/**
 * Joins two errors into one whose message is A's, a newline, then B's (the way
 * LLVM joins errors). Either may be NULL; consumes both.
 */
ORC_RT_C_API orc_rt_ErrorRef orc_rt_Error_join(orc_rt_ErrorRef A,
                                               orc_rt_ErrorRef B);

ORC_RT_C_EXTERN_C_END

#endif /* ORC_RT_C_ERROR_H */
