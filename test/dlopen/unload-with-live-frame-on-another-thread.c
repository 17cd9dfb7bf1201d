// Question: dlclose while another thread is inside the module (entered through
// a dlsym'd pointer, and as a thread whose start routine is in the module):
// does dlclose return at once, does the frame run on to the end in intact
// code, and is the code freed only after the last token is back? Plugin as
// .ll and .bc, -jit-kind=orc and orc-lazy. (Natively this is a SIGSEGV.)
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -c -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.bc
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -trace-shutdown %t.ll %t.plugin.ll 2>&1 | FileCheck %s
// RUN: mini-lli -trace-shutdown %t.ll %t.plugin.bc 2>&1 | FileCheck %s
// RUN: mini-lli -trace-shutdown -jit-kind=orc-lazy %t.ll %t.plugin.ll 2>&1 | FileCheck %s
//
// CHECK:      plugin: work entered
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': destructors done; new entries denied
// CHECK-NEXT: main: dlclose returned 0 while the worker is inside
// CHECK-NEXT: plugin: work leaving, table intact
// CHECK-DAG:  main: worker got 4950
// CHECK-DAG:  mini-lli: dlclose: '{{.*}}': last token back; code and data freed
// CHECK:      plugin: thread_main entered
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': destructors done; new entries denied
// CHECK-NEXT: main: dlclose returned 0 while the thread is inside
// CHECK-NEXT: plugin: thread_main leaving
// CHECK-DAG:  main: thread returned 7
// CHECK-DAG:  mini-lli: dlclose: '{{.*}}': last token back; code and data freed

#include <stdatomic.h>
#include <stdio.h>

#ifdef PLUGIN
static int Table[100];
static void fill(void) {
  for (int I = 0; I < 100; ++I)
    Table[I] = I;
}
__attribute__((constructor)) static void init(void) { fill(); }

/* Waits (in module code) until the host says dlclose has returned. */
int work(atomic_int *Entered, atomic_int *Go) {
  printf("plugin: work entered\n");
  fflush(stdout);
  atomic_store(Entered, 1);
  while (!atomic_load(Go))
    ;
  int Sum = 0;
  for (int I = 0; I < 100; ++I)
    Sum += Table[I];
  printf("plugin: work leaving, table intact\n");
  fflush(stdout);
  return Sum;
}

typedef struct {
  atomic_int Entered, Go;
} Flags;

void *thread_main(void *Arg) {
  Flags *F = Arg;
  printf("plugin: thread_main entered\n");
  fflush(stdout);
  atomic_store(&F->Entered, 1);
  while (!atomic_load(&F->Go))
    ;
  printf("plugin: thread_main leaving\n");
  fflush(stdout);
  return (void *)7;
}
#else
#include <dlfcn.h>
#include <pthread.h>

typedef struct {
  atomic_int Entered, Go;
} Flags;

static int (*Work)(atomic_int *, atomic_int *);
static Flags F1;

static void *worker(void *Arg) {
  (void)Arg;
  return (void *)(long)Work(&F1.Entered, &F1.Go);
}

int main(int Argc, char **Argv) {
  (void)Argc;
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  Work = (int (*)(atomic_int *, atomic_int *))dlsym(H, "work");
  pthread_t T;
  pthread_create(&T, NULL, worker, NULL);
  while (!atomic_load(&F1.Entered))
    ;
  int R = dlclose(H);
  printf("main: dlclose returned %d while the worker is inside\n", R);
  fflush(stdout);
  atomic_store(&F1.Go, 1);
  void *Got;
  pthread_join(T, &Got);
  printf("main: worker got %ld\n", (long)Got);
  fflush(stdout);

  /* Now a thread whose start routine is the module's. */
  H = dlopen(Argv[1], RTLD_NOW);
  static Flags F2;
  pthread_create(&T, NULL, (void *(*)(void *))dlsym(H, "thread_main"), &F2);
  while (!atomic_load(&F2.Entered))
    ;
  R = dlclose(H);
  printf("main: dlclose returned %d while the thread is inside\n", R);
  fflush(stdout);
  atomic_store(&F2.Go, 1);
  pthread_join(T, &Got);
  printf("main: thread returned %ld\n", (long)Got);
  fflush(stdout);
  return 0;
}
#endif
