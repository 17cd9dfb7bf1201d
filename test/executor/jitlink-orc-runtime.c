// With clang's ORC runtime the controller and executor talk both ways: constructors
// and destructors run, and the runtime's JIT-dispatch calls (executor -> controller,
// answered while run_program is still running) work. Also with the two other memory
// managers: simple-remote (reserve/initialize/deinitialize) and shared (the
// shared-memory mapper service).
// REQUIRES: jit-orc-runtime
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%jit-orc-runtime -oop-executor=@EXE@ %t.o -args x y \
// RUN:   | FileCheck %s --check-prefixes=CHECK,CTORS
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -use-memmgr=simple-remote -oop-executor=@EXE@ %t.o -args x y \
// RUN:   | FileCheck %s --check-prefixes=CHECK,NOCTORS
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -use-memmgr=shared -oop-executor=@EXE@ %t.o -args x y \
// RUN:   | FileCheck %s --check-prefixes=CHECK,NOCTORS
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -use-memmgr=shared -orc-runtime=%jit-orc-runtime \
// RUN:   -oop-executor=@EXE@ %t.o -args x y | FileCheck %s --check-prefixes=CHECK,CTORS
// CTORS: ctor 101
// CTORS-NEXT: ctor 200
// NOCTORS-NOT: ctor
// CTORS: main argc=2 ctor_ran=1
// NOCTORS: main argc=2 ctor_ran=0
// CHECK: arg x
// CHECK-NEXT: arg y
// CHECK-NEXT: status ref=5 ours=5
// CHECK-NEXT: PARITY OK
#include <stdio.h>

static int CtorRan;
__attribute__((constructor(200))) static void c200(void) {
  puts("ctor 200");
  CtorRan = 1;
}
__attribute__((constructor(101))) static void c101(void) { puts("ctor 101"); }
__attribute__((destructor(200))) static void d200(void) { puts("dtor 200"); }
__attribute__((destructor(101))) static void d101(void) { puts("dtor 101"); }

int main(int argc, char **argv) {
  printf("main argc=%d ctor_ran=%d\n", argc, CtorRan);
  for (int I = 0; I < argc; ++I)
    printf("arg %s\n", argv[I]);
  fflush(stdout);
  return 5;
}
