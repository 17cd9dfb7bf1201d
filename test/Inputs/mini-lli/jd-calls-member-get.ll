; A module of JITDylib a that calls its archive's @member_get (for
; jd-refuses-objects-waiting-on-each-other-through-an-archive-member.ll).
declare i32 @member_get()

define i32 @froma() {
  %v = call i32 @member_get()
  ret i32 %v
}
