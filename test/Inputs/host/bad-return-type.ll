; A module that fails to verify: run returns the wrong type.
define i32 @run(i32 %n) {
  ret i64 0
}
