// pthread_exit in C++ JIT'd code: glibc implements it as a forced unwind, so the
// destructors of every frame it leaves run (innermost first), a catch (...)
// that rethrows sees it pass, and the thread's thread_local objects are
// destroyed; then pthread_join gets the value.
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 fails earlier: it cannot resolve __dso_handle).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), JITLink
// refuses the local-exec TLS relocation of non-PIC code (R_X86_64_TPOFF32), with or
// without a runtime:
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clangxx --tool %parity-jit --out %t --timeout 30 %s -- 5 | FileCheck %s
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <pthread.h>

struct Frame {
  const char *name;
  explicit Frame(const char *n) : name(n) {}
  ~Frame() { std::printf("  ~Frame(%s)\n", name); }
};
struct PerThread {
  ~PerThread() { std::printf("  ~PerThread\n"); }
  int x = 1;
};
thread_local PerThread per_thread;

__attribute__((noinline)) static void inner(int v) {
  Frame f("inner");
  pthread_exit(reinterpret_cast<void *>(static_cast<intptr_t>(v * 10)));
}
__attribute__((noinline)) static void middle(int v) {
  Frame f("middle");
  try {
    inner(v);
  } catch (...) {
    std::printf("  catch (...) saw the unwind, rethrowing\n");
    throw;
  }
}
static void *body(void *arg) {
  Frame f("body");
  per_thread.x = 2;
  middle(static_cast<int>(reinterpret_cast<intptr_t>(arg)));
  return nullptr;
}

int main(int argc, char **argv) {
  int v = argc > 1 ? std::atoi(argv[1]) : 1;
  pthread_t t;
  void *ret;
  std::printf("start\n");
  std::fflush(stdout);
  pthread_create(&t, nullptr, body, reinterpret_cast<void *>(static_cast<intptr_t>(v)));
  pthread_join(t, &ret);
  std::printf("joined: %ld\n", static_cast<long>(reinterpret_cast<intptr_t>(ret)));
  return 0;
}
// CHECK:      start
// CHECK-NEXT:   ~Frame(inner)
// CHECK-NEXT:   catch (...) saw the unwind, rethrowing
// CHECK-NEXT:   ~Frame(middle)
// CHECK-NEXT:   ~Frame(body)
// CHECK-NEXT:   ~PerThread
// CHECK-NEXT: joined: 50
// CHECK-NEXT: parity: exit status 0
