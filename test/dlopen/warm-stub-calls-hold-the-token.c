// Question: once a thread has been through a stub (its first call takes the
// stub's C path and sets up the thread's shadow stack), later calls take the
// stubs' inline paths, which take the module's token in the thread's own
// slot (the register-only stub's, and the general one's, here for a variadic
// function). Do they still hold the token for exactly the span the call runs
// in the module -- dlclose while a warm call is inside returns at once, and
// the code is freed only after the call has returned -- give back the token
// of a frame left with longjmp (at the next call), and end a stale call with
// one line naming the function and the module? The same in fallback token
// mode, where every call takes the C path.
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -trace-shutdown %t.ll %t.plugin.ll 2>&1 | FileCheck %s
// RUN: mini-lli -trace-shutdown -jit-kind=orc-lazy %t.ll %t.plugin.ll 2>&1 | FileCheck %s
// RUN: env ORC_RT_C_TOKEN_MODE=fallback mini-lli -trace-shutdown %t.ll %t.plugin.ll 2>&1 | FileCheck %s
// RUN: %python %inputs/mini-lli/expect-status.py 1 mini-lli %t.ll %t.plugin.ll stale 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: env ORC_RT_C_TOKEN_MODE=fallback %python %inputs/mini-lli/expect-status.py 1 mini-lli %t.ll %t.plugin.ll stale 2>&1 | FileCheck %s --check-prefix=STALE
//
// The worker is inside 'work' (a warm call) when dlclose returns; the code is
// freed only after 'work' has returned, not during the 200 ms main waits:
// CHECK:      main: worker warmed up: 6
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': destructors done; new entries denied
// CHECK-NEXT: main: dlclose returned 0 while the worker is inside work
// CHECK-NEXT: main: letting the worker go
// CHECK-NEXT: plugin: work leaving, table intact
// CHECK-DAG:  main: worker got 4950
// CHECK-DAG:  mini-lli: dlclose: '{{.*}}': last token back; code and data freed
// The same through the general stub (a variadic function):
// CHECK:      main: worker warmed up: 6
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': destructors done; new entries denied
// CHECK-NEXT: main: dlclose returned 0 while the worker is inside work_va
// CHECK-NEXT: main: letting the worker go
// CHECK-NEXT: plugin: work leaving, table intact
// CHECK-DAG:  main: worker got 4950
// CHECK-DAG:  mini-lli: dlclose: '{{.*}}': last token back; code and data freed
// A warm call left with longjmp: its token comes back at the next call.
// CHECK:      main: longjmp'd out of a warm call: 9
// CHECK-NEXT: main: called again: 3
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': destructors done; new entries denied
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': last token back; code and data freed
// CHECK-NEXT: main: closed
//
// STALE:      main: warm 3 3
// STALE-NEXT: main: unloaded; calling the old pointer
// STALE-NEXT: mini-lli: error: call to 'three' in module '{{.*}}.plugin.ll', which has been unloaded (dlclose)
// STALE-NOT:  main: after

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef PLUGIN
static int Table[100];
__attribute__((constructor)) static void init(void) {
  for (int I = 0; I < 100; ++I)
    Table[I] = I;
}
int inc(int X) { return X + 1; }
int three(void) { return 3; }
void jump_out(jmp_buf *Env) { longjmp(*Env, 9); }

/* Waits (in module code) until the host says dlclose has returned. */
int work(atomic_int *Entered, atomic_int *Go) {
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
int work_va(atomic_int *Entered, ...) {
  va_list Ap;
  va_start(Ap, Entered);
  atomic_int *Go = va_arg(Ap, atomic_int *);
  va_end(Ap);
  return work(Entered, Go);
}
#else
#include <dlfcn.h>
#include <pthread.h>

static void *H;
static const char *WorkName;
static atomic_int Entered, Go;

static void *worker(void *Arg) {
  (void)Arg;
  int (*Inc)(int) = (int (*)(int))dlsym(H, "inc");
  int (*Work)(atomic_int *, atomic_int *) =
      (int (*)(atomic_int *, atomic_int *))dlsym(H, WorkName);
  int X = Inc(Inc(Inc(Inc(Inc(Inc(0)))))); /* the first call sets up */
  printf("main: worker warmed up: %d\n", X);
  fflush(stdout);
  return (void *)(long)Work(&Entered, &Go);
}

static void liveFrame(const char *Path, const char *Name) {
  WorkName = Name;
  atomic_store(&Entered, 0);
  atomic_store(&Go, 0);
  H = dlopen(Path, RTLD_NOW);
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  while (!atomic_load(&Entered))
    ;
  int R = dlclose(H);
  printf("main: dlclose returned %d while the worker is inside %s\n", R, Name);
  fflush(stdout);
  usleep(200000); /* a token not held: the code would be freed now */
  printf("main: letting the worker go\n");
  fflush(stdout);
  atomic_store(&Go, 1);
  void *Got;
  pthread_join(T, &Got);
  printf("main: worker got %ld\n", (long)Got);
  fflush(stdout);
  usleep(200000); /* the unloading happens on the dispatcher thread */
}

static void longjmpOut(const char *Path) {
  H = dlopen(Path, RTLD_NOW);
  int (*Three)(void) = (int (*)(void))dlsym(H, "three");
  Three(); /* warm */
  static jmp_buf Env;
  int V = setjmp(Env);
  if (!V)
    ((void (*)(jmp_buf *))dlsym(H, "jump_out"))(&Env);
  printf("main: longjmp'd out of a warm call: %d\n", V);
  printf("main: called again: %d\n", Three());
  fflush(stdout);
  dlclose(H);
  usleep(200000);
  printf("main: closed\n");
}

static void stale(const char *Path) {
  H = dlopen(Path, RTLD_NOW);
  int (*Three)(void) = (int (*)(void))dlsym(H, "three");
  int A = Three(), B = Three();
  printf("main: warm %d %d\n", A, B);
  dlclose(H);
  printf("main: unloaded; calling the old pointer\n");
  fflush(stdout);
  printf("main: after %d\n", Three());
}

int main(int Argc, char **Argv) {
  if (Argc > 2 && !strcmp(Argv[2], "stale")) {
    stale(Argv[1]);
    return 0;
  }
  liveFrame(Argv[1], "work");
  liveFrame(Argv[1], "work_va");
  longjmpOut(Argv[1]);
  return 0;
}
#endif
