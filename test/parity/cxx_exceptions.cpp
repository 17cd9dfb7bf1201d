// C++ exceptions thrown and caught inside JIT'd code (compiled with exceptions
// on): built-in and class types, catch by base class, rethrow, nested handlers,
// unwinding through several JIT'd frames and through a function pointer with
// RAII destructors running on the way, an exception escaping a constructor,
// std::exception_ptr, an exception thrown by libstdc++ (std::stoi, vector::at)
// and caught in JIT'd code, and one escaping main's callee that decides the status.
// Under -force-interpreter: LLVM's interpreter has no exception unwinding: the first
// throw terminates (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t %s -- 3 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.O0 --opt=-O0 %s -- 3 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.bc --bitcode --opt=-O2 %s -- 3 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.lazy --tool-arg=-jit-kind=orc-lazy %s -- 3 | FileCheck %s
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

struct Guard {
  const char *name;
  explicit Guard(const char *n) : name(n) {}
  ~Guard() { std::printf("  ~Guard(%s)\n", name); }
};

struct AppError : std::runtime_error {
  int code;
  AppError(const std::string &what, int c) : std::runtime_error(what), code(c) {}
};
struct DiskError : AppError {
  DiskError() : AppError("disk full", 28) {}
};

__attribute__((noinline)) static int thrower(int kind, int depth) {
  Guard g(depth == 0 ? "depth0" : "deeper");
  if (depth > 0)
    return thrower(kind, depth - 1) + 1;
  switch (kind) {
  case 0: throw 42;
  case 1: throw std::string("a string");
  case 2: throw DiskError();
  case 3: throw std::out_of_range("range");
  default: return 0;
  }
}

static void describe(int kind, int depth) {
  try {
    thrower(kind, depth);
    std::printf("no throw\n");
  } catch (int i) {
    std::printf("caught int %d\n", i);
  } catch (const std::string &s) {
    std::printf("caught std::string '%s'\n", s.c_str());
  } catch (const AppError &e) {
    std::printf("caught AppError '%s' code %d\n", e.what(), e.code);
  } catch (const std::exception &e) {
    std::printf("caught std::exception '%s'\n", e.what());
  }
}

struct Fragile {
  Guard member{"member"};
  explicit Fragile(int x) {
    if (x > 2)
      throw std::invalid_argument("too big");
  }
};

static int (*volatile indirect)(int, int) = thrower;

int main(int argc, char **argv) {
  int depth = argc > 1 ? std::atoi(argv[1]) : 1;
  // CHECK:      ~Guard(depth0)
  // CHECK-NEXT: ~Guard(deeper)
  // CHECK-NEXT: ~Guard(deeper)
  // CHECK-NEXT: ~Guard(deeper)
  // CHECK-NEXT: caught int 42
  for (int kind = 0; kind < 5; kind++)
    describe(kind, depth);
  // CHECK:      caught std::string 'a string'
  // CHECK:      caught AppError 'disk full' code 28
  // CHECK:      caught std::exception 'range'
  // CHECK:      ~Guard(depth0)
  // CHECK-NEXT: ~Guard(deeper)
  // CHECK-NEXT: ~Guard(deeper)
  // CHECK-NEXT: ~Guard(deeper)
  // CHECK-NEXT: no throw

  // Rethrow from a nested handler, caught again by the outer one.
  try {
    try {
      thrower(2, 0);
    } catch (AppError &e) {
      std::printf("inner caught code %d, rethrowing\n", e.code);
      e.code++;
      throw;
    }
  } catch (const DiskError &e) {
    std::printf("outer caught DiskError code %d\n", e.code);
  }
  // CHECK-NEXT: ~Guard(depth0)
  // CHECK-NEXT: inner caught code 28, rethrowing
  // CHECK-NEXT: outer caught DiskError code 29

  try {
    indirect(0, 1);
  } catch (...) {
    std::printf("caught through function pointer\n");
  }
  // CHECK:      ~Guard(depth0)
  // CHECK-NEXT: ~Guard(deeper)
  // CHECK-NEXT: caught through function pointer

  try {
    Fragile f(depth);
    std::printf("constructed\n");
  } catch (const std::invalid_argument &e) {
    std::printf("constructor threw '%s'\n", e.what());
  }
  // CHECK-NEXT: ~Guard(member)
  // CHECK-NEXT: constructor threw 'too big'

  std::exception_ptr saved;
  try {
    throw AppError("saved for later", 7);
  } catch (...) {
    saved = std::current_exception();
  }
  try {
    std::rethrow_exception(saved);
  } catch (const AppError &e) {
    std::printf("rethrown exception_ptr: %s %d\n", e.what(), e.code);
  }
  // CHECK-NEXT: rethrown exception_ptr: saved for later 7

  // Thrown inside libstdc++, caught here.
  try {
    std::printf("%d\n", std::stoi("not a number"));
  } catch (const std::invalid_argument &e) {
    std::printf("stoi threw invalid_argument\n");
  }
  std::vector<int> v(depth);
  try {
    std::printf("%d\n", v.at(depth + 10));
  } catch (const std::out_of_range &) {
    std::printf("vector::at threw out_of_range\n");
  }
  // CHECK-NEXT: stoi threw invalid_argument
  // CHECK-NEXT: vector::at threw out_of_range

  // An uncaught-here exception leaving main's callee, caught at main level,
  // decides the exit status.
  int status = 0;
  try {
    thrower(2, 1);
  } catch (const AppError &e) {
    status = e.code;
  }
  // CHECK:      parity: exit status 28
  return status;
}
