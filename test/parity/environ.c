// The environment reaches JIT'd code through environ and getenv, and setenv
// works. Only PARITY_* variables are printed (sorted), since the rest of the
// environment is the harness's. (main's envp parameter: envp.c.)
// Under -force-interpreter: qsort's comparator is interpreted code, which native qsort
// cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
// RUN: env PARITY_B=two PARITY_A=1 "PARITY_C=with spaces = and equals" %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void) {
  const char *mine[16];
  int n = 0;
  for (char **e = environ; *e; e++)
    if (strncmp(*e, "PARITY_", 7) == 0 && n < 16)
      mine[n++] = *e;
  qsort(mine, (size_t)n, sizeof mine[0], cmp);
  for (int i = 0; i < n; i++)
    printf("%s\n", mine[i]);
  // CHECK:      PARITY_A=1
  // CHECK-NEXT: PARITY_B=two
  // CHECK-NEXT: PARITY_C=with spaces = and equals
  // CHECK-NEXT: getenv PARITY_B=two, missing=(null)
  const char *missing = getenv("PARITY_NOT_SET");
  printf("getenv PARITY_B=%s, missing=%s\n", getenv("PARITY_B"), missing ? missing : "(null)");
  setenv("PARITY_B", "changed", 1);
  unsetenv("PARITY_A");
  // CHECK-NEXT: after setenv/unsetenv: changed (null)
  printf("after setenv/unsetenv: %s %s\n", getenv("PARITY_B"),
         getenv("PARITY_A") ? getenv("PARITY_A") : "(null)");
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
