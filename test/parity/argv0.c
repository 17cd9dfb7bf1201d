// argv[0] under -fake-argv0: the runner passes the native binary's path as
// -fake-argv0, so a program that prints its own name (usage messages, basename
// dispatch like busybox) prints the same thing in both runs.
//
// Stock lli-22's ORC modes ignore -fake-argv0 (argv[0] stays the .ll path):
// XFAIL: parity-lli
//
// Under -force-interpreter: LLVM's interpreter cannot call a variadic external other
// than the printf/scanf family (snprintf) (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --same-argv0 %s -- --help | FileCheck %s
#include <libgen.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", argv[0]);
  const char *name = basename(copy);
  if (argc > 1 && strcmp(argv[1], "--help") == 0) {
    printf("usage: %s [--help]\n", name);
    return 2;
  }
  return 0;
}
// CHECK:      usage: native [--help]
// CHECK-NEXT: parity: exit status 2
