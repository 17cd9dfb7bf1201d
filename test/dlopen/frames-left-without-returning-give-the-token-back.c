// Question: a frame inside a module that is left without returning through
// its stub -- pthread_exit in a thread whose start routine is the module's
// (directly and from a nested call), longjmp from the module past the stub --
// does its token still come back (when the thread ends, or when the thread
// next passes a stub), so that dlclose still unloads the module?
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli -trace-shutdown %t.ll %t.plugin.ll 2>&1 | FileCheck %s
// RUN: mini-lli -trace-shutdown -jit-kind=orc-lazy %t.ll %t.plugin.ll 2>&1 | FileCheck %s
// The program ends right after a longjmp out of a module that stays loaded:
// the drain must not wait for the abandoned frame.
// RUN: mini-lli -shutdown-timeout=10 %t.ll %t.plugin.ll end 2>&1 | FileCheck %s --check-prefix=END
//
// CHECK:      main: joined 5
// CHECK-NEXT: main: joined 6
// CHECK-NEXT: main: longjmp'd out of the module: 7
// CHECK-NEXT: main: called again: 3
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': destructors done; new entries denied
// CHECK-NEXT: mini-lli: dlclose: '{{.*}}': last token back; code and data freed
// CHECK-NEXT: main: closed
// CHECK-NEXT: mini-lli: shutdown: requested
//
// END:      main: longjmp'd out of the module: 7
// END-NEXT: main: returning
// END-NOT:  timed out

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <unistd.h>

#ifdef PLUGIN
void *thread_main(void *Arg) {
  (void)Arg;
  pthread_exit((void *)5);
}
static int deep(int N) {
  if (N == 0)
    pthread_exit((void *)6);
  return deep(N - 1) + 1;
}
void *thread_nested(void *Arg) {
  (void)Arg;
  return (void *)(long)deep(3);
}
void jump_out(jmp_buf *Env) { longjmp(*Env, 7); }
int three(void) { return 3; }
#else
#include <dlfcn.h>
int main(int Argc, char **Argv) {
  void *H = dlopen(Argv[1], RTLD_NOW);
  pthread_t T;
  void *R;
  pthread_create(&T, 0, (void *(*)(void *))dlsym(H, "thread_main"), 0);
  pthread_join(T, &R);
  printf("main: joined %ld\n", (long)R);
  pthread_create(&T, 0, (void *(*)(void *))dlsym(H, "thread_nested"), 0);
  pthread_join(T, &R);
  printf("main: joined %ld\n", (long)R);
  static jmp_buf Env;
  int V = setjmp(Env);
  if (!V)
    ((void (*)(jmp_buf *))dlsym(H, "jump_out"))(&Env);
  printf("main: longjmp'd out of the module: %d\n", V);
  if (Argc > 2) {
    printf("main: returning\n");
    return 0;
  }
  /* The next stub call on this thread gives the abandoned frame's token
   * back. */
  printf("main: called again: %d\n", ((int (*)(void))dlsym(H, "three"))());
  fflush(stdout);
  dlclose(H);
  printf("main: closed\n");
  fflush(stdout);
  usleep(200000); /* the unloading happens on the dispatcher thread */
  return 0;
}
#endif
