; Main module calling into extra-fn.ll / the extra object / archive.
declare i32 @extra_add(i32, i32)
declare void @extra_hello()

define i32 @main(i32 %argc, ptr %argv) {
  call void @extra_hello()
  %r = call i32 @extra_add(i32 40, i32 2)
  ret i32 %r
}
