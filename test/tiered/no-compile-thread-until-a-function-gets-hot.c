// Question: is the compile thread started only when the first function gets
// hot, so that a program in which nothing does sees no thread it did not
// start? With a threshold no call reaches, main (compiled at tier 1 on
// mini-lli's own thread before it runs) counts the threads of the process
// in /proc/self/task and finds only itself. With a threshold of 1, the
// function it calls gets hot, main waits until the call ran at a second
// address (tier 1), and then finds two.
//
// Under a TSan build of mini-lli, TSan's own background thread is in the
// process too:
// UNSUPPORTED: thread-sanitizer
//
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=2000000000 %t.ll cold | FileCheck %s --check-prefix=COLD
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.ll hot | FileCheck %s --check-prefix=HOT
//
// COLD: threads: 1
// HOT: threads: 2

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#define HERE(P) __asm__ volatile("leaq 0(%%rip), %0" : "=r"(P))

__attribute__((noinline)) long step(long I, void **Where) {
  HERE(*Where);
  return I + 1;
}

static int threads(void) {
  DIR *D = opendir("/proc/self/task");
  int N = 0;
  for (struct dirent *E; D && (E = readdir(D));)
    N += E->d_name[0] != '.';
  if (D)
    closedir(D);
  return N;
}

int main(int Argc, char **Argv) {
  int Hot = Argc > 1 && !strcmp(Argv[1], "hot");
  void *First = 0, *Where = 0;
  long Sum = 0;
  for (long I = 0; Hot ? !First || Where == First : I < 1000; ++I) {
    Sum += step(I, &Where);
    if (!First)
      First = Where;
  }
  printf("threads: %d\n", threads());
  return Sum == 0;
}
