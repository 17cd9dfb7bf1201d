// Question: several threads at once dlopen, call and dlclose the same module
// (each load a fresh instance once the count drops to zero) while others call
// through handles they hold: does every call either run in a loaded module or
// not happen at all, with the count and the unloading consistent (no crash,
// no race under TSan, every constructor matched by one destructor)?
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.plugin.ll | FileCheck %s
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.plugin.ll | FileCheck %s
//
// CHECK: calls right: 2000 of 2000
// CHECK: constructors = destructors: yes

#include <stdatomic.h>
#include <stdio.h>

#ifdef PLUGIN
extern atomic_int Ctors, Dtors;
static int Base;
__attribute__((constructor)) static void ctor(void) {
  Base = 40;
  atomic_fetch_add(&Ctors, 1);
}
__attribute__((destructor)) static void dtor(void) {
  Base = -1000;
  atomic_fetch_add(&Dtors, 1);
}
int work(int X) { return Base + X; }
#else
#include <dlfcn.h>
#include <pthread.h>
atomic_int Ctors, Dtors;
static const char *Path;
static atomic_int Right;

static void *loop(void *Arg) {
  (void)Arg;
  for (int I = 0; I < 500; ++I) {
    void *H = dlopen(Path, RTLD_NOW);
    if (!H) {
      printf("dlopen: %s\n", dlerror());
      continue;
    }
    int (*W)(int) = (int (*)(int))dlsym(H, "work");
    if (W(2) == 42)
      atomic_fetch_add(&Right, 1);
    dlclose(H);
  }
  return NULL;
}

int main(int Argc, char **Argv) {
  (void)Argc;
  Path = Argv[1];
  pthread_t T[4];
  for (int I = 0; I < 4; ++I)
    pthread_create(&T[I], NULL, loop, NULL);
  for (int I = 0; I < 4; ++I)
    pthread_join(T[I], NULL);
  printf("calls right: %d of 2000\n", atomic_load(&Right));
  printf("constructors = destructors: %s\n",
         atomic_load(&Ctors) == atomic_load(&Dtors) ? "yes" : "no");
  return 0;
}
#endif
