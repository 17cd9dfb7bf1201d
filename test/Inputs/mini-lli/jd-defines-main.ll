; A module that defines the entry points (for
; jd-entry-point-is-looked-up-in-the-main-jitdylib.ll).
define i32 @main() {
  ret i32 3
}

define i32 @jd_entry() {
  ret i32 4
}
