// Question: under -force-interpreter, does interpreted code see what libc
// returns and what the static linker would give it, where LLVM's interpreter
// alone gets it wrong (lli-22 -force-interpreter: the getopt loop never ends,
// sscanf and llvm.smax abort, the undefined weak function is not null)?
// - a negative int from an external function (getopt's -1, fgetc's EOF,
//   strcmp < 0) compares equal to the same constant;
// - sscanf (glibc's __isoc99_sscanf) is the interpreter's own sscanf;
// - llvm.smax / umin / abs, which clang -O1 emits, are computed;
// - an undefined extern_weak function or variable is null.
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: grep -q 'llvm.smax' %t.ll
// RUN: grep -q 'llvm.abs' %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 0 mini-lli -force-interpreter %t.ll -v -n 5 -q file < %s | FileCheck %s
//
// CHECK:      option v
// CHECK-NEXT: option n 5
// CHECK-NEXT: option ?
// CHECK-NEXT: getopt done, operand file
// CHECK-NEXT: first line // Question: under -force-interpreter, doe{{$}}
// CHECK-NEXT: EOF seen 1, strcmp < 0 1
// CHECK-NEXT: sscanf 3: 17 -4 word
// CHECK-NEXT: smax 9 umin 3 abs 14
// CHECK-NEXT: weak function null 1, weak variable null 1
// CHECK-NOT:  {{.}}
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void no_such_function(void) __attribute__((weak));
extern int no_such_variable __attribute__((weak));

static long smax(long A, long B) { return A > B ? A : B; }
static unsigned umin(unsigned A, unsigned B) { return A < B ? A : B; }

int main(int argc, char **argv) {
  int C;
  opterr = 0;
  while ((C = getopt(argc, argv, "vn:")) != -1) {
    if (C == 'n')
      printf("option n %d\n", atoi(optarg));
    else
      printf("option %c\n", C);
  }
  printf("getopt done, operand %s\n", optind < argc ? argv[optind] : "-");

  char Line[128];
  int N = 0, Ch;
  while ((Ch = fgetc(stdin)) != EOF && Ch != '\n' && N < 42)
    Line[N++] = (char)Ch;
  Line[N] = 0;
  printf("first line %s\n", Line);
  while ((Ch = fgetc(stdin)) != EOF)
    ;
  printf("EOF seen %d, strcmp < 0 %d\n", Ch == EOF, strcmp(argv[0], "~") < 0);

  int X, Y;
  char Word[16];
  int Got = sscanf("17 -4 word", "%d %d %15s", &X, &Y, Word);
  printf("sscanf %d: %d %d %s\n", Got, X, Y, Word);

  long Big = smax(argc, 9);
  printf("smax %ld umin %u abs %d\n", Big, umin((unsigned)argc, 3u),
         abs(argc - 20));
  printf("weak function null %d, weak variable null %d\n",
         no_such_function == 0, &no_such_variable == 0);
  return 0;
}
