declare i64 @strlen(ptr)
@s = private constant [3 x i8] c"hi\00"
define i64 @len() {
  %r = call i64 @strlen(ptr @s)
  ret i64 %r
}
define internal void @cb() {
  ret void
}
define ptr @escape() {
  ret ptr @cb
}
