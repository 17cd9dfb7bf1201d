// Signal dispositions when main starts: natively every signal is SIG_DFL
// (nothing here is inherited as ignored), so a program that checks before
// installing its own handlers sees no handlers. A driver that installs crash
// handlers of its own changes what the program sees.
//
// Stock lli-22 installs LLVM's stack-trace signal handlers (signals 1-8, 10-12,
// 15, 24, 25, 31), so this program differs under lli:
// XFAIL: parity-lli
//
// Under a sanitizer build of the driver the sanitizer runtime has installed its
// own handlers (ASan: SIGBUS, SIGFPE, SIGSEGV; TSan the same), which the program
// sees; that is the sanitizer's doing, not the driver's:
// UNSUPPORTED: address-sanitizer, thread-sanitizer
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), in process
// llvm-jitlink has installed LLVM's crash signal handlers:
// XFAIL: parity-jitlink-in-process
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <signal.h>
#include <stdio.h>

int main(void) {
  printf("signals with handlers:");
  int handled = 0;
  for (int s = 1; s < 32; s++) {
    struct sigaction sa;
    if (s == SIGKILL || s == SIGSTOP || sigaction(s, NULL, &sa) != 0)
      continue;
    if (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN) {
      printf(" %d", s);
      handled++;
    }
  }
  printf("%s\n", handled ? "" : " none");
  // CHECK: signals with handlers: none
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
