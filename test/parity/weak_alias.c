// Symbol resolution across modules the way the static linker does it natively:
// a strong definition in this module overrides a weak one in the extra module
// (and the extra module's own calls go to the strong one), a weak definition
// nobody overrides is used, an undefined weak reference is NULL, an alias
// resolves to its target, and data tables holding pointers to functions and
// strings in the other module (relocations in data) are filled in.
// Stock lli-22 -jit-kind=mcjit crashes on it (SIGSEGV): RuntimeDyld cannot
// link an undefined weak reference to null. mini-lli's MCJIT (in process and
// -remote-mcjit) nulls those in the IR first (lib/jit/ir/WeakRefs.h) and passes.
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t --extra-module %inputs/parity/weak_lib.c %s | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.lazy --tool-arg=-jit-kind=orc-lazy --extra-module %inputs/parity/weak_lib.c %s | FileCheck %s
#include <stdio.h>

// Strong here, weak in weak_lib.c.
const char *who_handles(void) { return "strong definition in main module"; }
int tunable = 7; // weak (= 1) in weak_lib.c

// Defined weak in weak_lib.c only.
const char *only_weak(void);
// Never defined anywhere.
extern void never_defined(void) __attribute__((weak));

static int real_impl(int x) { return x * 3; }
int via_alias(int x) __attribute__((alias("real_impl")));

// Defined in weak_lib.c.
const char *lib_calls_who_handles(void);
int lib_reads_tunable(void);
struct entry {
  const char *name;
  int (*fn)(int);
};
extern const struct entry lib_table[];
extern const int lib_table_len;
extern const char *const *lib_strings;

int main(void) {
  // CHECK: main calls: strong definition in main module
  printf("main calls: %s\n", who_handles());
  // CHECK-NEXT: lib calls: strong definition in main module
  printf("lib calls: %s\n", lib_calls_who_handles());
  // CHECK-NEXT: tunable main 7 lib 7
  printf("tunable main %d lib %d\n", tunable, lib_reads_tunable());
  // CHECK-NEXT: only weak: weak default in weak_lib
  printf("only weak: %s\n", only_weak());
  // CHECK-NEXT: undefined weak is null: 1
  printf("undefined weak is null: %d\n", never_defined == NULL);
  // CHECK-NEXT: alias: 21
  printf("alias: %d\n", via_alias(7));
  // CHECK-NEXT: table: inc(10)=11 dbl(10)=20 neg(10)=-10
  printf("table:");
  for (int i = 0; i < lib_table_len; i++)
    printf(" %s(10)=%d", lib_table[i].name, lib_table[i].fn(10));
  // CHECK-NEXT: strings: alpha beta gamma
  printf("\nstrings: %s %s %s\n", lib_strings[0], lib_strings[1], lib_strings[2]);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
