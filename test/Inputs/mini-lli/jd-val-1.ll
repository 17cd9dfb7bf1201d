; @val = 1 and @one, which calls it (for jd-same-export-in-two-jitdylibs.ll).
define i32 @val() {
  ret i32 1
}

define i32 @one() {
  %v = call i32 @val()
  ret i32 %v
}
