/* A compute workload that LLVM's interpreter can run (bench/driverbench.py: the
 * -force-interpreter and -jit-kind=mcjit rows): no callbacks from native code, no
 * variadic external other than printf, no threads. A sieve, a Collatz search and an
 * integer matrix product, sized by argv[1] so nothing is folded at compile time;
 * prints one checksum line each. */
#include <stdio.h>
#include <stdlib.h>

static unsigned sieve(unsigned char *Composite, unsigned N) {
  unsigned Count = 0;
  for (unsigned I = 2; I < N; ++I) {
    if (Composite[I])
      continue;
    ++Count;
    for (unsigned long J = (unsigned long)I * I; J < N; J += I)
      Composite[J] = 1;
  }
  return Count;
}

static unsigned longestCollatz(unsigned N, unsigned *Start) {
  unsigned Best = 0;
  for (unsigned I = 1; I < N; ++I) {
    unsigned long X = I;
    unsigned Steps = 0;
    while (X != 1) {
      X = (X & 1) ? 3 * X + 1 : X / 2;
      ++Steps;
    }
    if (Steps > Best) {
      Best = Steps;
      *Start = I;
    }
  }
  return Best;
}

static unsigned long matrixChecksum(unsigned N) {
  unsigned *A = malloc(sizeof(unsigned) * N * N);
  unsigned *B = malloc(sizeof(unsigned) * N * N);
  if (!A || !B)
    return 0;
  unsigned Seed = 12345;
  for (unsigned I = 0; I < N * N; ++I) {
    Seed = Seed * 1103515245u + 12345u;
    A[I] = Seed >> 16 & 255;
    Seed = Seed * 1103515245u + 12345u;
    B[I] = Seed >> 16 & 255;
  }
  unsigned long Sum = 0;
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = 0; J < N; ++J) {
      unsigned long Dot = 0;
      for (unsigned K = 0; K < N; ++K)
        Dot += (unsigned long)A[I * N + K] * B[K * N + J];
      Sum = Sum * 31 + Dot;
    }
  free(A);
  free(B);
  return Sum;
}

int main(int argc, char **argv) {
  unsigned Scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  unsigned N = 20000 * Scale;
  unsigned char *Composite = calloc(N, 1);
  if (!Composite)
    return 1;
  printf("primes below %u: %u\n", N, sieve(Composite, N));
  free(Composite);
  unsigned Start = 0;
  unsigned Steps = longestCollatz(2000 * Scale, &Start);
  printf("longest Collatz below %u: %u steps from %u\n", 2000 * Scale, Steps,
         Start);
  printf("matrix %u checksum: %lu\n", 12 * Scale, matrixChecksum(12 * Scale));
  return 0;
}
