// Debug objects are registered with the GDB JIT interface by the alloc action
// llvm_orc_registerJITLoaderGDBAllocAction (llvm-jitlink -debugger-support, code built
// with -g): __jit_debug_descriptor has an entry afterwards, as with the reference.
// test-jitloadergdb prints the list's last entry before and after the session.
// RUN: %clang -c -g -O0 %s -o %t.o
// RUN: env ORC_EXECUTOR_REAL=%orc-executor %llvm-jitlink -debugger-support \
// RUN:   -oop-executor=%inputs/executor/gdb-wrapper.sh %t.o 2>&1 | FileCheck %s
// RUN: env ORC_EXECUTOR_REAL=%llvm-jitlink-executor %llvm-jitlink -debugger-support \
// RUN:   -oop-executor=%inputs/executor/gdb-wrapper.sh %t.o 2>&1 | FileCheck %s
// CHECK: __jit_debug_descriptor.last_entry = 0x0000000000000000
// CHECK-NEXT: debug me
// CHECK-NEXT: __jit_debug_descriptor.last_entry = 0x{{0*[1-9a-f][0-9a-f]*}}
#include <stdio.h>

int main(void) {
  puts("debug me");
  fflush(stdout);
  return 0;
}
