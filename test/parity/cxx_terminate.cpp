// Exceptions nobody catches: one escaping main, one leaving a noexcept
// function, and an explicit std::terminate through a custom terminate handler.
// Natively each ends in std::terminate -> abort(): killed by SIGABRT, with the
// output flushed before that kept (the terminate message goes to stderr, which
// is not compared). The driver must not catch the exception or turn it into an
// exit status.
// Under -force-interpreter: the std::set_terminate handler is interpreted code, which
// native std::terminate cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with an
// executor llvm-jitlink exits 1 ("disconnecting") when the executor process dies by a
// signal:
// XFAIL: parity-jitlink-oop
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.1 %s -- escape | FileCheck %s --check-prefix=ESCAPE
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.2 %s -- noexcept | FileCheck %s --check-prefix=NOEXCEPT
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.3 %s -- handler | FileCheck %s --check-prefix=HANDLER
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>

struct Noisy {
  ~Noisy() { std::printf("~Noisy (only if unwound)\n"); }
};

static void thrower() { throw std::runtime_error("nobody catches this"); }
static void wall() noexcept {
  Noisy n;
  thrower();
}

static void my_terminate() {
  std::printf("custom terminate handler, exiting 12\n");
  std::fflush(stdout);
  std::_Exit(12);
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  std::printf("start %s\n", how);
  std::fflush(stdout);
  if (!std::strcmp(how, "escape")) {
    thrower();
  } else if (!std::strcmp(how, "noexcept")) {
    wall();
  } else if (!std::strcmp(how, "handler")) {
    std::set_terminate(my_terminate);
    wall();
  }
  return 0;
}
// ESCAPE:        start escape
// ESCAPE-NEXT:   parity: killed by signal 6
// NOEXCEPT:      start noexcept
// NOEXCEPT-NEXT: parity: killed by signal 6
// HANDLER:       start handler
// HANDLER-NEXT:  custom terminate handler, exiting 12
// HANDLER-NEXT:  parity: exit status 12
