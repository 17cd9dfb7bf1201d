/*===- unittests/FallbackModeByEnvironment.c - A host test in fallback mode ===*/
/* Linked into the "-fallback" twin of a host Jit test, which links the
 * shared runtime and sees only its public side: before main, sets
 * ORC_RT_C_TOKEN_MODE=fallback, which the runtime reads at its first use
 * (docs/Testing.md, "Token modes"). Every token is then in fallback mode, as
 * in a TSan build, and every call through a module's entry takes the
 * entries' C path. */

#include <stdlib.h>

__attribute__((constructor)) static void useFallbackTokenMode(void) {
  setenv("ORC_RT_C_TOKEN_MODE", "fallback", 1);
}
