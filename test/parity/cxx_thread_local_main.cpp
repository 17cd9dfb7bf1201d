// The main thread's own C++ thread_local objects with destructors: constructed
// on first use in main (all of a translation unit's together, by its TLS init
// function), destroyed in reverse order when the program exits -- natively (glibc
// __call_tls_dtors from exit) before the atexit handlers and static objects.
//
// Stock lli-22 crashes here (SIGSEGV after main returns): it frees the JIT'd code
// before exit() runs the destructor the JIT'd code registered with
// __cxa_thread_atexit. mini-lli has to run them while the code is still there.
// XFAIL: parity-lli
//
// Under -force-interpreter: LLVM's interpreter does not know the intrinsic
// llvm.threadlocal.address (lli-22 fails earlier: it cannot resolve __dso_handle).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), JITLink
// refuses the local-exec TLS relocation of non-PIC code (R_X86_64_TPOFF32), with or
// without a runtime:
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.O0 --opt=-O0 %s -- 2 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t %s -- 2 | FileCheck %s
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t.exit %s -- 2 exit | FileCheck %s --check-prefix=EXIT
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

struct PerThread {
  std::string tag;
  explicit PerThread(const char *t) : tag(t) { std::printf("construct %s\n", tag.c_str()); }
  ~PerThread() { std::printf("destroy %s\n", tag.c_str()); }
};

thread_local PerThread first("first");
thread_local PerThread second("second");
thread_local PerThread unused("unused");

struct Static {
  ~Static() { std::printf("destroy static\n"); }
} static_object;

static void handler() { std::printf("atexit handler\n"); }

int main(int argc, char **argv) {
  std::atexit(handler);
  int n = argc > 1 ? std::atoi(argv[1]) : 1;
  std::printf("main uses %s", first.tag.c_str());
  if (n > 1)
    std::printf(" and %s", second.tag.c_str());
  std::printf("\n");
  if (argc > 2 && std::strcmp(argv[2], "exit") == 0)
    std::exit(9);
  return 0;
}
// CHECK:      construct first
// CHECK-NEXT: construct second
// CHECK-NEXT: construct unused
// CHECK-NEXT: main uses first and second
// CHECK-NEXT: destroy unused
// CHECK-NEXT: destroy second
// CHECK-NEXT: destroy first
// CHECK-NEXT: atexit handler
// CHECK-NEXT: destroy static
// CHECK-NEXT: parity: exit status 0
// EXIT:       main uses first and second
// EXIT-NEXT:  destroy unused
// EXIT-NEXT:  destroy second
// EXIT-NEXT:  destroy first
// EXIT-NEXT:  atexit handler
// EXIT-NEXT:  destroy static
// EXIT-NEXT:  parity: exit status 9
