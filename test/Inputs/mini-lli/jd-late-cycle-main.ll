; A main module whose variable @mainp points at JITDylib a's archive member's
; @memberp (which points back at @counter), but whose main only calls a's
; @froma: the objects that wait on each other are linked only once main runs
; (for jd-refuses-objects-waiting-on-each-other-through-an-archive-member.ll).
@counter = global i32 42
@mainp = global ptr @memberp
@memberp = external global ptr

declare i32 @froma()

define i32 @main() {
  %v = call i32 @froma()
  ret i32 %v
}
