// stdout buffering as the program sees it. stdout is a pipe here, so by default
// it is fully buffered and raw write(1) output overtakes earlier printf output
// until a fflush; setvbuf (before any output, as C requires) to line-buffered
// or unbuffered changes that. The driver must not flush, reopen or re-buffer the
// program's stdout, nor print to it. Also a FILE round trip through tmpfile()
// and output to stderr (not compared).
// Under -force-interpreter: LLVM's interpreter cannot call a variadic external other
// than the printf/scanf family (fscanf) (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.full %s -- full | FileCheck %s --check-prefix=FULL
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.line %s -- line | FileCheck %s --check-prefix=LINE
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.none %s -- none | FileCheck %s --check-prefix=NONE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void raw(const char *s) {
  if (write(1, s, strlen(s)) < 0)
    _exit(3);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "full";
  if (strcmp(mode, "line") == 0)
    setvbuf(stdout, NULL, _IOLBF, 0);
  else if (strcmp(mode, "none") == 0)
    setvbuf(stdout, NULL, _IONBF, 0);

  printf("A printf line\n");
  printf("B partial ");
  raw("C write\n");
  printf("D end\n");
  fflush(stdout);
  raw("E write after fflush\n");

  fprintf(stderr, "stderr is not compared\n");
  FILE *f = tmpfile();
  fprintf(f, "%d %s %.2f\n", 42, "forty-two", 4.2);
  rewind(f);
  int n;
  char word[32];
  double d;
  int got = fscanf(f, "%d %31s %lf", &n, word, &d);
  fclose(f);
  printf("tmpfile round trip: %d fields: %d %s %.2f\n", got, n, word, d);
  printf("last, no newline");
  return 0;
}
// FULL:      C write
// FULL-NEXT: A printf line
// FULL-NEXT: B partial D end
// FULL-NEXT: E write after fflush
// FULL-NEXT: tmpfile round trip: 3 fields: 42 forty-two 4.20
// FULL-NEXT: last, no newline
// FULL-NEXT: parity: exit status 0
// LINE:      A printf line
// LINE-NEXT: C write
// LINE-NEXT: B partial D end
// LINE-NEXT: E write after fflush
// LINE-NEXT: tmpfile round trip: 3 fields: 42 forty-two 4.20
// LINE-NEXT: last, no newline
// LINE-NEXT: parity: exit status 0
// NONE:      A printf line
// NONE-NEXT: B partial C write
// NONE-NEXT: D end
// NONE-NEXT: E write after fflush
// NONE-NEXT: tmpfile round trip: 3 fields: 42 forty-two 4.20
// NONE-NEXT: last, no newline
// NONE-NEXT: parity: exit status 0
