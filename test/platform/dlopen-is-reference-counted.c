// dlopen of another JITDylib (made with llvm-jitlink -jd) through the runtime's
// __orc_rt_jit_dlopen: its initializers run once, at the first open; a second open
// returns the same handle and runs nothing; dlsym finds its symbols (and fails with
// a dlerror message on a missing one); its __cxa_atexit and atexit handlers (both
// registered while its constructor runs, so they belong to it) run newest first at
// the LAST dlclose, not the first; reopening after that runs the initializers
// again, as after a real unload. compiler-rt's runtime drops the atexit handler.
// REQUIRES: orc-rt-platform, jit-orc-runtime
// RUN: %clang -c -O0 %s -o %t.o
// RUN: %clang -c -O0 -DLIB %s -o %t-lib.o
// RUN: %python %inputs/platform/modes.py %orc-executor %llvm-jitlink-executor -- \
// RUN:   %llvm-jitlink -orc-runtime=%orc-rt-platform @OOP@ %t.o -jd lib %t-lib.o \
// RUN:   | FileCheck %s
// RUN: %llvm-jitlink -orc-runtime=%jit-orc-runtime %t.o -jd lib %t-lib.o \
// RUN:   | FileCheck %s --check-prefix=CRT
// CHECK: main: first open
// CHECK-NEXT: lib: constructor run 1
// CHECK-NEXT: main: second open, same handle: 1
// CHECK-NEXT: lib_fn(2) = 42
// CHECK-NEXT: missing symbol: null, dlerror set: 1
// CHECK-NEXT: main: first close
// CHECK-NEXT: main: second close
// CHECK-NEXT: lib: cxa_atexit handler B
// CHECK-NEXT: lib: atexit handler
// CHECK-NEXT: lib: cxa_atexit handler A
// CHECK-NEXT: main: reopen
// CHECK-NEXT: lib: constructor run 2
// CHECK-NEXT: main: close again
// CHECK-NEXT: lib: cxa_atexit handler B
// CHECK-NEXT: lib: atexit handler
// CHECK-NEXT: lib: cxa_atexit handler A
// CHECK-NEXT: bad open: null, dlerror: no registered JITDylib for path nope
// CHECK-NEXT: bad close: -1
// CHECK-NEXT: in-process: status 0
// CHECK-NEXT: orc-executor: same stdout, status 0
// CHECK-NEXT: llvm-jitlink-executor: same stdout, status 0
// CRT: main: second close
// CRT-NEXT: lib: cxa_atexit handler B
// CRT-NEXT: lib: cxa_atexit handler A
// CRT-NEXT: main: reopen
#include <stdio.h>
#include <stdlib.h>

#ifdef LIB
extern int __cxa_atexit(void (*)(void *), void *, void *);
extern void *__dso_handle;
static int Runs;
static void bye(void *P) { printf("lib: cxa_atexit handler %s\n", (char *)P); }
static void byeAtExit(void) { puts("lib: atexit handler"); }
__attribute__((constructor)) static void init(void) {
  printf("lib: constructor run %d\n", ++Runs);
  __cxa_atexit(bye, "A", &__dso_handle);
  atexit(byeAtExit);
  __cxa_atexit(bye, "B", &__dso_handle);
}
int lib_fn(int X) { return X * 21; }
#else
extern void *__orc_rt_jit_dlopen(const char *, int);
extern void *__orc_rt_jit_dlsym(void *, const char *);
extern int __orc_rt_jit_dlclose(void *);
extern const char *__orc_rt_jit_dlerror(void);

int main(void) {
  puts("main: first open");
  void *H1 = __orc_rt_jit_dlopen("lib", 2);
  void *H2 = __orc_rt_jit_dlopen("lib", 2);
  if (!H1 || !H2) {
    printf("dlopen failed: %s\n", __orc_rt_jit_dlerror());
    return 1;
  }
  printf("main: second open, same handle: %d\n", H1 == H2);
  int (*F)(int) = (int (*)(int))__orc_rt_jit_dlsym(H1, "lib_fn");
  printf("lib_fn(2) = %d\n", F ? F(2) : -1);
  void *Missing = __orc_rt_jit_dlsym(H1, "no_such_symbol");
  printf("missing symbol: %s, dlerror set: %d\n", Missing ? "found" : "null",
         __orc_rt_jit_dlerror()[0] != 0);
  puts("main: first close");
  __orc_rt_jit_dlclose(H2);
  puts("main: second close");
  __orc_rt_jit_dlclose(H1);
  puts("main: reopen");
  void *H3 = __orc_rt_jit_dlopen("lib", 2);
  puts("main: close again");
  __orc_rt_jit_dlclose(H3);
  void *Bad = __orc_rt_jit_dlopen("nope", 2);
  printf("bad open: %s, dlerror: %s\n", Bad ? "handle" : "null",
         __orc_rt_jit_dlerror());
  printf("bad close: %d\n", __orc_rt_jit_dlclose(H3));
  return 0;
}
#endif
