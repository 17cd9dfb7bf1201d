// Code generation corners whose output must not depend on JIT vs static
// linking: computed goto (blockaddress), a dense switch (jump table in rodata),
// a sparse switch, a function pointer to a libc function compared across calls,
// a struct of function pointers initialised statically, libm via dlopen/dlsym,
// memcpy/memset of odd sizes, and __builtin_* helpers.
// Under -force-interpreter: LLVM's interpreter crashes laying out a static table of
// label addresses (computed goto's blockaddress) (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 9 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.lazy --tool-arg=-jit-kind=orc-lazy %s -- 9 | FileCheck %s
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int interpret(const unsigned char *code, int acc) {
  static void *ops[] = {&&op_halt, &&op_inc, &&op_dbl, &&op_neg, &&op_jnz_back};
  const unsigned char *pc = code;
  int counter = 3;
#define NEXT goto *ops[*pc++]
  NEXT;
op_inc:
  acc += 1;
  NEXT;
op_dbl:
  acc *= 2;
  NEXT;
op_neg:
  acc = -acc;
  NEXT;
op_jnz_back:
  if (--counter > 0) {
    pc -= 3;
  }
  NEXT;
op_halt:
  return acc;
#undef NEXT
}

static const char *dense(int x) {
  switch (x) {
  case 0: return "zero";
  case 1: return "one";
  case 2: return "two";
  case 3: return "three";
  case 4: return "four";
  case 5: return "five";
  case 6: return "six";
  case 7: return "seven";
  case 8: return "eight";
  case 9: return "nine";
  default: return "many";
  }
}
static int sparse(int x) {
  switch (x) {
  case -100000: return 1;
  case 7: return 2;
  case 4096: return 3;
  case 1 << 30: return 4;
  default: return 0;
  }
}

struct vtable {
  size_t (*len)(const char *);
  int (*cmp)(const char *, const char *);
  void *(*alloc)(size_t);
  void (*release)(void *);
};
static const struct vtable libc_vt = {strlen, strcmp, malloc, free};

int main(int argc, char **argv) {
  int k = argc > 1 ? atoi(argv[1]) : 1;
  // inc, dbl, then "inc dbl" three times (jnz loops back twice), then neg.
  static const unsigned char prog[] = {1, 2, 1, 2, 4, 3, 0};
  // CHECK: computed goto: -174
  printf("computed goto: %d\n", interpret(prog, k));
  printf("switch:");
  for (int i = k - 2; i <= k + 1; i++)
    printf(" %s", dense(i));
  printf(" | %d %d %d %d %d\n", sparse(-100000), sparse(7), sparse(4096), sparse(1 << 30), sparse(k));
  // CHECK-NEXT: switch: seven eight nine many | 1 2 3 4 0

  size_t (*volatile f1)(const char *) = strlen;
  size_t (*volatile f2)(const char *) = strlen;
  char *s = libc_vt.alloc(32);
  memset(s, 'x', 31);
  s[31] = '\0';
  memcpy(s + 3, "abcdefghijk", 11);
  // CHECK-NEXT: libc pointers equal 1, table equal 1, len 31, cmp>0 1, s=xxxabcdefghijkxxxxxxxxxxxxxxxxx
  printf("libc pointers equal %d, table equal %d, len %zu, cmp>0 %d, s=%s\n", f1 == f2,
         libc_vt.len == f1, libc_vt.len(s), libc_vt.cmp(s, "xxx") > 0, s);
  libc_vt.release(s);

  void *libm = dlopen("libm.so.6", RTLD_NOW);
  double (*cosine)(double) = libm ? (double (*)(double))dlsym(libm, "cos") : NULL;
  // CHECK-NEXT: dlsym cos(0) = 1.000
  printf("dlsym cos(0) = %.3f\n", cosine ? cosine(0.0) : -1.0);
  if (libm)
    dlclose(libm);

  unsigned long long v = 0x00f0000000000100ull * (unsigned)k;
  // CHECK-NEXT: builtins: popcount 6 clz 4 ctz 8 bswap 0x0009000000007008 overflow 1
  int of;
  long long big;
  of = __builtin_mul_overflow(9223372036854775807LL / 2, k, &big);
  printf("builtins: popcount %d clz %d ctz %d bswap 0x%016llx overflow %d\n", __builtin_popcountll(v),
         __builtin_clzll(v), __builtin_ctzll(v), (unsigned long long)__builtin_bswap64(v), of);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
