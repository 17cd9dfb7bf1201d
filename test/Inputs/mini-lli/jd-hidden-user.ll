; Uses the hidden @foo and @bar of jd-hidden-defs.ll (declared with default
; visibility, as a C compiler does) and exports the sum.
@bar = external global i32
declare i32 @foo()

define i32 @sum_from_user() {
  %f = call i32 @foo()
  %b = load i32, ptr @bar
  %s = add i32 %f, %b
  ret i32 %s
}
