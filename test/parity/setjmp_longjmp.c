// setjmp/longjmp in JIT'd code: jumps out of nested frames, out of a libc qsort
// callback, repeated jumps to the same buffer, volatile locals, sigsetjmp.
// Under -force-interpreter: longjmp restores the native stack but not the
// interpreter's own frames, which go on after the longjmp call: "Program executed an
// 'unreachable' instruction" (lli-22 too).
// XFAIL: parity-interpreter
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 5 | FileCheck %s
// In lazy mode the signal handler must not be compiled inside the signal (memory
// allocation in a signal handler; a TSan build of the driver reports it as
// "signal-unsafe call inside of a signal", exit 66): its address is taken, so
// it has to be compiled before it can be installed.
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t.lazy --tool-arg=-jit-kind=orc-lazy %s -- 5 | FileCheck %s
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static int depth_reached;

static void dive(int depth, int limit) {
  depth_reached = depth;
  if (depth == limit)
    longjmp(env, depth * 10);
  char pad[256];
  pad[depth % 256] = (char)depth;
  dive(depth + 1, limit);
  printf("never: %d\n", pad[depth % 256]);
}

static jmp_buf sort_env;
static int cmp_bail(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  if (x == 13 || y == 13)
    longjmp(sort_env, 13);
  return x - y;
}

static sigjmp_buf sig_env;
static void on_usr1(int sig) { siglongjmp(sig_env, sig); }

int main(int argc, char **argv) {
  int limit = argc > 1 ? atoi(argv[1]) : 3;

  volatile int attempts = 0;
  int r = setjmp(env);
  attempts++;
  // CHECK: setjmp returned 0 (attempt 1)
  // CHECK-NEXT: setjmp returned 50 (attempt 2) depth 5
  printf("setjmp returned %d (attempt %d)", r, attempts);
  if (r == 0) {
    printf("\n");
    dive(0, limit);
  }
  printf(" depth %d\n", depth_reached);

  // Jump to the same buffer several times, counting in a volatile.
  volatile int loops = 0;
  if (setjmp(env) < 3) {
    loops++;
    longjmp(env, loops);
  }
  // CHECK-NEXT: loops 3
  printf("loops %d\n", loops);

  int v[] = {5, 2, 13, 8, 1};
  int why = setjmp(sort_env);
  if (why == 0) {
    qsort(v, 5, sizeof v[0], cmp_bail);
    printf("sorted without bailing\n");
  } else {
    // CHECK-NEXT: bailed out of qsort with 13
    printf("bailed out of qsort with %d\n", why);
  }

  signal(SIGUSR1, on_usr1);
  int sig = sigsetjmp(sig_env, 1);
  if (sig == 0) {
    raise(SIGUSR1);
    printf("not reached\n");
  }
  // CHECK-NEXT: siglongjmp from handler: signal 10
  printf("siglongjmp from handler: signal %d\n", sig);
  sigset_t cur;
  sigprocmask(SIG_BLOCK, NULL, &cur);
  // CHECK-NEXT: SIGUSR1 blocked after restore: 0
  printf("SIGUSR1 blocked after restore: %d\n", sigismember(&cur, SIGUSR1));
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
