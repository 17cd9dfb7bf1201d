// __builtin_cpu_init / __builtin_cpu_supports: clang emits a call to
// __cpu_indicator_init and reads the data object __cpu_model. Natively both come
// from libgcc.a; libgcc_s.so.1 has them only under the non-default version
// GCC_4.8.0 (__cpu_model@GCC_4.8.0), so a plain dlsym does not find them.
//
// Stock lli-22: "JIT session error: Symbols not found: [ __cpu_indicator_init,
// __cpu_model ]", exit 1:
// XFAIL: parity-lli
//
// Under -force-interpreter: __cpu_model is in libgcc.a, in no shared object the
// interpreter can search (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), __cpu_model
// and __cpu_indicator_init are in libgcc.a, which no library in the executor exports
// ("Symbols not found"):
// XFAIL: parity-jitlink
// Likewise in an executor process (-remote-mcjit):
// XFAIL: parity-remote
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <stdio.h>

int main(void) {
  __builtin_cpu_init();
  // Every x86-64 CPU has SSE2 and no Intel CPU model is AMD's: the answers are
  // the same natively and JIT'd on any machine.
  // CHECK: sse2 1, intel+amd 0
  printf("sse2 %d, intel+amd %d\n", __builtin_cpu_supports("sse2") != 0,
         __builtin_cpu_is("intel") && __builtin_cpu_is("amd"));
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
