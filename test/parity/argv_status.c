// argc/argv as passed on the command line (argv[0] differs by design: the binary
// vs the IR file, so it is only checked to be non-empty), argv[argc] == NULL, and
// the return value of main as exit status: zero, positive, negative (wraps to
// 256-n), and values above 255 (truncated to the low 8 bits).
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.0 %s -- 0 | FileCheck %s --check-prefix=ZERO
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.1 %s -- 7 "two words" "" -x --flag=1 | FileCheck %s --check-prefix=SEVEN
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.2 %s -- -3 | FileCheck %s --check-prefix=NEG
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.3 %s -- 513 | FileCheck %s --check-prefix=BIG
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.4 %s | FileCheck %s --check-prefix=NOARGS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  printf("argc=%d argv0-nonempty=%d argv[argc]-null=%d\n", argc,
         argv[0] != NULL && argv[0][0] != '\0', argv[argc] == NULL);
  for (int i = 1; i < argc; i++)
    printf("argv[%d]=[%s] len %zu\n", i, argv[i], strlen(argv[i]));
  if (argc < 2)
    return 99;
  return atoi(argv[1]);
}
// ZERO:        argc=2 argv0-nonempty=1 argv[argc]-null=1
// ZERO-NEXT:   argv[1]=[0] len 1
// ZERO-NEXT:   parity: exit status 0
// SEVEN:       argc=6 argv0-nonempty=1 argv[argc]-null=1
// SEVEN-NEXT:  argv[1]=[7] len 1
// SEVEN-NEXT:  argv[2]=[two words] len 9
// SEVEN-NEXT:  argv[3]=[] len 0
// SEVEN-NEXT:  argv[4]=[-x] len 2
// SEVEN-NEXT:  argv[5]=[--flag=1] len 8
// SEVEN-NEXT:  parity: exit status 7
// NEG:         argv[1]=[-3] len 2
// NEG-NEXT:    parity: exit status 253
// BIG:         argv[1]=[513] len 3
// BIG-NEXT:    parity: exit status 1
// NOARGS:      argc=1 argv0-nonempty=1 argv[argc]-null=1
// NOARGS-NEXT: parity: exit status 99
