; Prints "hello" and returns 7: for tests that compare output and status.
@s = private constant [6 x i8] c"hello\00"
declare i32 @puts(ptr)

define i32 @main() {
  call i32 @puts(ptr @s)
  ret i32 7
}
