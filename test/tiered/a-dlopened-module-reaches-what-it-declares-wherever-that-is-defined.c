// Question: does an IR module dlopen'ed under orc-tiered reach what it
// declares wherever that is defined? orc-tiered compiles in the small code
// model, and a dlopen'ed module is compiled whole, by the program's target
// machine: its -fno-pic declarations (dso_local) of stdout, exit and environ,
// defined in mini-lli's binary and libc, were reached PC-relative, and the
// load failed ("out of range of Delta32 fixup") until the module's
// declarations were made preemptible as the program's are
// (lib/jit/ir/PreemptibleDeclarations.h).
//
// RUN: %clang -S -emit-llvm -O0 -fno-pic -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O0 -fno-pic %s -o %t.ll
// RUN: mini-lli -jit-kind=orc-tiered %t.ll %t.plugin.ll | FileCheck %s
// RUN: mini-lli -jit-kind=orc-tiered -tier-up-threshold=1 %t.ll %t.plugin.ll | FileCheck %s
//
// CHECK: stdout same, exit same, environ same, calls 3
#ifdef PLUGIN
#include <stdio.h>
#include <stdlib.h>

extern char **environ;
static int Calls;
void *plug_stdout(void) { return ++Calls, &stdout; }
void *plug_exit(void) { return ++Calls, (void *)exit; }
void *plug_environ(void) { return ++Calls, &environ; }
int plug_calls(void) { return Calls; }
#else
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

extern char **environ;

static const char *same(void *A, void *B) { return A == B ? "same" : "differs"; }

int main(int argc, char **argv) {
  void *H = dlopen(argv[1], RTLD_NOW);
  if (!H) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  void *(*Stdout)(void) = (void *(*)(void))dlsym(H, "plug_stdout");
  void *(*Exit)(void) = (void *(*)(void))dlsym(H, "plug_exit");
  void *(*Environ)(void) = (void *(*)(void))dlsym(H, "plug_environ");
  int (*Calls)(void) = (int (*)(void))dlsym(H, "plug_calls");
  const char *S = same(Stdout(), &stdout), *X = same(Exit(), (void *)exit);
  const char *E = same(Environ(), &environ);
  printf("stdout %s, exit %s, environ %s, calls %d\n", S, X, E, Calls());
  return 0;
}
#endif
