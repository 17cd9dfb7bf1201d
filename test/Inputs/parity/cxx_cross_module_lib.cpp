// The second module of test/parity/cxx_cross_module.cpp (-extra-module /
// linked natively). Not a test by itself.
#include "cxx_cross_module.h"
#include <cstdio>

int lib_side_ctor_ran = bump_shared();

int lib_read_shared() { return shared_counter(); }
int lib_read_registry() { return Registry<int>::value; }

struct Opaque {
  int x;
};

void lib_throw(int kind) {
  switch (kind) {
  case 0: throw SharedError("shared", 7);
  case 1: throw std::logic_error("logic");
  case 2: throw 3;
  default: throw Opaque{1};
  }
}

std::string lib_call_and_catch(void (*f)()) {
  try {
    f();
  } catch (const SharedError &e) {
    return "lib caught SharedError from main: " + std::to_string(e.code);
  } catch (...) {
    return "lib caught something else";
  }
  return "nothing thrown";
}

namespace {
struct Triangle : Shape {
  int side;
  explicit Triangle(int s) : side(s) {}
  ~Triangle() override { std::printf("~Triangle in lib\n"); }
  std::string describe() const override { return "triangle with 3 sides"; }
  int perimeter() const override { return 3 * side; }
};
} // namespace

Shape *lib_make_shape(int sides) { return new Triangle(sides); }
