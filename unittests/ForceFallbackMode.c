/*===- unittests/ForceFallbackMode.c - Run a test in fallback token mode --===*/
/* Linked into the "-fallback" twin of each token-related test binary (see
 * TokenModeVariants.cmake): forces the fallback token mode before main, so the
 * same test cases run once per mode. The plain binaries run in the default
 * mode (membarrier where the kernel offers it; fallback under TSan). */

#include "core/TokenCounter.h"

__attribute__((constructor)) static void forceFallbackTokenMode(void) {
  orc_rt_internal_setTokenMode(orc_rt_internal_TokenMode_Fallback);
}
