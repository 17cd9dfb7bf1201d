// Question: is a module that declares a thread_local no loaded module or
// library defines refused by dlopen, as the same code built as a shared
// library is ("undefined symbol"), the program going on? It loaded, and the
// process ended at the variable's first use ("thread_local variable
// 'nowhere' not found"), however late that came. A module that defines it,
// opened first with RTLD_GLOBAL, lets the same module load. The native
// program's output is the expectation.
//
// RUN: %clang -shared -fPIC -O1 -DUSER %s -o %t.user.so
// RUN: %clang -shared -fPIC -O1 -DOWNER %s -o %t.owner.so
// RUN: %clang -S -emit-llvm -O1 -DUSER %s -o %t.user.ll
// RUN: %clang -S -emit-llvm -O1 -DOWNER %s -o %t.owner.ll
// RUN: %clang -O1 %s -o %t.native -ldl
// RUN: %t.native %t.user.so %t.owner.so > %t.expected
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.user.ll %t.owner.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.user.ll %t.owner.ll | diff %t.expected -
// RUN: FileCheck %s < %t.out
//
// CHECK:      alone: refused, naming nowhere: yes
// CHECK-NEXT: after its owner: loaded, reads 42

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifdef USER
extern __thread int nowhere;
int readIt(void) { return nowhere; }
#elif defined(OWNER)
__thread int nowhere = 42;
#else
int main(int Argc, char **Argv) {
  (void)Argc;
  void *User = dlopen(Argv[1], RTLD_NOW);
  const char *Why = User ? NULL : dlerror();
  printf("alone: %s, naming nowhere: %s\n", User ? "loaded" : "refused",
         Why && strstr(Why, "nowhere") ? "yes" : "no");
  if (User)
    return 1;
  void *Owner = dlopen(Argv[2], RTLD_NOW | RTLD_GLOBAL);
  User = Owner ? dlopen(Argv[1], RTLD_NOW) : NULL;
  if (!User) {
    printf("after its owner: %s\n", dlerror());
    return 1;
  }
  printf("after its owner: loaded, reads %d\n",
         ((int (*)(void))dlsym(User, "readIt"))());
  return 0;
}
#endif
