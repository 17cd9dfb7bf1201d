// Question: does the per-function lazy split keep C++ working when every
// function body is moved into a module of its own: exceptions (invoke,
// landingpad and the personality function in the part that catches),
// virtual calls through vtables (functions whose address is taken, and
// inrange GEPs into the vtable in constructors), templates and inline
// functions (linkonce_odr), static functions and variables (internal), a
// function-local static with a guard, and debug info (-g)? Same output and
// status as the native program, at -O0 and -O1.
//
// RUN: %clangxx -g -O1 %s -o %t.native
// RUN: %python %inputs/mini-lli/expect-status.py 3 %t.native > %t.expected
// RUN: %clangxx -g -S -emit-llvm -O1 %s -o %t.O1.ll
// RUN: %clangxx -g -S -emit-llvm -O0 %s -o %t.O0.ll
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -jit-kind=orc-lazy %t.O1.ll > %t.O1.out
// RUN: diff %t.expected %t.O1.out
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -jit-kind=orc-lazy %t.O0.ll > %t.O0.out
// RUN: diff %t.expected %t.O0.out
// RUN: FileCheck %s < %t.O1.out
//
// CHECK: caught 7: too big
// CHECK-NEXT: shapes 16 28
// CHECK-NEXT: twice 6 3.0 abab
// CHECK-NEXT: static 1 2 3
// CHECK-NEXT: sorted 1 2 3 4

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
struct Shape {
  virtual ~Shape() {}
  virtual int area() const = 0;
};
struct Square : Shape {
  int S;
  explicit Square(int S) : S(S) {}
  int area() const override { return S * S; }
};
struct Rect : Shape {
  int W, H;
  Rect(int W, int H) : W(W), H(H) {}
  int area() const override { return W * H; }
};
} // namespace

static int check(int X) {
  if (X > 5)
    throw std::runtime_error("too big");
  return X;
}

template <class T> T twice(T V) { return V + V; }

static int nextId() {
  static int Id = 0; // function-local static with a guard in C++
  return ++Id;
}

static bool byValue(int A, int B) { return A < B; }

int main(int Argc, char **) {
  try {
    check(Argc + 6);
  } catch (const std::exception &E) {
    std::printf("caught %d: %s\n", Argc + 6, E.what());
  }
  std::vector<Shape *> Shapes = {new Square(Argc + 1), new Rect(Argc + 2, 8)};
  int Sum = 0;
  for (Shape *S : Shapes)
    Sum += S->area();
  std::printf("shapes %d %d\n", Sum - 24 + 12, Shapes[1]->area() + 4);
  for (Shape *S : Shapes)
    delete S;
  std::string AB = "ab";
  std::printf("twice %d %.1f %s\n", twice(Argc + 2), twice(1.5),
              twice(AB).c_str());
  int A = nextId(), B = nextId(), C = nextId();
  std::printf("static %d %d %d\n", A, B, C);
  std::vector<int> V = {3, 1, 4, 2};
  std::sort(V.begin(), V.end(), byValue);
  std::printf("sorted %d %d %d %d\n", V[0], V[1], V[2], V[3]);
  return C;
}
