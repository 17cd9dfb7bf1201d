; An @abs of its own (the process has one too) and @jd_abs, which calls it
; (for jd-process-symbols-come-before-other-jitdylibs.ll).
define i32 @abs(i32 %x) {
  ret i32 77
}

define i32 @jd_abs() {
  %v = call i32 @abs(i32 -3)
  ret i32 %v
}
