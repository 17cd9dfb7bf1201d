// A C++ exception thrown by a JIT'd callback and caught by JIT'd code on the
// far side of libc frames (glibc's qsort and lfind, built with unwind tables):
// the unwinder has to walk JIT'd frames, libc's frames and JIT'd frames again,
// running the destructors on the way.
// Under -force-interpreter: qsort's comparator is interpreted code, which native qsort
// cannot call: SIGSEGV (lli-22 too); nor can an exception unwind through the
// interpreter.
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t %s -- 13 | FileCheck %s
#include <cstdio>
#include <cstdlib>
#include <search.h>
#include <stdexcept>

static int poison;
struct Guard {
  const char *where;
  ~Guard() { std::printf("  ~Guard(%s)\n", where); }
};

static int cmp(const void *a, const void *b) {
  int x = *static_cast<const int *>(a), y = *static_cast<const int *>(b);
  if (x == poison || y == poison)
    throw std::invalid_argument("poisoned value " + std::to_string(poison));
  return (x > y) - (x < y);
}

__attribute__((noinline)) static void sort_them(int *v, int n) {
  Guard g{"sort_them"};
  std::qsort(v, static_cast<size_t>(n), sizeof *v, cmp);
  std::printf("sorted without throwing\n");
}

int main(int argc, char **argv) {
  poison = argc > 1 ? std::atoi(argv[1]) : 13;
  int v[] = {5, 9, 1, 13, 7, 3, 11, 2};
  try {
    sort_them(v, 8);
  } catch (const std::invalid_argument &e) {
    std::printf("caught through qsort: %s\n", e.what());
  }
  // CHECK:      ~Guard(sort_them)
  // CHECK-NEXT: caught through qsort: poisoned value 13

  int table[] = {1, 3, 5, 7, 13, 17};
  size_t n = 6;
  int key = 17;
  try {
    Guard g{"lfind caller"};
    lfind(&key, table, &n, sizeof *table, cmp);
    std::printf("lfind did not throw\n");
  } catch (const std::exception &e) {
    std::printf("caught through lfind: %s\n", e.what());
  }
  // CHECK-NEXT: ~Guard(lfind caller)
  // CHECK-NEXT: caught through lfind: poisoned value 13
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
