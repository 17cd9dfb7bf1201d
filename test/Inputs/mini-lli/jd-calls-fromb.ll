; @froma calls @fromb (for jd-link-order-is-not-transitive.ll).
declare i32 @fromb()

define i32 @froma() {
  %x = call i32 @fromb()
  ret i32 %x
}
