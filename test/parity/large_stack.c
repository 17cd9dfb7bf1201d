// Large stack frames in JIT'd code: a 1 MiB local array in one frame, recursion
// with 64 KiB frames to 2 MiB total, 80000-deep recursion with 64-byte frames
// (5 MiB of the main thread's 8 MiB), a variable-length array and alloca,
// and a thread with a 32 MiB stack using an 8 MiB frame. Every byte is written and
// read back so the frames really are touched.
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 7 | FileCheck %s
#include <alloca.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t checksum(const unsigned char *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

__attribute__((noinline)) static uint64_t one_mib(int seed) {
  volatile unsigned char big[1 << 20];
  for (size_t i = 0; i < sizeof big; i++)
    big[i] = (unsigned char)(i * seed);
  return checksum((const unsigned char *)big, sizeof big);
}

__attribute__((noinline)) static uint64_t deep(int depth, int seed) {
  volatile unsigned char frame[64 * 1024];
  for (size_t i = 0; i < sizeof frame; i += 512)
    frame[i] = (unsigned char)(depth + seed + i);
  uint64_t below = depth > 0 ? deep(depth - 1, seed) : 0;
  uint64_t sum = 0;
  for (size_t i = 0; i < sizeof frame; i += 512)
    sum += frame[i];
  return below + sum;
}

// Not a tail call: each level keeps its own frame until the bottom is reached.
__attribute__((noinline)) static long count_down(long n, volatile long *sink) {
  volatile long pad[4] = {n, n + 1, n + 2, n + 3};
  if (n == 0)
    return 0;
  long r = count_down(n - 1, sink) + pad[n & 3] % 7;
  *sink += 1;
  return r;
}

__attribute__((noinline)) static long vla(int n) {
  long a[n];
  for (int i = 0; i < n; i++)
    a[i] = i;
  long *b = alloca(sizeof(long) * (size_t)n);
  memcpy(b, a, sizeof(long) * (size_t)n);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += b[i];
  return s;
}

static void *huge_frame_thread(void *arg) {
  int seed = *(int *)arg;
  volatile unsigned char frame[8 << 20];
  for (size_t i = 0; i < sizeof frame; i += 4096)
    frame[i] = (unsigned char)(seed + (i >> 12));
  uint64_t s = 0;
  for (size_t i = 0; i < sizeof frame; i += 4096)
    s += frame[i];
  return (void *)(uintptr_t)s;
}

int main(int argc, char **argv) {
  int seed = argc > 1 ? atoi(argv[1]) : 1;
  // CHECK: one_mib checksum 9504be2b0f1d0383
  printf("one_mib checksum %016llx\n", (unsigned long long)one_mib(seed));
  // CHECK-NEXT: deep 32 frames: 92160
  printf("deep 32 frames: %llu\n", (unsigned long long)deep(31, seed));
  volatile long sink = 0;
  long cd = count_down(80000, &sink);
  // CHECK-NEXT: count_down 80000: 240004 (returned through 80000 frames)
  printf("count_down 80000: %ld (returned through %ld frames)\n", cd, sink);
  // CHECK-NEXT: vla 100000: 4999950000
  printf("vla 100000: %ld\n", vla(100000));

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 32u << 20);
  pthread_t t;
  void *ret;
  if (pthread_create(&t, &attr, huge_frame_thread, &seed) != 0)
    return 3;
  pthread_join(t, &ret);
  // CHECK-NEXT: thread 8 MiB frame: 261120
  printf("thread 8 MiB frame: %llu\n", (unsigned long long)(uintptr_t)ret);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
