// Question: a C++ program leaves a detached std::thread inside JIT'd code when
// main returns. libstdc++ creates the thread with libc's pthread_create, which
// mini-lli interposes for the whole process: the thread is a managed thread,
// so with -shutdown-timeout it is drained like one started by JIT'd code
// directly.
//
// Under -force-interpreter: the std::thread's body is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: engine-interpreter
// RUN: %clangxx -S -emit-llvm -O1 -I %orc-rt-include %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 3 mini-lli -shutdown-timeout=forever -trace-shutdown %t.ll 2>&1 | FileCheck %s
//
// CHECK:      main: returning with a std::thread inside
// CHECK-NEXT: mini-lli: shutdown: requested
// CHECK-NEXT: worker: in managed code 1, still running after the request
// CHECK-NEXT: worker: done
// CHECK-NEXT: mini-lli: shutdown: drain complete
// CHECK:      mini-lli: shutdown: complete

#include "../Inputs/mini-lli/wait-denied.h"
#include <atomic>
#include <cstdio>
#include <thread>
#include <unistd.h>

static std::atomic<int> Inside;

int main() {
  std::thread([] {
    orc_rt_SessionRef S = orc_rt_Session_current();
    int Managed = S && orc_rt_Session_isInManagedCode(S);
    Inside = 1;
    if (!S)
      return; // not managed: the CHECK lines fail
    waitUntilEntriesDenied(S);
    std::printf("worker: in managed code %d, still running after the request\n",
                Managed);
    std::fflush(stdout);
    usleep(50 * 1000);
    std::printf("worker: done\n");
    std::fflush(stdout);
  }).detach();
  while (!Inside)
    usleep(1000);
  std::printf("main: returning with a std::thread inside\n");
  std::fflush(stdout);
  return 3;
}
