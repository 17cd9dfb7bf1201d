; @fromb = 5 (for jd-link-order-is-not-transitive.ll).
define i32 @fromb() {
  ret i32 5
}
