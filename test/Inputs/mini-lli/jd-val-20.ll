; @val = 20 and @two, which calls it (for jd-same-export-in-two-jitdylibs.ll).
define i32 @val() {
  ret i32 20
}

define i32 @two() {
  %v = call i32 @val()
  ret i32 %v
}
