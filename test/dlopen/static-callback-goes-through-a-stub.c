// Question: a pointer to a module's static function that the module hands out
// itself (never through dlsym) -- a callback, a function-pointer table -- is
// it guarded like a dlsym'd one? A worker inside the callback keeps the
// module's code alive across dlclose, and a call through the callback after
// the unload is the stale-call error naming the static function.
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -trace-shutdown %t.ll %t.plugin.ll > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli -trace-shutdown -jit-kind=orc-lazy %t.ll %t.plugin.ll 2>&1 | FileCheck %s
//
// CHECK:      plugin: callback entered
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': destructors done; new entries denied
// CHECK-NEXT: main: dlclose returned while the callback runs
// CHECK-NEXT: plugin: callback leaving
// CHECK-DAG:  main: callback returned 12
// CHECK-DAG:  mini-lli: dlclose: '{{.*}}': last token back; code and data freed
// CHECK:      main: table entry 1 says 21
// CHECK:      main: calling the callback after the unload
// CHECK-NEXT: mini-lli: error: call to 'callback' in module '{{.*}}.plugin.ll', which has been unloaded (dlclose)

#include <stdatomic.h>
#include <stdio.h>

typedef int (*Fn)(atomic_int *, atomic_int *, int);

#ifdef PLUGIN
static int callback(atomic_int *Entered, atomic_int *Go, int X) {
  if (Entered) {
    printf("plugin: callback entered\n");
    fflush(stdout);
    atomic_store(Entered, 1);
    while (!atomic_load(Go))
      ;
    printf("plugin: callback leaving\n");
    fflush(stdout);
  }
  return X + 2;
}
static int twice(atomic_int *E, atomic_int *G, int X) {
  (void)E, (void)G;
  return 2 * X + 1;
}
Fn Table[] = {callback, twice}; /* a table of pointers, as a vtable */
Fn get_callback(void) { return callback; }
#else
#include <dlfcn.h>
#include <pthread.h>
static Fn Callback;
static atomic_int Entered, Go;
static void *worker(void *Arg) {
  (void)Arg;
  return (void *)(long)Callback(&Entered, &Go, 10);
}
int main(int Argc, char **Argv) {
  (void)Argc;
  void *H = dlopen(Argv[1], RTLD_NOW);
  Callback = ((Fn(*)(void))dlsym(H, "get_callback"))();
  pthread_t T;
  pthread_create(&T, NULL, worker, NULL);
  while (!atomic_load(&Entered))
    ;
  dlclose(H);
  printf("main: dlclose returned while the callback runs\n");
  fflush(stdout);
  atomic_store(&Go, 1);
  void *R;
  pthread_join(T, &R);
  printf("main: callback returned %ld\n", (long)R);
  H = dlopen(Argv[1], RTLD_NOW);
  Fn *Table = (Fn *)dlsym(H, "Table");
  printf("main: table entry 1 says %d\n", Table[1](NULL, NULL, 10));
  Callback = Table[0];
  dlclose(H);
  printf("main: calling the callback after the unload\n");
  fflush(stdout);
  Callback(NULL, NULL, 1);
  printf("main: not reached\n");
  return 0;
}
#endif
