// A filter reading stdin in JIT'd code (here: this very file), with getline,
// fgetc/ungetc and scanf-style parsing from a string, writing a summary.
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --stdin %s %s | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.empty %s | FileCheck %s --check-prefix=EMPTY
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Marker line parsed below: NUMBERS 17 -4 2.5 word
int main(void) {
  int c = fgetc(stdin);
  if (c == EOF) {
    printf("empty input\n");
    return 4;
  }
  ungetc(c, stdin);
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  long lines = 0, bytes = 0, words = 0, longest = 0;
  int a = 0, b = 0;
  double d = 0;
  char word[32] = "";
  while ((len = getline(&line, &cap, stdin)) != -1) {
    lines++;
    bytes += len;
    if (len > longest)
      longest = len;
    int in_word = 0;
    for (ssize_t i = 0; i < len; i++) {
      if (isspace((unsigned char)line[i]))
        in_word = 0;
      else if (!in_word) {
        in_word = 1;
        words++;
      }
    }
    const char *m = strstr(line, "NUMBERS ");
    if (m && m[8] != '%')
      sscanf(m, "NUMBERS %d %d %lf %31s", &a, &b, &d, word);
  }
  free(line);
  printf("first char '%c' lines>40 %d words>200 %d longest<=200 %d\n", c, lines > 40,
         words > 200, longest <= 200);
  printf("parsed %d %d %.2f %s\n", a, b, d, word);
  return lines > 0 ? 0 : 1;
}
// CHECK:      first char '/' lines>40 1 words>200 1 longest<=200 1
// CHECK-NEXT: parsed 17 -4 2.50 word
// CHECK-NEXT: parity: exit status 0
// EMPTY:      empty input
// EMPTY-NEXT: parity: exit status 4
