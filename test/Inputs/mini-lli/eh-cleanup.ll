; A program with exception handling: main invokes g with a cleanup landing
; pad (g never throws). Exits 0.
declare i32 @__gxx_personality_v0(...)

define void @g() {
  ret void
}

define i32 @main() personality ptr @__gxx_personality_v0 {
  invoke void @g() to label %ok unwind label %lp
ok:
  ret i32 0
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret i32 1
}
