; A hidden @foo of its own, different from jd-hidden-defs.ll's.
define hidden i32 @foo() {
  ret i32 7
}

define i32 @own_foo() {
  %f = call i32 @foo()
  ret i32 %f
}
