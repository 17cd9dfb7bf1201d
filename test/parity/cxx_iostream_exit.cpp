// std::cout at the edges of the program's life: written by a global
// constructor (before main) and by a global destructor (after main), and text
// left in std::cout's buffer without a flush or endl when main returns --
// libstdc++ flushes it at exit (ios_base::Init). std::cerr is not compared.
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t %s | FileCheck %s
#include <iostream>
#include <string>

struct Announcer {
  std::string name;
  explicit Announcer(const char *n) : name(n) { std::cout << "hello from " << name << '\n'; }
  ~Announcer() { std::cout << "goodbye from " << name << '\n'; }
};

Announcer global("global");

int main() {
  static Announcer local("function-local static");
  std::cerr << "to stderr\n";
  std::cout << "main ends without a flush";
  return 0;
}
// CHECK:      hello from global
// CHECK-NEXT: hello from function-local static
// CHECK-NEXT: main ends without a flushgoodbye from function-local static
// CHECK-NEXT: goodbye from global
// CHECK-NEXT: parity: exit status 0
