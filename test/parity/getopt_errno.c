// Library state JIT'd code shares with libc: getopt_long's globals (optind,
// optarg, opterr) over the command line, errno (a libc thread-local reached via
// __errno_location) set by libc calls and seen per thread, and strerror text.
// Under -force-interpreter: a thread's start routine is interpreted code, which native
// pthread_create cannot call: SIGSEGV (lli-22 too).
// XFAIL: parity-interpreter
//
// Through stock llvm-jitlink with an ORC runtime (test/parity/README.md), llvm-jitlink
// drops a `--` among the -args words, so `-file2` is parsed as options:
// XFAIL: parity-jitlink
// RUN: %python %inputs/parity/compare.py --cc %clang --tool %parity-jit --out %t %s -- -v -n 5 --name=zed -x file1 -- -file2 | FileCheck %s
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *thread_errno(void *arg) {
  (void)arg;
  errno = 0;
  strtol("99999999999999999999999", NULL, 10); // ERANGE in this thread only
  return (void *)(long)errno;
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {{"verbose", no_argument, 0, 'v'},
                                           {"name", required_argument, 0, 'N'},
                                           {0, 0, 0, 0}};
  opterr = 0; // we report unknown options ourselves (stderr is not compared)
  int c, verbose = 0, n = 0;
  const char *name = "";
  while ((c = getopt_long(argc, argv, "vn:", longopts, NULL)) != -1) {
    switch (c) {
    case 'v': verbose++; break;
    case 'n': n = atoi(optarg); break;
    case 'N': name = optarg; break;
    case '?': printf("unknown option -%c\n", optopt); break;
    }
  }
  // CHECK:      unknown option -x
  // CHECK-NEXT: verbose 1 n 5 name zed, operands: file1 -file2
  printf("verbose %d n %d name %s, operands:", verbose, n, name);
  for (int i = optind; i < argc; i++)
    printf(" %s", argv[i]);
  printf("\n");

  errno = 0;
  long v = strtol("99999999999999999999999", NULL, 10);
  // CHECK-NEXT: strtol overflow: LONG_MAX 1, ERANGE 1
  printf("strtol overflow: LONG_MAX %d, ERANGE %d\n", v == LONG_MAX, errno == ERANGE);
  FILE *f = fopen("/nonexistent/parity/file", "r");
  // CHECK-NEXT: fopen: NULL 1, errno ENOENT 1: No such file or directory
  printf("fopen: NULL %d, errno ENOENT %d: %s\n", f == NULL, errno == ENOENT, strerror(errno));
  errno = 0;
  pthread_t t;
  void *r;
  pthread_create(&t, NULL, thread_errno, NULL);
  pthread_join(t, &r);
  // CHECK-NEXT: thread saw ERANGE 1, main's errno still 0: 1
  printf("thread saw ERANGE %d, main's errno still 0: %d\n", (long)r == ERANGE, errno == 0);
  // CHECK-NEXT: parity: exit status 0
  return 0;
}
