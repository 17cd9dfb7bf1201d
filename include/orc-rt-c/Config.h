/*===- orc-rt-c/Config.h - Export and linkage macros ------------*- C -*-===*\
|* Part of orc-rt-c. Macros every public header uses: default visibility for  *|
|* exported functions (JIT'd code resolves them by name) and C++ linkage.     *|
\*===----------------------------------------------------------------------===*/

#ifndef ORC_RT_C_CONFIG_H
#define ORC_RT_C_CONFIG_H

/* A build may predefine ORC_RT_C_API: lib/platform compiles lib/support into the
 * JIT-linked platform archive with hidden visibility. */
#ifndef ORC_RT_C_API
#if defined(__GNUC__) || defined(__clang__)
#define ORC_RT_C_API __attribute__((visibility("default")))
#else
#define ORC_RT_C_API
#endif
#endif

#ifdef __cplusplus
#define ORC_RT_C_EXTERN_C_BEGIN extern "C" {
#define ORC_RT_C_EXTERN_C_END }
#else
#define ORC_RT_C_EXTERN_C_BEGIN
#define ORC_RT_C_EXTERN_C_END
#endif

#endif /* ORC_RT_C_CONFIG_H */
