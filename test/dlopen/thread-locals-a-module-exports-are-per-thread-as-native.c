// Question: does a module that exports a thread_local load and behave as the
// same code built as a shared library: each thread has its own copy, starting
// from the initializer, reached by the module's functions, by dlsym of the
// variable in the module and in RTLD_DEFAULT (the calling thread's copy) and
// by another module that declares it? (It failed to load: "Symbols not found: [ counter ]".) The native
// program's output is the expectation.
//
// RUN: %clang -shared -fPIC -O1 -DPLUGIN %s -o %t.plugin.so
// RUN: %clang -shared -fPIC -O1 -DUSER %s -o %t.user.so %t.plugin.so
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 -DUSER %s -o %t.user.ll
// RUN: %clang -O1 %s -o %t.native -ldl -lpthread
// RUN: %t.native %t.plugin.so %t.user.so > %t.expected
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.plugin.ll %t.user.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.plugin.ll %t.user.ll | diff %t.expected -
// RUN: FileCheck %s < %t.out
//
// CHECK:      main thread: bump 6, dlsym 6, default 6, user 6
// CHECK-NEXT: other thread: bump 6, dlsym 6, default 6, user 6
// CHECK-NEXT: main thread again: bump 7, dlsym 7, default 7, user 7

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#ifdef PLUGIN
__thread int counter = 5;
int bump(void) { return ++counter; }
#elif defined(USER)
extern __thread int counter;
int user_counter(void) { return counter; }
#else
static void *Plugin, *User;

static void *report(void *What) {
  int Bumped = ((int (*)(void))dlsym(Plugin, "bump"))();
  int *Mine = dlsym(Plugin, "counter"), *Global = dlsym(RTLD_DEFAULT, "counter");
  printf("%s: bump %d, dlsym %d, default %d, user %d\n", (const char *)What,
         Bumped, Mine ? *Mine : -1, Global ? *Global : -1,
         ((int (*)(void))dlsym(User, "user_counter"))());
  return NULL;
}

int main(int Argc, char **Argv) {
  (void)Argc;
  Plugin = dlopen(Argv[1], RTLD_NOW | RTLD_GLOBAL);
  User = Plugin ? dlopen(Argv[2], RTLD_NOW) : NULL;
  if (!User) {
    printf("%s\n", dlerror());
    return 1;
  }
  report("main thread");
  pthread_t T;
  pthread_create(&T, NULL, report, "other thread");
  pthread_join(T, NULL);
  report("main thread again");
  return 0;
}
#endif
