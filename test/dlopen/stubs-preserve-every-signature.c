// Question: does a call through a module's stub pass every kind of argument
// and result through unchanged -- integers, pointers, float and double in
// registers, arguments on the stack, variadic calls, structs by value and
// returned in memory or in two registers, long double (x87) -- and recursion
// back into the module through another stub (register-only and variadic)?
// Same output as the native program with the module built as a shared library.
//
// RUN: %clang -shared -fPIC -O1 -DPLUGIN %s -o %t.plugin.so
// RUN: %clang -S -emit-llvm -O1 -DPLUGIN %s -o %t.plugin.ll
// RUN: %clang -O1 %s -o %t.native -ldl
// RUN: %t.native %t.plugin.so > %t.expected
// RUN: %clang -S -emit-llvm -O1 %s -o %t.ll
// RUN: mini-lli %t.ll %t.plugin.ll > %t.out
// RUN: diff %t.expected %t.out
// RUN: mini-lli -jit-kind=orc-lazy %t.ll %t.plugin.ll > %t.lazy.out
// RUN: diff %t.expected %t.lazy.out
// Fallback token mode: every call takes the stubs' C path.
// RUN: env ORC_RT_C_TOKEN_MODE=fallback mini-lli %t.ll %t.plugin.ll > %t.fallback.out
// RUN: diff %t.expected %t.fallback.out
// RUN: FileCheck %s < %t.out
//
// CHECK: ints 21
// CHECK: mixed 45.5
// CHECK: stack 136
// CHECK: varargs 10 x 3.5
// CHECK: big 1 2 3 4 5
// CHECK: pair 7 8
// CHECK: dpair 1.5 2.5
// CHECK: ld 3.75
// CHECK: fib 55
// CHECK: vchain 57

#include <stdio.h>

typedef struct {
  long A, B, C, D, E;
} Big;
typedef struct {
  long X, Y;
} Pair;
typedef struct {
  double X, Y;
} DPair;

#ifdef PLUGIN
#include <stdarg.h>
long ints(long A, long B, long C, int D, short E, char F) {
  return A + B + C + D + E + F;
}
double mixed(int A, float B, double C, long D, double E) {
  return A + B + C + D + E;
}
double stack(double A, double B, double C, double D, double E, double F,
             double G, double H, double I, long J1, long J2, long J3, long J4,
             long J5, long J6, long J7) {
  return A + B + C + D + E + F + G + H + I + J1 + J2 + J3 + J4 + J5 + J6 + J7;
}
int varargs(char *Out, const char *Fmt, ...) {
  va_list Ap;
  va_start(Ap, Fmt);
  int N = vsprintf(Out, Fmt, Ap);
  va_end(Ap);
  return N;
}
Big big(Big In) {
  Big R = {In.A, In.B, In.C, In.D, In.E};
  return R;
}
Pair pair(long X, long Y) { return (Pair){X, Y}; }
DPair dpair(double X, double Y) { return (DPair){X, Y}; }
long double ld(long double X, long double Y) { return X * Y; }
typedef int (*FibFn)(void *, int);
int fib(void *Self, int N) {
  FibFn F = (FibFn)Self; /* the stub: each call re-enters the module */
  return N < 2 ? N : F(Self, N - 1) + F(Self, N - 2);
}
typedef long (*VChainFn)(void *, int, ...);
long vchain(void *Self, int N, ...) {
  va_list Ap;
  va_start(Ap, N);
  double D = va_arg(Ap, double);
  va_end(Ap);
  return N == 0 ? (long)D : N + ((VChainFn)Self)(Self, N - 1, D);
}
#else
#include <dlfcn.h>
int main(int Argc, char **Argv) {
  (void)Argc;
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H)
    return 1;
  long (*Ints)(long, long, long, int, short, char) =
      (long (*)(long, long, long, int, short, char))dlsym(H, "ints");
  printf("ints %ld\n", Ints(1, 2, 3, 4, 5, 6));
  double (*Mixed)(int, float, double, long, double) =
      (double (*)(int, float, double, long, double))dlsym(H, "mixed");
  printf("mixed %g\n", Mixed(10, 0.5f, 20, 10, 5));
  double (*Stack)(double, double, double, double, double, double, double,
                  double, double, long, long, long, long, long, long, long) =
      (double (*)(double, double, double, double, double, double, double,
                  double, double, long, long, long, long, long, long,
                  long))dlsym(H, "stack");
  printf("stack %g\n", Stack(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16));
  int (*Varargs)(char *, const char *, ...) =
      (int (*)(char *, const char *, ...))dlsym(H, "varargs");
  char Buf[64];
  Varargs(Buf, "%d x %.1f", 10, 3.5);
  printf("varargs %s\n", Buf);
  Big (*BigF)(Big) = (Big(*)(Big))dlsym(H, "big");
  Big B = BigF((Big){1, 2, 3, 4, 5});
  printf("big %ld %ld %ld %ld %ld\n", B.A, B.B, B.C, B.D, B.E);
  Pair (*PairF)(long, long) = (Pair(*)(long, long))dlsym(H, "pair");
  Pair P = PairF(7, 8);
  printf("pair %ld %ld\n", P.X, P.Y);
  DPair (*DPairF)(double, double) = (DPair(*)(double, double))dlsym(H, "dpair");
  DPair D = DPairF(1.5, 2.5);
  printf("dpair %g %g\n", D.X, D.Y);
  long double (*Ld)(long double, long double) =
      (long double (*)(long double, long double))dlsym(H, "ld");
  printf("ld %Lg\n", Ld(1.5L, 2.5L));
  typedef int (*FibFn)(void *, int);
  FibFn Fib = (FibFn)dlsym(H, "fib");
  printf("fib %d\n", Fib((void *)Fib, 10));
  typedef long (*VChainFn)(void *, int, ...);
  VChainFn VChain = (VChainFn)dlsym(H, "vchain");
  printf("vchain %ld\n", VChain((void *)VChain, 10, 2.0));
  dlclose(H);
  return 0;
}
#endif
