; A complete program for the truncation tests: main prints through a helper
; defined after it, then returns 7. Every strict prefix of this file either fails
; to parse or lacks @helper.
@msg = private constant [6 x i8] c"hello\00"

declare i32 @puts(ptr)

define i32 @main(i32 %argc, ptr %argv) {
entry:
  %r = call i32 @helper(ptr @msg)
  ret i32 7
}

define i32 @helper(ptr %s) {
entry:
  %r = call i32 @puts(ptr %s)
  ret i32 %r
}
