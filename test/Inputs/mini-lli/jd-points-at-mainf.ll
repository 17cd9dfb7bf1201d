; A module of JITDylib a: @memv = 40, @fa points at main's @mainf, and
; @member_f calls it (for
; jd-functions-whose-address-is-taken-are-reached-through-a-stub.ll, as a
; module in place of the archive member).
declare i32 @mainf()

@memv = global i32 40
@fa = global ptr @mainf

define i32 @member_f() {
  %f = load ptr, ptr @fa
  %v = call i32 %f()
  %r = sub i32 %v, 38
  ret i32 %r
}
