/* A compute-bound program for the tiered-compilation rows (bench/sections/
 * 35-tiered.sh): integer kernels (no floating point, so the JIT's code for the
 * host CPU and clang's native code print the same), each called once per
 * round, so a tiering JIT sees them hot from the second round on. argv[1] is
 * the number of rounds (about 5 s natively at the bench's setting). */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 96

static uint32_t A[N][N], B[N][N], C[N][N];

__attribute__((noinline)) static uint32_t matmul(void) {
  uint32_t Sum = 0;
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J) {
      uint32_t S = 0;
      for (int K = 0; K < N; ++K)
        S += A[I][K] * B[K][J];
      C[I][J] = S;
      Sum ^= S + (uint32_t)J;
    }
  return Sum;
}

__attribute__((noinline)) static uint32_t sieve(uint32_t Limit) {
  static uint8_t Composite[200001];
  memset(Composite, 0, sizeof(Composite));
  uint32_t Count = 0;
  for (uint32_t I = 2; I <= Limit; ++I) {
    if (Composite[I])
      continue;
    ++Count;
    for (uint64_t K = (uint64_t)I * I; K <= Limit; K += I)
      Composite[K] = 1;
  }
  return Count;
}

__attribute__((noinline)) static uint64_t xorshift(uint64_t X, int Steps) {
  for (int I = 0; I < Steps; ++I) {
    X ^= X << 13;
    X ^= X >> 7;
    X ^= X << 17;
  }
  return X;
}

static int compare(const void *L, const void *R) {
  uint32_t A = *(const uint32_t *)L, B = *(const uint32_t *)R;
  return (A > B) - (A < B);
}

__attribute__((noinline)) static uint32_t sortRound(uint64_t Seed) {
  static uint32_t V[4096];
  for (int I = 0; I < 4096; ++I)
    V[I] = (uint32_t)(Seed = xorshift(Seed, 1));
  qsort(V, 4096, sizeof(V[0]), compare);
  return V[0] ^ V[2048] ^ V[4095];
}

int main(int Argc, char **Argv) {
  int Rounds = Argc > 1 ? atoi(Argv[1]) : 10;
  for (int I = 0; I < N; ++I)
    for (int J = 0; J < N; ++J)
      A[I][J] = (uint32_t)(I * 31 + J), B[I][J] = (uint32_t)(I ^ (J * 7));
  uint64_t Check = 0;
  for (int R = 0; R < Rounds; ++R) {
    A[R % N][R % N] += (uint32_t)R;
    Check = Check * 31 + matmul();
    Check = Check * 31 + sieve(200000);
    Check = Check * 31 + xorshift(Check | 1, 100000);
    Check = Check * 31 + sortRound(Check | 1);
  }
  printf("compute-kernel: %d rounds, checksum %016llx\n", Rounds,
         (unsigned long long)Check);
  return 0;
}
