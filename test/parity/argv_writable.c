// argv as a C program may use it: the strings are writable (strtok and
// in-place edits), the argv array itself is writable, and getopt-style
// permutation of it is allowed.
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- red,green,blue shout -z | FileCheck %s
#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  printf("tokens:");
  for (char *t = strtok(argv[1], ","); t; t = strtok(NULL, ","))
    printf(" %s", t);
  printf("\n");
  // CHECK: tokens: red green blue
  for (char *p = argv[2]; *p; p++)
    *p = (char)toupper((unsigned char)*p);
  // CHECK-NEXT: edited in place: SHOUT
  printf("edited in place: %s\n", argv[2]);
  char *tmp = argv[1];
  argv[1] = argv[argc - 1];
  argv[argc - 1] = tmp;
  argv[0] = "renamed";
  // CHECK-NEXT: swapped: -z SHOUT red, argv[0] renamed
  printf("swapped: %s %s %s, argv[0] %s\n", argv[1], argv[2], argv[3], argv[0]);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
