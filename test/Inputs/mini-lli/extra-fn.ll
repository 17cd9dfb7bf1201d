; An extra module: defines a function and data used by the main module.
@extra_greeting = global [16 x i8] c"hello from extra"

declare i32 @printf(ptr, ...)

@fmt = private constant [7 x i8] c"%.16s\0A\00"

define i32 @extra_add(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  ret i32 %s
}

define void @extra_hello() {
  %r = call i32 (ptr, ...) @printf(ptr @fmt, ptr @extra_greeting)
  ret void
}
