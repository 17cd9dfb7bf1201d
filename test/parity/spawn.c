// Child processes started from JIT'd code: system() with the shell's exit
// status, popen() reading a command's output, posix_spawn + waitpid, and the
// file descriptors a child inherits (only 0, 1 and 2 natively: a driver that
// leaks descriptors without O_CLOEXEC hands them to every child).
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), with
// llvm-jitlink-executor children inherit the executor's connection descriptors
// (orc-executor marks them close-on-exec):
// XFAIL: parity-jitlink-llvm-jitlink-executor
// and likewise lli-child-target's under -remote-mcjit:
// XFAIL: parity-remote-lli-child-target
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s | FileCheck %s
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

int main(void) {
  fflush(stdout);
  int st = system("echo from the shell; exit 3");
  // CHECK:      from the shell
  // CHECK-NEXT: system: exited 1 status 3
  printf("system: exited %d status %d\n", WIFEXITED(st), WEXITSTATUS(st));

  FILE *p = popen("printf 'alpha\\nbeta\\ngamma\\n'", "r");
  char line[64];
  int n = 0;
  printf("popen:");
  while (p && fgets(line, sizeof line, p)) {
    line[strcspn(line, "\n")] = '\0';
    printf(" [%s]", line);
    n++;
  }
  int pst = p ? pclose(p) : -1;
  // CHECK-NEXT: popen: [alpha] [beta] [gamma] (3 lines, pclose status 0)
  printf(" (%d lines, pclose status %d)\n", n, WEXITSTATUS(pst));

  // The child lists its own open descriptors (ls itself opens one for the directory).
  fflush(stdout);
  pid_t pid;
  char *argv[] = {"sh", "-c", "ls /proc/self/fd | sort -n | tr '\\n' ' '; echo", NULL};
  if (posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ) != 0)
    return 2;
  int sst;
  waitpid(pid, &sst, 0);
  // CHECK-NEXT: {{^0 1 2 3 $}}
  // CHECK-NEXT: posix_spawn child exit status 0
  printf("posix_spawn child exit status %d\n", WEXITSTATUS(sst));
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
