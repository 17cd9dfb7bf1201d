// fork() from JIT'd code: the child runs JIT'd code too (the same function
// pointer, a computed value), reports through a pipe and its exit status; the
// parent waits, so the output order is fixed. A child killed by a signal is
// reported as such. stdout is flushed before each fork.
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- 6 | FileCheck %s
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(int argc, char **argv) {
  int k = argc > 1 ? atoi(argv[1]) : 5;
  for (int i = 0; i < 3; i++) {
    int fds[2];
    if (pipe(fds) != 0)
      return 2;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
      return 3;
    if (pid == 0) {
      close(fds[0]);
      long v = fib(k * (i + 1));
      if (write(fds[1], &v, sizeof v) != sizeof v)
        _exit(99);
      printf("child %d computed fib(%d)\n", i, k * (i + 1));
      fflush(stdout);
      if (i == 2)
        raise(SIGKILL);
      _exit(10 + i);
    }
    close(fds[1]);
    long v = -1;
    if (read(fds[0], &v, sizeof v) != sizeof v)
      v = -2;
    close(fds[0]);
    int st;
    waitpid(pid, &st, 0);
    if (WIFEXITED(st))
      printf("parent: child %d sent %ld, exit status %d\n", i, v, WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
      printf("parent: child %d sent %ld, killed by signal %d\n", i, v, WTERMSIG(st));
  }
  // CHECK:      child 0 computed fib(6)
  // CHECK-NEXT: parent: child 0 sent 8, exit status 10
  // CHECK-NEXT: child 1 computed fib(12)
  // CHECK-NEXT: parent: child 1 sent 144, exit status 11
  // CHECK-NEXT: child 2 computed fib(18)
  // CHECK-NEXT: parent: child 2 sent 2584, killed by signal 9
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
