// Question: 2000 dlopen / dlsym / call / dlclose cycles of one small module:
// is resident memory at the end at most 1.25x (+4 MiB) what it was at cycle
// 200 (nothing of an unloaded module kept but its permanent stub), and does
// every call see a fresh module (constructor ran, data reset)?
//
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.plugin.ll 2000 > %t.out
// RUN: FileCheck %s < %t.out
// ASan keeps freed memory in quarantine, so resident memory is only checked
// in the other builds:
// RUN: %if !address-sanitizer %{ FileCheck %s --check-prefix=RSS < %t.out %}
//
// CHECK: cycles: 2000, calls right: 2000
// RSS:   resident memory within 1.25x + 4 MiB of cycle 200: yes

#include <stdio.h>

#ifdef PLUGIN
static int Calls;
int Base;
__attribute__((constructor)) static void init(void) { Base = 40; }
int step(int X) { return Base + X + Calls++; }
#else
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static long residentKiB(void) {
  FILE *F = fopen("/proc/self/statm", "r");
  long Size = 0, Resident = 0;
  if (F) {
    if (fscanf(F, "%ld %ld", &Size, &Resident) != 2)
      Resident = 0;
    fclose(F);
  }
  return Resident * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(int Argc, char **Argv) {
  int N = Argc > 2 ? atoi(Argv[2]) : 2000, Right = 0;
  long At200 = 0;
  for (int I = 0; I < N; ++I) {
    void *H = dlopen(Argv[1], RTLD_NOW);
    if (!H) {
      printf("cycle %d: %s\n", I, dlerror());
      return 1;
    }
    int (*Step)(int) = (int (*)(int))dlsym(H, "step");
    Right += Step(2) == 42; /* a fresh module: Calls is 0, Base is 40 */
    dlclose(H);
    if (I + 1 == 200)
      At200 = residentKiB();
  }
  usleep(100000); /* let the last unload happen */
  long End = residentKiB();
  printf("cycles: %d, calls right: %d\n", N, Right);
  printf("resident KiB at cycle 200: %ld, at the end: %ld\n", At200, End);
  printf("resident memory within 1.25x + 4 MiB of cycle 200: %s\n",
         End <= At200 + At200 / 4 + 4096 ? "yes" : "no");
  return 0;
}
#endif
