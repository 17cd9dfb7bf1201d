; Module A of cross-modules-weak-and-pic.test: calls into module B, which calls
; back into A and reads A's variable; @maybe_b is defined (weakly referenced)
; by B, @never_defined by nothing, anywhere.
@a_value = global i32 30
@a_ptr = global ptr @a_value
@maybe_b = extern_weak global i32
@never_defined = extern_weak global i32
@fmt = private constant [37 x i8] c"b(2)=%d maybe_b=%d never_defined=%s\0A\00"
@null = private constant [5 x i8] c"null\00"
@set = private constant [7 x i8] c"set!!!\00"

declare i32 @b_calls_back(i32)
declare i32 @printf(ptr, ...)

define i32 @a_add(i32 %x) {
  %p = load ptr, ptr @a_ptr
  %v = load i32, ptr %p
  %r = add i32 %x, %v
  ret i32 %r
}

define i32 @main(i32 %argc, ptr %argv) {
  %r = call i32 @b_calls_back(i32 2)
  %mb = load i32, ptr @maybe_b
  %isnull = icmp eq ptr @never_defined, null
  %s = select i1 %isnull, ptr @null, ptr @set
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %r, i32 %mb, ptr %s)
  %st = sub i32 %r, 30
  ret i32 %st
}
