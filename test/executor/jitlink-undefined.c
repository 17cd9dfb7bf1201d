// An unresolved external: the client reports it and fails the same way with both
// executors, and the executor exits cleanly.
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// CHECK: status ref=1 ours=1
// CHECK-NEXT: PARITY OK
// ERR: Symbols not found: [ orc_executor_no_such_function ]
// ERR-NOT: orc-executor
extern int orc_executor_no_such_function(int);
int main(void) { return orc_executor_no_such_function(1); }
