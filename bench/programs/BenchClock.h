/*===- bench/programs/BenchClock.h - Timing for the bench programs --------===*/
/* What every bench program times with: a monotonic clock in seconds, and the
 * median of a set of timings. Header-only, so that a program the sections
 * compile on their own (dlopen-cycle.c, with clang and no build system)
 * includes it as the others do. */

#ifndef ORC_RT_C_BENCH_PROGRAMS_BENCHCLOCK_H
#define ORC_RT_C_BENCH_PROGRAMS_BENCHCLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double benchNow(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

static inline int benchCompare(const void *A, const void *B) {
  double X = *(const double *)A, Y = *(const double *)B;
  return X < Y ? -1 : X > Y;
}

/* The median of N timings; sorts T, so T[0] is then the best. */
static inline double benchMedian(double *T, int N) {
  qsort(T, (size_t)N, sizeof(double), benchCompare);
  return N % 2 ? T[N / 2] : (T[N / 2 - 1] + T[N / 2]) / 2;
}

#endif
