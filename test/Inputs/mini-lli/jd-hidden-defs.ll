; Hidden definitions, and an exported function that returns them (for
; jd-hidden-symbols-stay-in-their-jitdylib.ll).
@bar = hidden global i32 2

define hidden i32 @foo() {
  ret i32 40
}

define i32 @sum_from_defs() {
  %f = call i32 @foo()
  %b = load i32, ptr @bar
  %s = add i32 %f, %b
  ret i32 %s
}
