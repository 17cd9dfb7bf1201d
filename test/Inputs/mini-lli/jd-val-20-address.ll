; @val = 20 and @getb, which gives its address (for
; jd-one-name-in-two-jitdylibs-keeps-each-body-under-every-jit-kind.ll).
define i32 @val() {
  ret i32 20
}

define ptr @getb() {
  ret ptr @val
}
