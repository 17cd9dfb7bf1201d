; @val = 1 and @geta, which gives its address (for
; jd-one-name-in-two-jitdylibs-keeps-each-body-under-every-jit-kind.ll).
define i32 @val() {
  ret i32 1
}

define ptr @geta() {
  ret ptr @val
}
