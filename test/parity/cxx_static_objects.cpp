// C++ objects with static storage duration in JIT'd code: globals constructed
// in definition order before main (after a higher-priority init_priority one),
// a function-local static constructed on first use only (thread-safe guard),
// destructors registered through __cxa_atexit running in reverse order of
// construction completion, interleaved with a C atexit handler registered in
// main, and library-type globals (std::string, std::vector, std::map).
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), compiler-rt
// 22's runtime never runs atexit() handlers:
// XFAIL: parity-jitlink-compiler-rt
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t %s -- x | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.lazy --tool-arg=-jit-kind=orc-lazy %s -- x | FileCheck %s
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

static int counter;

struct Tracer {
  const char *name;
  int id;
  explicit Tracer(const char *n) : name(n), id(++counter) { std::printf("construct %s #%d\n", name, id); }
  ~Tracer() { std::printf("destroy %s #%d\n", name, id); }
};

Tracer first("first");
static Tracer second("second");
Tracer early __attribute__((init_priority(200)))("early");

std::string greeting = std::string("hello, ") + "world";
std::vector<int> squares = [] {
  std::vector<int> v;
  for (int i = 1; i <= 5; i++)
    v.push_back(i * i);
  return v;
}();
std::map<std::string, int> ages = {{"bob", 30}, {"alice", 25}};

Tracer &lazy() {
  static Tracer t("lazy");
  return t;
}
Tracer &never_used() {
  static Tracer t("never");
  return t;
}

static void c_handler() { std::printf("atexit handler\n"); }

int main(int argc, char **argv) {
  std::printf("main: %s, %zu squares ending %d, %zu ages, alice %d\n", greeting.c_str(),
              squares.size(), squares.back(), ages.size(), ages["alice"]);
  std::atexit(c_handler);
  if (argc > 1)
    std::printf("lazy id %d\n", lazy().id);
  std::printf("lazy again id %d\n", lazy().id);
  if (argc > 5)
    never_used();
  return 0;
}
// CHECK:      construct early #1
// CHECK-NEXT: construct first #2
// CHECK-NEXT: construct second #3
// CHECK-NEXT: main: hello, world, 5 squares ending 25, 2 ages, alice 25
// CHECK-NEXT: construct lazy #4
// CHECK-NEXT: lazy id 4
// CHECK-NEXT: lazy again id 4
// CHECK-NEXT: destroy lazy #4
// CHECK-NEXT: atexit handler
// CHECK-NEXT: destroy second #3
// CHECK-NEXT: destroy first #2
// CHECK-NEXT: destroy early #1
// CHECK-NEXT: parity: exit status 0
// CHECK-NOT:  never
