// C++ streams in JIT'd code without an ORC runtime (its own static initialisers do not
// run): std::cout must already be usable, as in the C++-built reference executor.
// RUN: %clangxx -c -O0 %s -o %t.o
// RUN: %python %inputs/executor/parity.py %llvm-jitlink-executor orc-executor -- \
// RUN:   %llvm-jitlink -oop-executor=@EXE@ %t.o -args bravo alpha | FileCheck %s
// CHECK: sorted: alpha bravo
// CHECK-NEXT: printf between couts
// CHECK-NEXT: ......42|ff|0.667
// CHECK-NEXT: map: one=1 two=2
// CHECK-NEXT: status ref=0 ours=0
// CHECK-NEXT: PARITY OK
#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  std::vector<std::string> Words(argv, argv + argc);
  std::sort(Words.begin(), Words.end());
  std::cout << "sorted:";
  for (const auto &W : Words)
    std::cout << ' ' << W;
  std::cout << '\n';
  std::cout.flush();
  std::printf("printf between couts\n");
  std::fflush(stdout);
  std::cout << std::setw(8) << std::setfill('.') << 42 << '|' << std::hex << 255 << std::dec
            << '|' << std::fixed << std::setprecision(3) << 2.0 / 3 << std::endl;
  std::map<std::string, int> M{{"two", 2}, {"one", 1}};
  std::ostringstream OS;
  for (const auto &KV : M)
    OS << ' ' << KV.first << '=' << KV.second;
  std::cout << "map:" << OS.str() << std::endl;
  return 0;
}
