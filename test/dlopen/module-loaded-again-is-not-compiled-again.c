// Question: a module loaded again in the same run (after it was unloaded) --
// is it linked from the kept objects instead of being parsed and compiled
// again, and is it a fresh instance (constructor again, data reset)? The
// -passes=print pipeline prints each module it compiles: the plugin must be
// printed once for three loads. A changed file is compiled again.
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -passes=print %t.ll %t.plugin.ll 2> %t.err | FileCheck %s
// RUN: grep -c "define.*@plugin_work" %t.err | FileCheck %s --check-prefix=ONCE
// RUN: mini-lli -jit-kind=orc-lazy -passes=print %t.ll %t.plugin.ll 2> %t.lazy.err | FileCheck %s
// RUN: grep -c "define.*@plugin_work" %t.lazy.err | FileCheck %s --check-prefix=ONCE
// RUN: mini-lli -passes=print %t.ll %t.plugin.ll edit 2> %t.edit.err | FileCheck %s --check-prefix=EDIT
// RUN: grep -c "define.*@plugin_work" %t.edit.err | FileCheck %s --check-prefix=TWICE
//
// CHECK:      plugin: ctor
// CHECK-NEXT: load 0: 1
// CHECK-NEXT: plugin: ctor
// CHECK-NEXT: load 1: 1
// CHECK-NEXT: plugin: ctor
// CHECK-NEXT: load 2: 1
// ONCE:       {{^1$}}
// EDIT:       load 2: 1
// EDIT-NEXT:  edited: plugin: ctor
// EDIT-NEXT:  {{^2$}}
// TWICE:      {{^2$}}

#include <stdio.h>

#ifdef PLUGIN
static int Calls;
__attribute__((constructor)) static void ctor(void) { printf("plugin: ctor\n"); }
int plugin_work(void) { return ++Calls; }
#else
#include <dlfcn.h>
#include <string.h>
static int load(const char *Path, int I) {
  void *H = dlopen(Path, RTLD_NOW);
  if (!H) {
    printf("%s\n", dlerror());
    return -1;
  }
  int R = ((int (*)(void))dlsym(H, "plugin_work"))();
  printf("load %d: %d\n", I, R);
  dlclose(H);
  return R;
}
int main(int Argc, char **Argv) {
  for (int I = 0; I < 3; ++I)
    load(Argv[1], I);
  if (Argc > 2 && !strcmp(Argv[2], "edit")) {
    /* Append a comment: other bytes, the same code. */
    FILE *F = fopen(Argv[1], "a");
    fputs("; edited\n", F);
    fclose(F);
    printf("edited: ");
    fflush(stdout);
    void *H = dlopen(Argv[1], RTLD_NOW);
    printf("%d\n", H ? 2 : 0);
    dlclose(H);
  }
  return 0;
}
#endif
