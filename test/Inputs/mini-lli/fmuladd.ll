; fp-contract.ll's a*a + c, written as llvm.fmuladd: codegen may fuse it into
; one fma (unless -fp-contract=off): 1.862645149230957e-09 unfused,
; 1.8626451500983188e-09 fused.
declare i32 @printf(ptr, ...)
declare double @llvm.fmuladd.f64(double, double, double)
@fmt = private constant [7 x i8] c"%.17g\0A\00"
@a = global double 0x3FF0000000400000
@c = global double -1.0

define double @f(double %a, double %c) noinline {
  %s = call double @llvm.fmuladd.f64(double %a, double %a, double %c)
  ret double %s
}

define i32 @main() {
  %a = load double, ptr @a
  %c = load double, ptr @c
  %r = call double @f(double %a, double %c)
  call i32 (ptr, ...) @printf(ptr @fmt, double %r)
  ret i32 0
}
