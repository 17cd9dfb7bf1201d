; Calls a variadic external that LLVM's interpreter cannot call (no libffi
; varargs), for test/mini-lli/engine-option-limits.test.
declare i32 @snprintf(ptr, i64, ptr, ...)
@b = global [8 x i8] zeroinitializer
@f = constant [3 x i8] c"%d\00"

define i32 @main() {
  call i32 (ptr, i64, ptr, ...) @snprintf(ptr @b, i64 8, ptr @f, i32 3)
  ret i32 0
}
