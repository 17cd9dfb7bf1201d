/*===- lib/services/SafeCopy.h - Copies that survive bad addresses --------===*/
/* Memory access at controller-given addresses without crashing on unmapped or
 * protected memory: the kernel does the access (process_vm_readv/writev on our
 * own pid) and reports EFAULT instead of a SIGSEGV. Where those calls are
 * unavailable (ENOSYS, EPERM under a sandbox) the copy falls back to a plain
 * memcpy, as the reference executors always do. The probes below answer
 * whether an address is readable or executable, also without a fault. */

#ifndef ORC_RT_C_LIB_SERVICES_SAFECOPY_H
#define ORC_RT_C_LIB_SERVICES_SAFECOPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copies N bytes from the untrusted address Src into Dst; false if Src
 * is not readable. */
bool orc_rt_internal_safeRead(void *Dst, const void *Src, size_t N);

/* Copies N bytes from Src to the untrusted address Dst; false if Dst
 * is not writable. */
bool orc_rt_internal_safeWrite(void *Dst, const void *Src, size_t N);

/* The length of the NUL-terminated string at the untrusted address S (at most
 * Max); false if it runs into unreadable memory first. */
bool orc_rt_internal_safeStrlen(const char *S, size_t Max, size_t *Len);

/* True if every page of [P, P+N) is readable (probed one byte per page). */
bool orc_rt_internal_isReadable(const void *P, size_t N);

/* Whether Addr lies in an executable mapping, from /proc/self/maps. Returns
 * false and sets *Known = false if the map cannot be read. */
bool orc_rt_internal_isExecutable(uint64_t Addr, bool *Known);

#endif
