; Question: is a status outside 0..255 truncated the way the OS does (as lli)?
; RUN: %python %inputs/mini-lli/expect-status.py 4 mini-lli %s
; RUN: %python %inputs/mini-lli/expect-status.py 4 %lli %s
define i32 @main() {
  ret i32 260
}
