// Large static data in JIT'd code: a 64 MiB zero-initialised array (.bss), a
// 2 MiB initialised table (.data) built by the compiler, a large read-only
// table of pointers into other globals (relocations), and 16-byte and 4096-byte
// aligned globals, with their alignment checked.
// Under -force-interpreter it passes, as under lli-22, but takes about 45 s of CPU
// in LLVM's interpreter (lli-22 too): too slow for the suite.
// UNSUPPORTED: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 3 | FileCheck %s
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BSS_BYTES (64u << 20)
static unsigned char bss[BSS_BYTES];

#define R8(x) x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7
#define R64(x) R8(x), R8(x + 8), R8(x + 16), R8(x + 24), R8(x + 32), R8(x + 40), R8(x + 48), R8(x + 56)
#define R512(x) R64(x), R64(x + 64), R64(x + 128), R64(x + 192), R64(x + 256), R64(x + 320), R64(x + 384), R64(x + 448)
#define R4K(x) R512(x), R512(x + 512), R512(x + 1024), R512(x + 1536), R512(x + 2048), R512(x + 2560), R512(x + 3072), R512(x + 3584)
#define R32K(x) R4K(x), R4K(x + 4096), R4K(x + 8192), R4K(x + 12288), R4K(x + 16384), R4K(x + 20480), R4K(x + 24576), R4K(x + 28672)
// 2 MiB of int64: 262144 entries, each its own index, except where overwritten.
static int64_t data[262144] = {R32K(0), R32K(32768), R32K(65536), R32K(98304),
                               R32K(131072), R32K(163840), R32K(196608), R32K(229376)};

static int a = 1, b = 2, c = 3;
static int *const ptrs[] = {&a, &b, &c, &a, &b, &c, &data[0] == 0 ? &a : &c};

static _Alignas(16) char align16[3] = {1, 2, 3};
static _Alignas(4096) char page_aligned[5000] = {7};

int main(int argc, char **argv) {
  int k = argc > 1 ? atoi(argv[1]) : 1;
  for (size_t i = 0; i < BSS_BYTES; i += 4096)
    bss[i] = (unsigned char)(i >> 12) * (unsigned char)k;
  uint64_t sum = 0;
  int all_zero_elsewhere = 1;
  for (size_t i = 0; i < BSS_BYTES; i++) {
    sum += bss[i];
    if (i % 4096 && bss[i])
      all_zero_elsewhere = 0;
  }
  // CHECK: bss sum 2088960 untouched bytes zero 1
  printf("bss sum %llu untouched bytes zero %d\n", (unsigned long long)sum, all_zero_elsewhere);

  int64_t dsum = 0;
  int ok = 1;
  for (size_t i = 0; i < 262144; i++) {
    dsum += data[i];
    if (data[i] != (int64_t)i)
      ok = 0;
  }
  // CHECK-NEXT: data ok 1 sum 34359607296
  printf("data ok %d sum %lld\n", ok, (long long)dsum);

  int psum = 0;
  for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
    psum += *ptrs[i] * (int)(i + 1);
  // CHECK-NEXT: pointer table sum 67
  printf("pointer table sum %d\n", psum);
  // CHECK-NEXT: aligned 16: 1 4096: 1 contents 6 7
  printf("aligned 16: %d 4096: %d contents %d %d\n", (uintptr_t)align16 % 16 == 0,
         (uintptr_t)page_aligned % 4096 == 0, align16[0] + align16[1] + align16[2], page_aligned[0]);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
