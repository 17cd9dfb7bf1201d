// Function pointers and data across two JIT'd modules: this module and
// Inputs/parity/cross_module_lib.c, given to the driver with -extra-module (and
// linked into the native binary). Calls in both directions, callbacks the
// library stores and calls later, a table of function pointers defined in the
// library, a global variable defined in one module and written in the other,
// pointer identity of a function seen from both modules, and a library
// constructor that runs before main.
// Under -force-interpreter: qsort's comparator is interpreted code, which native qsort
// cannot call: SIGSEGV (lli-22 fails earlier: its interpreter does not link
// -extra-module).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --extra-module %inputs/parity/cross_module_lib.c %s -- 4 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.lazy --tool-arg=-jit-kind=orc-lazy --extra-module %inputs/parity/cross_module_lib.c %s -- 4 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.bc --bitcode --extra-module %inputs/parity/cross_module_lib.c %s -- 4 | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

typedef long (*binop)(long, long);

// Defined in cross_module_lib.c.
extern int lib_initialised;
extern long shared_total;
extern const binop lib_ops[];
extern const char *const lib_op_names[];
extern int lib_op_count;
binop lib_lookup(const char *name);
void lib_register(long (*cb)(long), const char *tag);
long lib_run_all(long x);
long lib_apply(binop f, long a, long b);
void *lib_address_of_main_square(void);
void lib_sort_desc(int *v, int n, int (*cmp)(const void *, const void *));

long main_square(long x) { return x * x; }
static long main_negate(long x) {
  shared_total -= 1;
  return -x;
}
static long main_mod(long a, long b) { return a % b; }
static int cmp_asc(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv) {
  long k = argc > 1 ? atol(argv[1]) : 2;
  // CHECK: lib constructor ran: 1
  printf("lib constructor ran: %d\n", lib_initialised);

  // The library's function table, called from here.
  for (int i = 0; i < lib_op_count; i++)
    printf("%s(%ld, 3) = %ld\n", lib_op_names[i], k, lib_ops[i](k, 3));
  // CHECK-NEXT: add(4, 3) = 7
  // CHECK-NEXT: mul(4, 3) = 12
  // CHECK-NEXT: pow(4, 3) = 64

  binop f = lib_lookup("mul");
  // CHECK-NEXT: lookup mul -> same as table: 1, result 20
  printf("lookup mul -> same as table: %d, result %ld\n", f == lib_ops[1], f(k, 5));
  // Our static function, called by the library.
  // CHECK-NEXT: lib_apply(main_mod, 17, 4) = 1
  printf("lib_apply(main_mod, 17, %ld) = %ld\n", k, lib_apply(main_mod, 17, k));

  lib_register(main_square, "square");
  lib_register(main_negate, "negate");
  shared_total = 100;
  // CHECK-NEXT: lib calls square(4) = 16 (total now 116)
  // CHECK-NEXT: lib calls negate(4) = -4 (total now 111)
  // CHECK-NEXT: run_all = 12
  printf("run_all = %ld\n", lib_run_all(k));
  // CHECK-NEXT: shared_total seen here: 111
  printf("shared_total seen here: %ld\n", shared_total);
  // CHECK-NEXT: &main_square equal in both modules: 1
  printf("&main_square equal in both modules: %d\n",
         lib_address_of_main_square() == (void *)main_square);

  int v[] = {3, 9, 1, 7, 5};
  lib_sort_desc(v, 5, cmp_asc);
  // CHECK-NEXT: sorted by lib with our comparator, reversed: 9 7 5 3 1
  printf("sorted by lib with our comparator, reversed: %d %d %d %d %d\n", v[0], v[1], v[2],
         v[3], v[4]);
  // CHECK-NEXT: parity: exit status 12
  return (int)lib_run_all(0) + 12;
}
