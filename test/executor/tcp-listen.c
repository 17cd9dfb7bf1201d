// TCP: orc-executor listen=127.0.0.1:PORT serves llvm-jitlink -oop-executor-connect.
// LLVM 22's client never closes its side, so --idle-close makes the executor close
// the idle connection; the client then exits with main's status. The program's output
// appears on the executor's stdout. It binds the given host (127.0.0.1, not 0.0.0.0),
// and a second connection is refused.
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/tcp_session.py %orc-executor "--idle-close-ms=1500" -- \
// RUN:   %llvm-jitlink -oop-executor-connect=@ADDR@ %t.o -args x y | FileCheck %s
// RUN: %python %inputs/executor/tcp_session.py %orc-executor "--idle-close-ms=1500" -- \
// RUN:   %llvm-jitlink -orc-runtime=%jit-orc-runtime -oop-executor-connect=@ADDR@ %t.o \
// RUN:   -args x y | FileCheck %s --check-prefixes=CHECK,ORCRT
// REQUIRES: jit-orc-runtime
// CHECK: listening on 127.0.0.1
// CHECK: second connection: refused
// ORCRT: ctor ran
// CHECK: main argc=2 x y
// CHECK-NEXT: client status: 9
// CHECK-NEXT: executor status: 0
#include <stdio.h>
#include <unistd.h>

__attribute__((constructor)) static void ctor(void) { puts("ctor ran"); }

int main(int argc, char **argv) {
  usleep(1800 * 1000); /* longer than the idle timeout: a running call is not idle */
  printf("main argc=%d %s %s\n", argc, argv[0], argv[1]);
  fflush(stdout);
  return 9;
}
